/**
 * Personal access tokens (docs/api.md): a player creates them on /profile with a name, a scope and
 * an optional expiry; the token `mc_pat_<lookup id>_<secret>` is shown once. The row keeps the
 * lookup id and SHA-256(secret) only (the secret has 160 random bits, so a fast hash is enough:
 * nothing to brute-force), and the secret is compared in constant time. A revoked or expired token
 * is refused on its very next request, on every API server: each request reads the row.
 */
import { and, desc, eq, gt, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { constantTimeEqual } from '@oslojs/crypto/subtle';
import {
  API_TOKEN_ALPHABET,
  API_TOKEN_ID_LENGTH,
  API_TOKEN_PREFIX,
  API_TOKEN_SCOPES,
  API_TOKEN_SECRET_LENGTH,
  GameError,
  MAX_ACTIVE_API_TOKENS,
  type ApiTokenScope,
  PUBLIC_WORLD_ID,
  scopeCovers,
} from '@marketcraft/shared';
import { apiTokens, apiTokenUsage, memberCompanySql, sqlTemplate, users, worldPricesVersionSql, worlds, type Database, type DbExecutor } from '@marketcraft/db';
import { hashSecret, randomSecureString, type ActiveCompany, type SessionUser } from '../auth/session.ts';
import { counterUpsertSql, verdictOf, type CountedCalls, type RateBudget } from './rateLimit.ts';
import { countTokenCall, flushTokenUsage } from './tokenUsage.ts';

/** How often a token's last_used_at is written (the daily audit counts every call). */
const LAST_USE_REFRESH_MS = 60_000;

const TOKEN_PATTERN = new RegExp(
  `^${API_TOKEN_PREFIX}([${API_TOKEN_ALPHABET}]{${API_TOKEN_ID_LENGTH}})_([${API_TOKEN_ALPHABET}]{${API_TOKEN_SECRET_LENGTH}})$`,
);

export const TOO_MANY_TOKENS_MESSAGE = `You already have ${MAX_ACTIVE_API_TOKENS} active API tokens, the most allowed. Revoke one you no longer use, then create the new one.`;
const TOKEN_NOT_FOUND_MESSAGE = 'No such API token';

/** Whether a bearer credential claims to be a personal access token (its prefix), well formed or not. */
export function isPersonalAccessToken(credential: string): boolean {
  return credential.toLowerCase().startsWith(API_TOKEN_PREFIX);
}

/** A token as its owner sees it (never the secret, never its hash). */
export interface ApiTokenRecord {
  id: number;
  name: string;
  scope: ApiTokenScope;
  /** The token's first characters, to recognise it: `mc_pat_abcd…`. */
  prefix: string;
  status: 'active' | 'expired' | 'revoked';
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  requests_today: number;
  requests_7_days: number;
}

const tokenColumns = {
  id: apiTokens.id,
  lookupId: apiTokens.lookupId,
  name: apiTokens.name,
  scope: apiTokens.scope,
  createdAt: apiTokens.createdAt,
  expiresAt: apiTokens.expiresAt,
  revokedAt: apiTokens.revokedAt,
  lastUsedAt: apiTokens.lastUsedAt,
};
type TokenRow = Pick<typeof apiTokens.$inferSelect, keyof typeof tokenColumns>;

function statusOf(row: { expiresAt: Date | null; revokedAt: Date | null }, now: Date): ApiTokenRecord['status'] {
  if (row.revokedAt) return 'revoked';
  if (row.expiresAt && row.expiresAt <= now) return 'expired';
  return 'active';
}

function recordOf(row: TokenRow, usage: { today: number; week: number } | undefined, now: Date): ApiTokenRecord {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope as ApiTokenScope,
    prefix: `${API_TOKEN_PREFIX}${row.lookupId.slice(0, 4)}…`,
    status: statusOf(row, now),
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    requests_today: usage?.today ?? 0,
    requests_7_days: usage?.week ?? 0,
  };
}

/** Only active tokens count toward the limit of 10. */
const isActive = (now: Date) => and(isNull(apiTokens.revokedAt), or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now)));

/**
 * Creates a token for the user; refused (409) when they already have 10 active ones. The user's row
 * is locked while counting, so concurrent creations cannot pass the limit together.
 */
