/**
 * Sign-in throttling (table auth_throttles): attempts are counted per address (`ip:<address>`; on loopback per address and account)
 * and per account (`email:<lowercased>`), and an attempt is counted BEFORE its password is hashed,
 * in one atomic statement. So however many attempts arrive at once, no more than a key's limit of
 * them are ever checked: the attempt that reaches a key's limit locks the key for 10 minutes (the
 * lock stands if that attempt fails too), and every later one answers 429 with Retry-After,
 * before any user lookup or hashing. A successful sign-in clears its account's and its address's
 * counters (its own attempt included); an attempt after a lock ran out starts counting again from 1.
 *
 * The limits differ: 10 consecutive failures lock an address (one person guessing, or mistyping),
 * 50 lock an account (guesses spread over many addresses). With one limit for both, anybody could
 * lock a player out of signing in, again and again, with 10 wrong passwords from one address; now
 * that address locks itself first, and locking an account takes 50 failures from at least 5.
 */
import { inArray, sql } from 'drizzle-orm';
import { authThrottles, type DbExecutor } from '@marketcraft/db';
import { isLoopbackAddress } from '../clientIp.ts';

/** Consecutive failures that lock an address. */
const SIGN_IN_FAILURE_LIMIT = 10;
/** Consecutive failures that lock an account, from whatever addresses. */
const SIGN_IN_ACCOUNT_FAILURE_LIMIT = 50;
export const SIGN_IN_LOCK_MINUTES = 10;

const ACCOUNT_KEY_PREFIX = 'email:';
/** A key's limit, the one place it is decided: accounts' keys SIGN_IN_ACCOUNT_FAILURE_LIMIT, addresses' SIGN_IN_FAILURE_LIMIT. */
const failureLimitSql = sql`(case when starts_with(t.key, ${ACCOUNT_KEY_PREFIX}::text) then ${SIGN_IN_ACCOUNT_FAILURE_LIMIT}::int else ${SIGN_IN_FAILURE_LIMIT}::int end)`;

/**
 * The account's key first, then the address's: every attempt locks its rows in this order. The
 * game's own machine (loopback) is one address for all its players (a console, test runs, scripted
 * players, a proxy without TRUST_PROXY_HOPS): its failures are counted per account, so guessing one
 * account's password from it locks that account from it (after 10, as any address), never every
 * player signing in there.
 */
export function throttleKeys(email: string, clientIp: string): [string, string] {
  const account = `${ACCOUNT_KEY_PREFIX}${email.trim().toLowerCase()}`;
  return [account, isLoopbackAddress(clientIp) ? `ip:${clientIp}|${account}` : `ip:${clientIp}`];
}

export type AttemptVerdict = { allowed: true } | { allowed: false; retryAt: Date };

/**
 * Counts one sign-in attempt for every key, atomically (an upsert per key in one statement, the
 * row lock serialising concurrent attempts), and says whether it may be checked: only when every
 * key's count is at most its limit (failureLimitSql). Refused attempts count too, which changes nothing while the
 * lock stands.
 */
export async function reserveSignInAttempt(db: DbExecutor, keys: readonly string[], now = new Date()): Promise<AttemptVerdict> {
  const nowIso = now.toISOString();
  const values = sql.join(
    keys.map((key) => sql`(${key}, 1, null::timestamptz, ${nowIso}::timestamptz)`),
    sql`, `,
  );
  const rows = await db.execute<{ failures: number; failure_limit: number; locked_until: string | null }>(sql`
    insert into auth_throttles as t (key, failures, locked_until, updated_at)
    values ${values}
    on conflict (key) do update set
      failures = case when t.locked_until <= ${nowIso}::timestamptz then 1 else t.failures + 1 end,
      locked_until = case
        when t.locked_until <= ${nowIso}::timestamptz then null
        when t.locked_until is null and t.failures + 1 >= ${failureLimitSql}
          then ${nowIso}::timestamptz + make_interval(mins => ${SIGN_IN_LOCK_MINUTES})
        else t.locked_until
      end,
      updated_at = ${nowIso}::timestamptz
    returning failures, ${failureLimitSql} as failure_limit, locked_until`);
  let retryAt: Date | null = null;
  for (const row of rows) {
    if (Number(row.failures) <= Number(row.failure_limit) || !row.locked_until) continue;
    const until = new Date(row.locked_until);
    if (!retryAt || until > retryAt) retryAt = until;
  }
  return retryAt ? { allowed: false, retryAt } : { allowed: true };
}

/** A successful sign-in: the account and the address start again with a clean record. */
export async function clearFailures(db: DbExecutor, keys: readonly string[]): Promise<void> {
  await db.delete(authThrottles).where(inArray(authThrottles.key, [...keys]));
}
