/**
 * The rate limiter (docs/api.md): a budget of calls and of mutations per minute for each personal
 * access token and each session. The counters are rows in PostgreSQL (`rate_limit_counters`, one
 * per subject and minute, an unlogged table), incremented by one atomic upsert per call, so the
 * limits hold however many API servers share the database. The window is the clock minute of the
 * database server (the same for every API server).
 *
 * For a token the same statement also counts the call in the token's daily audit
 * (`api_token_usage`, with the company it acted for: the leaderboard's "API" badge) and refreshes
 * its last use at most once a minute.
 */
import { sql, type SQL } from 'drizzle-orm';
import { memberCompanyIdSql, sqlTemplate, type DbExecutor } from '@marketcraft/db';
import { PUBLIC_WORLD_ID } from '@marketcraft/shared';
import type { ApiConfig } from '../config.ts';

export interface RateBudget {
  requestsPerMinute: number;
  mutationsPerMinute: number;
}

/** The budgets of a personal access token and of a session (api/src/config.ts). */
export function tokenBudget(config: ApiConfig): RateBudget {
  return { requestsPerMinute: config.RATE_LIMIT_TOKEN_REQUESTS, mutationsPerMinute: config.RATE_LIMIT_TOKEN_MUTATIONS };
}
export function sessionBudget(config: ApiConfig): RateBudget {
  return { requestsPerMinute: config.RATE_LIMIT_SESSION_REQUESTS, mutationsPerMinute: config.RATE_LIMIT_SESSION_MUTATIONS };
}

export type RateSubject = { kind: 'session'; sessionId: string } | { kind: 'token'; tokenId: number; userId: number; refreshLastUse: boolean };

export interface RateVerdict {
  allowed: boolean;
  budget: RateBudget;
  /** Calls and mutations counted in this minute, this one included. */
  requests: number;
  mutations: number;
  /** Seconds until the window ends and the counts start again. */
  resetSeconds: number;
}

type CounterRow = {
  requests: number;
  mutations: number;
  reset_seconds: number;
};

/** A subject's counter for this minute after a count: calls and mutations so far, seconds until it resets. */
export interface CountedCalls {
  requests: number;
  mutations: number;
  resetSeconds: number;
}

/**
 * The upsert that counts calls: `requests` calls (of them `mutations` mutations) for the subject
 * `subject` (an expression over `from`, e.g. the session row the same statement found; no row
 * from `from`: nothing is counted). Returns requests, mutations and reset_seconds.
 */
export function counterUpsertSql(options: { subject: SQL; from?: SQL; requests: SQL; mutations: SQL }): SQL {
  return sql`
    insert into rate_limit_counters as c (subject, window_start, requests, mutations)
    select ${options.subject}, date_trunc('minute', now()), ${options.requests}::int, ${options.mutations}::int ${options.from ?? sql``}
    on conflict (subject, window_start) do update
      set requests = c.requests + excluded.requests, mutations = c.mutations + excluded.mutations
    returning requests, mutations, extract(epoch from window_start + interval '1 minute' - now())::float8 as reset_seconds`;
}

/** One upsert of the subject's counter for this minute; its text is rendered once (every signed-in call runs it). */
const counterSql = sqlTemplate<'key' | 'mutation'>((slot) =>
  counterUpsertSql({ subject: sql`${slot('key')}::text`, requests: sql`1`, mutations: slot('mutation') }),
);

/** The counter's `subject` of a session: `session:<id>` (countCall, and the session check's own count). */
const SESSION_SUBJECT_PREFIX = 'session:';
export function sessionSubjectKey(sessionId: SQL): SQL {
  return sql`${SESSION_SUBJECT_PREFIX}::text || ${sessionId}`;
}

/** The verdict on calls already counted (e.g. with the session check, api/src/auth/session.ts). */
export function verdictOf(counted: CountedCalls, budget: RateBudget, isMutation: boolean): RateVerdict {
  return {
    allowed: counted.requests <= budget.requestsPerMinute && (!isMutation || counted.mutations <= budget.mutationsPerMinute),
    budget,
    requests: counted.requests,
    mutations: counted.mutations,
    resetSeconds: Math.max(1, Math.ceil(counted.resetSeconds)),
  };
}

/**
 * A token's call: its counter, its day's usage (GET /tokens/{id}/usage) and, now and then, its last
 * use, in one statement whose text is rendered once (every call of a script runs it).
 */