export async function createApiToken(
  db: Database,
  userId: number,
  input: { name: string; scope: ApiTokenScope; expiresInDays?: number | null },
  now = new Date(),
): Promise<ApiTokenRecord & { token: string }> {
  const lookupId = randomSecureString(API_TOKEN_ID_LENGTH);
  const secret = randomSecureString(API_TOKEN_SECRET_LENGTH);
  const expiresAt = input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * 24 * 60 * 60 * 1000) : null;
  const row = await db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [active] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(apiTokens)
      .where(and(eq(apiTokens.userId, userId), isActive(now)));
    if ((active?.count ?? 0) >= MAX_ACTIVE_API_TOKENS) throw new GameError('CONFLICT', TOO_MANY_TOKENS_MESSAGE);
    const [inserted] = await tx
      .insert(apiTokens)
      .values({ lookupId, secretHash: hashSecret(secret), userId, name: input.name, scope: input.scope, createdAt: now, expiresAt })
      .returning(tokenColumns);
    return inserted!;
  });
  return { ...recordOf(row, undefined, now), token: `${API_TOKEN_PREFIX}${lookupId}_${secret}` };
}

/** Requests today and over the last 7 days (today included), per token of the user. */
async function usageOf(db: DbExecutor, tokenIds: number[]): Promise<Map<number, { today: number; week: number }>> {
  if (tokenIds.length === 0) return new Map();
  await flushTokenUsage(db); // the counts this process gathered and has not written yet
  const today = sql`(now() at time zone 'utc')::date`;
  const rows = await db
    .select({
      tokenId: apiTokenUsage.tokenId,
      today: sql<number>`coalesce(sum(${apiTokenUsage.requests}) filter (where ${apiTokenUsage.day} = ${today}), 0)::int`,
      week: sql<number>`coalesce(sum(${apiTokenUsage.requests}), 0)::int`,
    })
    .from(apiTokenUsage)
    .where(and(inArray(apiTokenUsage.tokenId, tokenIds), sql`${apiTokenUsage.day} > ${today} - 7`))
    .groupBy(apiTokenUsage.tokenId);
  return new Map(rows.map((row) => [row.tokenId, { today: Number(row.today), week: Number(row.week) }]));
}

/** The user's tokens, newest first: every active one, and revoked or expired ones until housekeeping removes them. */
export async function listApiTokens(db: DbExecutor, userId: number, now = new Date()): Promise<ApiTokenRecord[]> {
  const rows = await db.select(tokenColumns).from(apiTokens).where(eq(apiTokens.userId, userId)).orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  const usage = await usageOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => recordOf(row, usage.get(row.id), now));
}

/** Revokes one of the user's tokens (already revoked: unchanged); another user's token is 404. */
export async function revokeApiToken(db: DbExecutor, userId: number, tokenId: number, now = new Date()): Promise<ApiTokenRecord> {
  await db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
  const [row] = await db
    .select(tokenColumns)
    .from(apiTokens)
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId)));
  if (!row) throw new GameError('NOT_FOUND', TOKEN_NOT_FOUND_MESSAGE);
  const usage = await usageOf(db, [row.id]);
  return recordOf(row, usage.get(row.id), now);
}

const USAGE_HISTORY_DAYS = 30;

export interface DailyUsage {
  day: string;
  /** Every call counted that day: reads + mutations + limited. */
  requests: number;
  /** Reads answered within budget. */
  reads: number;
  /** Mutations answered within budget. */
  mutations: number;
  /** Calls refused with 429. */
  limited: number;
}

/** One token's requests per UTC day over the last 30 days, oldest first, days without requests as 0. */
export async function apiTokenDailyUsage(db: DbExecutor, userId: number, tokenId: number): Promise<DailyUsage[]> {
  const [owned] = await db
    .select({ id: apiTokens.id })
    .from(apiTokens)
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId)));
  if (!owned) throw new GameError('NOT_FOUND', TOKEN_NOT_FOUND_MESSAGE);
  await flushTokenUsage(db); // the counts this process gathered and has not written yet
  const rows = await db.execute<{ day: string; requests: number; mutations: number; limited: number }>(sql`
    select to_char(d.day, 'YYYY-MM-DD') as day,
           coalesce(u.requests, 0)::int as requests, coalesce(u.mutations, 0)::int as mutations, coalesce(u.limited, 0)::int as limited
    from generate_series((now() at time zone 'utc')::date - ${USAGE_HISTORY_DAYS - 1}::int, (now() at time zone 'utc')::date, interval '1 day') as d(day)
    left join ${apiTokenUsage} u on u.token_id = ${tokenId} and u.day = d.day::date
    order by d.day`);
  return rows.map((row) => {
    const [requests, mutations, limited] = [Number(row.requests), Number(row.mutations), Number(row.limited)];
    return { day: row.day, requests, reads: requests - mutations - limited, mutations, limited };
  });
}

