/**
 * Sessions after Lucia's design (lucia-auth.com, "sessions"), owned here as a small module.
 * The token is `<id>.<secret>`: the id 24 random characters of a 32-letter alphabet (120 bits),
 * the secret 32 (160 bits, so the part that is never looked up by itself has over 128 bits even if
 * the id leaked). Only SHA-256(secret) is stored and it is compared in constant time.
 * Lifetimes: absolute 30 days from sign-in; idle 7 days since last use; the last-use time slides
 * forward at most once an hour.
 */
import { eq, sql } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { constantTimeEqual } from '@oslojs/crypto/subtle';
import { memberCompanySql, sessions, sqlTemplate, users, worldPricesVersionSql, worlds, type Database } from '@marketcraft/db';
import { counterUpsertSql, sessionSubjectKey, type CountedCalls } from '../access/rateLimit.ts';
import { API_TOKEN_ALPHABET, PUBLIC_WORLD_ID } from '@marketcraft/shared';

export const SESSION_COOKIE_NAME = 'marketcraft_session';
export const SESSION_ABSOLUTE_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
export const SESSION_IDLE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
const SESSION_RENEWAL_INTERVAL_MS = 60 * 60 * 1000;

export interface SessionUser {
  id: number;
  email: string;
  isAdmin: boolean;
}

/** The user's active company, read with the session (null: none, e.g. after bankruptcy). */
export interface ActiveCompany {
  id: number;
  name: string;
  /** The world it plays in (the session's current world) and that world's status (ended: read-only). */
  worldId: number;
  worldStatus: string;
}

export interface ValidSession {
  id: string;
  user: SessionUser;
  company: ActiveCompany | null;
  /** The world the player switched to (null: the public world). */
  currentWorldId: number | null;
  /** When the cookie should expire (the earlier of the idle and absolute limits). */
  expiresAt: Date;
  /** The session's rate counter after this request's calls, when they were counted with the check. */
  counted?: CountedCalls;
  /** The price version of the session's world (worldPricesVersionSql), read with the session. */
  pricesVersion: string;
}

/** The tokens' alphabet (personal access tokens use it too): 32 letters, no look-alikes. */
const ALPHABET = API_TOKEN_ALPHABET;
/** Characters of the session id and of the secret (5 random bits each). */
export const SESSION_ID_LENGTH = 24;
export const SESSION_SECRET_LENGTH = 32;

/** `length` characters of ALPHABET, 5 random bits each (byte >> 3 of a random byte: no bias). */
export function randomSecureString(length: number): string {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  let result = '';
  for (const byte of bytes) result += ALPHABET[byte >> 3];
  return result;
}

/**
 * SHA-256 of a token's secret: what the database keeps (sessions and personal access tokens).
 * Node's own hash (OpenSSL): the same digest as Lucia's guide's @oslojs/crypto sha256, computed on
 * every authenticated request at a quarter of the CPU (bench:api).
 */
export function hashSecret(secret: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(secret, 'utf8').digest());
}

function expiryOf(createdAt: Date, lastVerifiedAt: Date): Date {
  return new Date(Math.min(createdAt.getTime() + SESSION_ABSOLUTE_LIFETIME_MS, lastVerifiedAt.getTime() + SESSION_IDLE_LIFETIME_MS));
}

/** Starts a new session for the user and returns the token for the cookie. */
export async function createSession(db: Database, userId: number, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
  const id = randomSecureString(SESSION_ID_LENGTH);
  const secret = randomSecureString(SESSION_SECRET_LENGTH);
  await db.insert(sessions).values({ id, secretHash: hashSecret(secret), userId, createdAt: now, lastVerifiedAt: now });
  return { token: `${id}.${secret}`, expiresAt: expiryOf(now, now) };
}

/** The session and user behind a token, or null when it is unknown, tampered with or expired. */
/** Whether a credential has the shape of a session token (`<id>.<secret>` of the right lengths). */
export function isSessionTokenShape(token: string): boolean {
  const parts = token.split('.');
  return parts.length === 2 && parts[0]!.length === SESSION_ID_LENGTH && parts[1]!.length === SESSION_SECRET_LENGTH;
}

type SessionRow = {
  id: string;
  secretHash: Uint8Array;
  createdAt: string;
  lastVerifiedAt: string;
  userId: number;
  email: string;
  isAdmin: boolean;
  companyId: number | null;
  companyName: string | null;
  currentWorldId: number | null;
  worldStatus: string | null;
  pricesVersion: string;
};