const tokenCountSql = sqlTemplate<'key' | 'mutation' | 'requestsPerMinute' | 'mutationsPerMinute' | 'tokenId' | 'userId' | 'refreshLastUse'>((slot) => {
  const mutation = sql`${slot('mutation')}::int`;
  return sql`
      with counter as (${counterUpsertSql({ subject: sql`${slot('key')}::text`, requests: sql`1`, mutations: mutation })}),
      verdict as (
        select requests, mutations, reset_seconds,
               requests > ${slot('requestsPerMinute')}::int or (${mutation} = 1 and mutations > ${slot('mutationsPerMinute')}::int) as over
        from counter
      ),
      usage as (
        insert into api_token_usage as u (token_id, day, company_id, requests, mutations, limited)
        select ${slot('tokenId')}::int, (now() at time zone 'utc')::date,
               ${memberCompanyIdSql(PUBLIC_WORLD_ID, sql`${slot('userId')}::int`)},
               1, case when over then 0 else ${mutation} end, case when over then 1 else 0 end
        from verdict
        on conflict (token_id, day) do update set
          requests = u.requests + 1,
          mutations = u.mutations + excluded.mutations,
          limited = u.limited + excluded.limited,
          company_id = coalesce(excluded.company_id, u.company_id)
      ),
      last_use as (
        update api_tokens set last_used_at = now() where id = ${slot('tokenId')}::int and ${slot('refreshLastUse')}::boolean
      )
      select requests, mutations, reset_seconds from verdict`;
});

/** Counts one call of `subject` and says whether it is within the budget. */
export async function countCall(db: DbExecutor, subject: RateSubject, budget: RateBudget, isMutation: boolean): Promise<RateVerdict> {
  const key = subject.kind === 'token' ? `token:${subject.tokenId}` : `${SESSION_SUBJECT_PREFIX}${subject.sessionId}`;
  const mutation = isMutation ? 1 : 0;
  let row: CounterRow | undefined;
  if (subject.kind === 'session') {
    [row] = await db.execute<CounterRow>(counterSql({ key, mutation }));
  } else {
    [row] = await db.execute<CounterRow>(
      tokenCountSql({
        key,
        mutation,
        requestsPerMinute: budget.requestsPerMinute,
        mutationsPerMinute: budget.mutationsPerMinute,
        tokenId: subject.tokenId,
        userId: subject.userId,
        refreshLastUse: subject.refreshLastUse,
      }),
    );
  }
  if (!row) throw new Error('rate limit counter returned nothing');
  return verdictOf({ requests: Number(row.requests), mutations: Number(row.mutations), resetSeconds: Number(row.reset_seconds) }, budget, isMutation);
}

/**
 * The answer's rate limit headers. `RateLimit-Limit`, `-Remaining` and `-Reset` (the widely read
 * trio of draft-ietf-httpapi-ratelimit-headers-06) describe the budget closest to running out for
 * this kind of call; `RateLimit-Policy` and `RateLimit` (the draft's current structured fields)
 * describe both budgets.
 */
export function rateLimitHeaders(verdict: RateVerdict, isMutation: boolean): Record<string, string> {
  const { budget, resetSeconds } = verdict;
  const requestsLeft = Math.max(0, budget.requestsPerMinute - verdict.requests);
  const mutationsLeft = Math.max(0, budget.mutationsPerMinute - verdict.mutations);
  const mutationsTighter = isMutation && mutationsLeft < requestsLeft;
  return {
    'ratelimit-limit': String(mutationsTighter ? budget.mutationsPerMinute : budget.requestsPerMinute),
    'ratelimit-remaining': String(mutationsTighter ? mutationsLeft : requestsLeft),
    'ratelimit-reset': String(resetSeconds),
    'ratelimit-policy': `"requests";q=${budget.requestsPerMinute};w=60, "mutations";q=${budget.mutationsPerMinute};w=60`,
    ratelimit: `"requests";r=${requestsLeft};t=${resetSeconds}, "mutations";r=${mutationsLeft};t=${resetSeconds}`,
  };
}

export function rateLimitedMessage(verdict: RateVerdict, isMutation: boolean, kind: RateSubject['kind']): string {
  const who = kind === 'token' ? 'this API token' : 'this session';
  const overMutations = isMutation && verdict.mutations > verdict.budget.mutationsPerMinute && verdict.requests <= verdict.budget.requestsPerMinute;
  const budget = overMutations ? `${verdict.budget.mutationsPerMinute} actions (mutations)` : `${verdict.budget.requestsPerMinute} requests`;
  return `Rate limit reached: ${who} may make ${budget} a minute. Try again in ${verdict.resetSeconds} s (see the Retry-After and RateLimit headers).`;
}