/** What an accepted personal access token brings to the request context. */
export interface ApiTokenCredential {
  id: number;
  scope: ApiTokenScope;
  /** When the row's last_used_at was written (it is refreshed at most once a minute). */
  lastUsedAt: Date | null;
}

export type TokenCheck =
  | { ok: true; user: SessionUser; company: ActiveCompany | null; token: ApiTokenCredential; counted?: CountedCalls; pricesVersion: string }
  | { ok: false; reason: 'malformed' | 'unknown' | 'revoked' | 'expired'; message: string };

const formatUtc = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export const TOKEN_MESSAGES = {
  malformed: `Malformed API token: personal access tokens look like ${API_TOKEN_PREFIX} followed by ${API_TOKEN_ID_LENGTH} letters or digits, an underscore and ${API_TOKEN_SECRET_LENGTH} more. Copy the whole token shown when you created it.`,
  unknown: 'Unknown API token: no token matches it (it may have been deleted, or mistyped). Create a new one on your profile.',
  revoked: (at: Date) => `This API token was revoked on ${formatUtc(at)}. Create a new one on your profile.`,
  expired: (at: Date) => `This API token expired on ${formatUtc(at)}. Create a new one on your profile.`,
};

type TokenCheckRow = {
  id: number;
  secretHash: Buffer;
  scope: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  userId: number;
  email: string;
  companyId: number | null;
  companyName: string | null;
  worldStatus: string | null;
  pricesVersion: string;
};

/**
 * A token by its lookup id, with its user and the user's active company in the public world (tokens
 * act there unless a request names another: docs/worlds.md), in one statement whose text is
 * rendered once, as the session check's (every call of a script runs it).
 */
const tokenRowSql = (lookupId: SQL) => sql`
    select t.id, t.secret_hash as "secretHash", t.scope, t.expires_at as "expiresAt", t.revoked_at as "revokedAt",
           t.last_used_at as "lastUsedAt", u.id as "userId", u.email, c.id as "companyId", c.name as "companyName",
           w.status as "worldStatus", ${worldPricesVersionSql(sql`${PUBLIC_WORLD_ID}::int`)} as "pricesVersion"
    from ${apiTokens} t
    join ${users} u on u.id = t.user_id
    left join lateral ${memberCompanySql(PUBLIC_WORLD_ID, sql`u.id`)} c on true
    left join ${worlds} w on w.id = c.world_id
    where t.lookup_id = ${lookupId}`;
const tokenCheckSql = sqlTemplate<'lookupId'>((slot) => tokenRowSql(slot('lookupId')));

/**
 * The token check that also counts its request (one call) against the token's rate budget: only
 * for a token that the secret (its hash), the revocation, the expiry and the scope all accept; one
 * round trip instead of two, as the session check counts its own, and the same shape as the
 * session's statement (a read and the counter's upsert: nothing else is written per call). The
 * call's daily count (api_token_usage) is gathered in the process and written once a second
 * (api/src/access/tokenUsage.ts): the statement answers the database's UTC day for it. The
 * token's last use is written by its own statement when it is a minute old (touchLastUseSql).
 */
const tokenCheckAndCountSql = sqlTemplate<'lookupId' | 'secretHash' | 'now' | 'mutation' | 'scopes'>((slot) => {
  const mutation = sql`${slot('mutation')}::int`;
  return sql`
    with found as (${tokenRowSql(slot('lookupId'))}),
    counter as (${counterUpsertSql({
      subject: sql`'token:' || found.id`,
      from: sql`from found where "secretHash" = ${slot('secretHash')} and "revokedAt" is null
        and ("expiresAt" is null or "expiresAt" > ${slot('now')}::timestamptz) and scope = any(${slot('scopes')}::text[])`,
      requests: sql`1`,
      mutations: mutation,
    })})
    select found.*, counter.requests as "countedRequests", counter.mutations as "countedMutations", counter.reset_seconds as "countResetSeconds",
           (now() at time zone 'utc')::date::text as "usageDay"
    from found left join counter on true`;
});

/**
 * A token's last use, written at most once a minute (its call found it older: LAST_USE_REFRESH_MS).
 * Its commit does not wait for its WAL to reach the disk (synchronous_commit off for this one
 * statement's transaction): a crash of PostgreSQL could lose the last fraction of a second of
 * last-use times, never money.
 */