/** The columns of a session check: the session, its user and the user's active company. */
const sessionColumns = sql`
    s.id, s.secret_hash as "secretHash", s.created_at as "createdAt", s.last_verified_at as "lastVerifiedAt",
    u.id as "userId", u.email, u.is_admin as "isAdmin", c.id as "companyId", c.name as "companyName",
    s.current_world_id as "currentWorldId", w.status as "worldStatus",
    ${worldPricesVersionSql(sql`coalesce(s.current_world_id, ${PUBLIC_WORLD_ID})`)} as "pricesVersion"`;
const sessionJoins = sql`
    from ${sessions} s
    join ${users} u on u.id = s.user_id
    -- The company in the session's current world (docs/worlds.md): theirs or their team's.
    left join lateral ${memberCompanySql(sql`coalesce(s.current_world_id, ${PUBLIC_WORLD_ID})`, sql`u.id`)} c on true
    left join ${worlds} w on w.id = c.world_id`;

/**
 * The session, its user and the user's active company in one query (every player route needs the
 * company: api/src/trpc.ts), its text rendered once: every signed-in request runs it.
 */
const sessionCheckSql = sqlTemplate<'id'>((slot) => sql`select ${sessionColumns} ${sessionJoins} where s.id = ${slot('id')}`);

/**
 * The same, and the request's calls counted against the session's rate budget in the same
 * statement (one round trip less per request; api/src/access/rateLimit.ts owns the counter). The
 * calls are counted only when the secret's hash matches (the constant-time comparison in
 * validateSessionToken stays the check that admits the session): a guessed session id with a
 * wrong secret never spends its owner's budget.
 */
const sessionCheckAndCountSql = sqlTemplate<'id' | 'secretHash' | 'requests' | 'mutations'>(
  (slot) => sql`
    with found as (select ${sessionColumns} ${sessionJoins} where s.id = ${slot('id')}),
    counted as (${counterUpsertSql({
      subject: sessionSubjectKey(sql`found.id`),
      from: sql`from found where found."secretHash" = ${slot('secretHash')}`,
      requests: slot('requests'),
      mutations: slot('mutations'),
    })})
    select found.*, counted.requests as "countedRequests", counted.mutations as "countedMutations", counted.reset_seconds as "countResetSeconds"
    from found left join counted on true`,
);

/** Calls to count with the session check: a REST call or tRPC request is 1, a tRPC batch its number of calls. */
export interface CallsToCount {
  calls: number;
  isMutation: boolean;
}

export async function validateSessionToken(db: Database, token: string, now = new Date(), count?: CallsToCount): Promise<ValidSession | null> {
  if (!isSessionTokenShape(token)) return null;
  const [id, secret] = token.split('.') as [string, string];
  const secretHash = hashSecret(secret);
  const [found] = await db.execute<SessionRow & Partial<CountedRow>>(
    count
      ? sessionCheckAndCountSql({ id, secretHash: Buffer.from(secretHash), requests: count.calls, mutations: count.isMutation ? count.calls : 0 })
      : sessionCheckSql({ id }),
  );
  // Raw rows: timestamps come as text (drizzle turns postgres.js's date parsing off), bytea as a Buffer.
  const row = found && {
    ...found,
    secretHash: new Uint8Array(found.secretHash),
    createdAt: new Date(found.createdAt),
    lastVerifiedAt: new Date(found.lastVerifiedAt),
  };
  if (!row) return null;
  if (!constantTimeEqual(secretHash, row.secretHash)) return null;
  if (expiryOf(row.createdAt, row.lastVerifiedAt).getTime() <= now.getTime()) {
    await db.delete(sessions).where(eq(sessions.id, id));
    return null;
  }
  let lastVerifiedAt = row.lastVerifiedAt;
  if (now.getTime() - lastVerifiedAt.getTime() >= SESSION_RENEWAL_INTERVAL_MS) {
    lastVerifiedAt = now;
    await db.update(sessions).set({ lastVerifiedAt: now }).where(eq(sessions.id, id));
  }
  return {
    id: row.id,
    user: { id: row.userId, email: row.email, isAdmin: row.isAdmin },
    company:
      row.companyId === null
        ? null
        : { id: row.companyId, name: row.companyName!, worldId: row.currentWorldId ?? PUBLIC_WORLD_ID, worldStatus: row.worldStatus ?? 'active' },
    currentWorldId: row.currentWorldId,
    expiresAt: expiryOf(row.createdAt, lastVerifiedAt),
    pricesVersion: row.pricesVersion,
    counted:
      count && found?.countedRequests != null
        ? { requests: Number(found.countedRequests), mutations: Number(found.countedMutations), resetSeconds: Number(found.countResetSeconds) }
        : undefined,
  };
}

type CountedRow = { countedRequests: number | null; countedMutations: number | null; countResetSeconds: number | null };

export async function invalidateSession(db: Database, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}
