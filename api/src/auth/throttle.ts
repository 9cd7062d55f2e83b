/**
 * Sign-in throttling (table auth_throttles): consecutive failures are counted per account
 * (`email:<lowercased>`) and per address (`ip:<address>`). The 10th consecutive failure of a key
 * locks it for 10 minutes; while any key of an attempt is locked the attempt is refused before any
 * password hashing. A successful sign-in clears its account's and its address's counters; a
 * failure after a lock ran out starts counting again from 1.
 */
import { inArray, sql } from 'drizzle-orm';
import { authThrottles, type DbExecutor } from '@marketcraft/db';

export const SIGN_IN_FAILURE_LIMIT = 10;
export const SIGN_IN_LOCK_MINUTES = 10;

export function throttleKeys(email: string, clientIp: string): string[] {
  return [`email:${email.trim().toLowerCase()}`, `ip:${clientIp}`];
}

/** When the attempt may be retried, or null when none of its keys is locked. */
export async function lockedUntil(db: DbExecutor, keys: string[], now = new Date()): Promise<Date | null> {
  const rows = await db
    .select({ lockedUntil: authThrottles.lockedUntil })
    .from(authThrottles)
    .where(inArray(authThrottles.key, keys));
  let until: Date | null = null;
  for (const row of rows) {
    if (row.lockedUntil && row.lockedUntil > now && (!until || row.lockedUntil > until)) until = row.lockedUntil;
  }
  return until;
}

/** Counts one failure for every key (atomically: concurrent failures all count). */
export async function recordFailure(db: DbExecutor, keys: string[], now = new Date()): Promise<void> {
  const nowIso = now.toISOString();
  for (const key of keys) {
    await db.execute(sql`
      insert into auth_throttles as t (key, failures, locked_until, updated_at)
      values (${key}, 1, null, ${nowIso}::timestamptz)
      on conflict (key) do update set
        failures = case when t.locked_until <= ${nowIso}::timestamptz then 1 else t.failures + 1 end,
        locked_until = case
          when t.locked_until <= ${nowIso}::timestamptz then null
          when t.locked_until is null and t.failures + 1 >= ${SIGN_IN_FAILURE_LIMIT}
            then ${nowIso}::timestamptz + make_interval(mins => ${SIGN_IN_LOCK_MINUTES})
          else t.locked_until
        end,
        updated_at = ${nowIso}::timestamptz`);
  }
}

/** A successful sign-in: the account and the address start again with a clean record. */
export async function clearFailures(db: DbExecutor, keys: string[]): Promise<void> {
  await db.delete(authThrottles).where(inArray(authThrottles.key, keys));
}