const touchLastUseSql = sqlTemplate<'tokenId'>(
  (slot) => sql`
    with touched as (
      update api_tokens set last_used_at = now()
      where id = ${slot('tokenId')}::int and (last_used_at is null or last_used_at <= now() - interval '${sql.raw(String(LAST_USE_REFRESH_MS / 1000))} seconds')
      returning id
    )
    select set_config('synchronous_commit', 'off', true) from touched`,
);

/** Whether a token's last use is old enough to write again (null: never used). */
export function lastUseIsStale(lastUsedAt: Date | null, now: Date): boolean {
  return !lastUsedAt || now.getTime() - lastUsedAt.getTime() >= LAST_USE_REFRESH_MS;
}

/** A call to count with the token check: its kind, the token budget, and the scopes that may make it. */
export interface TokenCallToCount {
  isMutation: boolean;
  budget: RateBudget;
  access: ApiTokenScope;
}

/**
 * Checks a personal access token. Revoked and expired are told only to someone holding the whole
 * token (the secret is checked first); a wrong secret is "unknown", like a missing id. The user
 * behind a token is never an admin for this request: admin routes are session-only anyway.
 */
export async function checkPersonalAccessToken(db: DbExecutor, credential: string, now = new Date(), count?: TokenCallToCount): Promise<TokenCheck> {
  const match = TOKEN_PATTERN.exec(credential);
  if (!match) return { ok: false, reason: 'malformed', message: TOKEN_MESSAGES.malformed };
  const [, lookupId, secret] = match as unknown as [string, string, string];
  const secretHash = hashSecret(secret);
  const [found] = await db.execute<TokenCheckRow & Partial<CountedRow>>(
    count
      ? tokenCheckAndCountSql({
          lookupId,
          secretHash: Buffer.from(secretHash),
          now: now.toISOString(),
          mutation: count.isMutation ? 1 : 0,
          scopes: `{${API_TOKEN_SCOPES.filter((scope) => scopeCovers(scope, count.access)).join(',')}}`,
        })
      : tokenCheckSql({ lookupId }),
  );
  // Raw rows: timestamps come as text (drizzle turns postgres.js's date parsing off), bytea as a Buffer.
  const row = found && {
    ...found,
    secretHash: new Uint8Array(found.secretHash),
    expiresAt: found.expiresAt === null ? null : new Date(found.expiresAt),
    revokedAt: found.revokedAt === null ? null : new Date(found.revokedAt),
    lastUsedAt: found.lastUsedAt === null ? null : new Date(found.lastUsedAt),
  };
  if (!row || !constantTimeEqual(secretHash, row.secretHash)) return { ok: false, reason: 'unknown', message: TOKEN_MESSAGES.unknown };
  if (row.revokedAt) return { ok: false, reason: 'revoked', message: TOKEN_MESSAGES.revoked(row.revokedAt) };
  if (row.expiresAt && row.expiresAt <= now) return { ok: false, reason: 'expired', message: TOKEN_MESSAGES.expired(row.expiresAt) };
  const counted =
    count && found?.countedRequests != null
      ? { requests: Number(found.countedRequests), mutations: Number(found.countedMutations), resetSeconds: Number(found.countResetSeconds) }
      : undefined;
  if (count && counted) {
    // At most once a minute per token (a statement of its own: the call's check writes only its counter).
    if (lastUseIsStale(row.lastUsedAt, now)) await db.execute(touchLastUseSql({ tokenId: row.id }));
    countTokenCall(db, {
      tokenId: row.id,
      day: found!.usageDay!,
      companyId: row.companyId === null ? null : Number(row.companyId),
      isMutation: count.isMutation,
      limited: !verdictOf(counted, count.budget, count.isMutation).allowed,
    });
  }
  return {
    ok: true,
    user: { id: row.userId, email: row.email, isAdmin: false },
    company: row.companyId === null ? null : { id: row.companyId, name: row.companyName!, worldId: PUBLIC_WORLD_ID, worldStatus: row.worldStatus ?? 'active' },
    token: { id: row.id, scope: row.scope as ApiTokenScope, lastUsedAt: row.lastUsedAt },
    counted,
    pricesVersion: row.pricesVersion,
  };
}

type CountedRow = { countedRequests: number | null; countedMutations: number | null; countResetSeconds: number | null; usageDay: string | null };
