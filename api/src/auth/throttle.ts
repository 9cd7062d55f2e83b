/**
 * Sign-in throttling (table auth_throttles): attempts are counted per account
 * (`email:<lowercased>`) and per address (`ip:<address>`), and an attempt is counted BEFORE its
 * password is hashed, in one atomic statement. So however many attempts arrive at once, at most
 * SIGN_IN_FAILURE_LIMIT of them per key are ever checked: the 10th consecutive attempt of a key
 * locks it for 10 minutes (the lock stands if that attempt fails too), and every later one answers
 * 429 with Retry-After, before any user lookup or hashing. A successful sign-in clears its
 * account's and its address's counters (its own attempt included); an attempt after a lock ran
 * out starts counting again from 1.
 */
import { inArray, sql } from 'drizzle-orm';
import { authThrottles, type DbExecutor } from '@marketcraft/db';

export const SIGN_IN_FAILURE_LIMIT = 10;
export const SIGN_IN_LOCK_MINUTES = 10;

/** The account's key first, then the address's: every attempt locks its rows in this order. */
export function throttleKeys(email: string, clientIp: string): [string, string] {
  return [`email:${email.trim().toLowerCase()}`, `ip:${clientIp}`];
}

export type AttemptVerdict = { allowed: true } | { allowed: false; retryAt: Date };

/**
 * Counts one sign-in attempt for every key, atomically (an upsert per key in one statement, the
 * row lock serialising concurrent attempts), and says whether it may be checked: only when every
 * key's count is at most the limit. Refused attempts count too, which changes nothing while the
 * lock stands.
 */
export async function reserveSignInAttempt(db: DbExecutor, keys: readonly string[], now = new Date()): Promise<AttemptVerdict> {
  const nowIso = now.toISOString();
  const values = sql.join(
    keys.map((key) => sql`(${key}, 1, null::timestamptz, ${nowIso}::timestamptz)`),
    sql`, `,
  );
  const rows = await db.execute<{ failures: number; locked_until: string | null }>(sql`
    insert into auth_throttles as t (key, failures, locked_until, updated_at)
    values ${values}
    on conflict (key) do update set
      failures = case when t.locked_until <= ${nowIso}::timestamptz then 1 else t.failures + 1 end,
      locked_until = case
        when t.locked_until <= ${nowIso}::timestamptz then null
        when t.locked_until is null and t.failures + 1 >= ${SIGN_IN_FAILURE_LIMIT}
          then ${nowIso}::timestamptz + make_interval(mins => ${SIGN_IN_LOCK_MINUTES})
        else t.locked_until
      end,
      updated_at = ${nowIso}::timestamptz
    returning failures, locked_until`);
  let retryAt: Date | null = null;
  for (const row of rows) {
    if (Number(row.failures) <= SIGN_IN_FAILURE_LIMIT || !row.locked_until) continue;
    const until = new Date(row.locked_until);
    if (!retryAt || until > retryAt) retryAt = until;
  }
  return retryAt ? { allowed: false, retryAt } : { allowed: true };
}

/** A successful sign-in: the account and the address start again with a clean record. */
export async function clearFailures(db: DbExecutor, keys: readonly string[]): Promise<void> {
  await db.delete(authThrottles).where(inArray(authThrottles.key, [...keys]));
}
