/**
 * What the per-token daily counts (api_token_usage; gathered in the process and written once a
 * second: api/src/access/tokenUsage.ts) tell: the admins' busiest tokens, the
 * leaderboard's "API" badge, and the housekeeping of the access tables.
 */
import { sql } from 'drizzle-orm';
import { JOIN_ATTEMPT_WINDOW_MINUTES, PUBLIC_WORLD_ID } from '@marketcraft/shared';
import { API_BADGE_WINDOW_DAYS, API_TOKEN_USAGE_RETENTION_DAYS, type ApiTokenScope } from '@marketcraft/shared';
import { memberCompanyIdSql, type DbExecutor } from '@marketcraft/db';
import { flushTokenUsage } from './tokenUsage.ts';

const BUSIEST_TOKENS_LIMIT = 20;
const BUSIEST_TOKENS_DAYS = 7;
/** Revoked or expired tokens stay listed (and answer "revoked"/"expired") this long, then are deleted. */
const ENDED_TOKEN_RETENTION_DAYS = 30;
/** Rate limit windows older than this are deleted (the current and the previous minute are kept). */
const RATE_WINDOW_RETENTION = '2 minutes';

export interface BusyToken {
  token_id: number;
  name: string;
  scope: ApiTokenScope;
  status: 'active' | 'expired' | 'revoked';
  owner_email: string;
  company_id: number | null;
  company_name: string | null;
  requests: number;
  mutations: number;
  limited: number;
  requests_today: number;
  last_used_at: string | null;
}

/** The tokens with the most requests over the last 7 UTC days (today included), busiest first. */
export async function busiestApiTokens(db: DbExecutor): Promise<BusyToken[]> {
  await flushTokenUsage(db); // the counts this process gathered and has not written yet
  const rows = await db.execute<Omit<BusyToken, 'last_used_at'> & { last_used_at: Date | string | null }>(sql`
    with totals as (
      select token_id,
             sum(requests)::int as requests, sum(mutations)::int as mutations, sum(limited)::int as limited,
             coalesce(sum(requests) filter (where day = (now() at time zone 'utc')::date), 0)::int as requests_today
      from api_token_usage
      where day > (now() at time zone 'utc')::date - ${BUSIEST_TOKENS_DAYS}::int
      group by token_id
    )
    select t.id as token_id, t.name, t.scope,
           case when t.revoked_at is not null then 'revoked'
                when t.expires_at is not null and t.expires_at <= now() then 'expired'
                else 'active' end as status,
           u.email as owner_email, c.id as company_id, c.name as company_name,
           totals.requests, totals.mutations, totals.limited, totals.requests_today, t.last_used_at
    from totals
    join api_tokens t on t.id = totals.token_id
    join users u on u.id = t.user_id
    left join companies c on c.world_id = ${PUBLIC_WORLD_ID} and c.id = ${memberCompanyIdSql(PUBLIC_WORLD_ID, sql`t.user_id`)}
    order by totals.requests desc, t.id
    limit ${BUSIEST_TOKENS_LIMIT}`);
  return rows.map((row) => ({
    token_id: Number(row.token_id),
    name: row.name,
    scope: row.scope,
    status: row.status,
    owner_email: row.owner_email,
    company_id: row.company_id === null ? null : Number(row.company_id),
    company_name: row.company_name,
    requests: Number(row.requests),
    mutations: Number(row.mutations),
    limited: Number(row.limited),
    requests_today: Number(row.requests_today),
    last_used_at: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
  }));
}

/** Companies a personal access token acted for (a mutation within budget) in the last 7 days. */
export async function companiesActingThroughApi(db: DbExecutor): Promise<Set<number>> {
  await flushTokenUsage(db);
  const rows = await db.execute<{ company_id: number }>(sql`
    select distinct company_id from api_token_usage
    where mutations > 0 and company_id is not null
      and day > (now() at time zone 'utc')::date - ${API_BADGE_WINDOW_DAYS}::int`);
  return new Set(rows.map((row) => Number(row.company_id)));
}

/** Deletes old rate limit windows, old daily counts and tokens ended a month ago (idempotent). */
export async function pruneApiAccessRows(db: DbExecutor): Promise<{ windows: number; usage: number; tokens: number }> {
  const windows = await db.execute(sql`
    delete from rate_limit_counters
    where window_start < now() - interval '${sql.raw(RATE_WINDOW_RETENTION)}'
      -- Wrong join codes count over JOIN_ATTEMPT_WINDOW_MINUTES (api/src/access/joinAttempts.ts).
      and (subject not like 'join:%' or window_start < now() - make_interval(mins => ${JOIN_ATTEMPT_WINDOW_MINUTES + 1}))
    returning 1`);
  const usage = await db.execute(sql`
    delete from api_token_usage where day < (now() at time zone 'utc')::date - ${API_TOKEN_USAGE_RETENTION_DAYS}::int returning 1`);
  const tokens = await db.execute(sql`
    delete from api_tokens
    where coalesce(revoked_at, expires_at) < now() - make_interval(days => ${ENDED_TOKEN_RETENTION_DAYS})
    returning 1`);
  return { windows: windows.length, usage: usage.length, tokens: tokens.length };
}
