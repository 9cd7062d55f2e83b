/**
 * Removes auth rows nobody can use any more: sessions past their absolute or idle lifetime (their
 * tokens already answer 401) and sign-in throttle records with no failure for a day and no running
 * lock, and LTI logins that never came back (lti_login_states past their 10 minutes). The API process runs it at start and every hour (api/src/server.ts); it is an idempotent
 * delete, so several API servers may run it at once.
 */
import { sql } from 'drizzle-orm';
import type { DbExecutor } from '@marketcraft/db';
import { SESSION_ABSOLUTE_LIFETIME_MS, SESSION_IDLE_LIFETIME_MS } from './session.ts';
import { LOGIN_STATE_LIFETIME_MS } from '../lti/launch.ts';

export const THROTTLE_RECORD_RETENTION_MS = 24 * 60 * 60 * 1000;
export const AUTH_HOUSEKEEPING_INTERVAL_MS = 60 * 60 * 1000;

export async function pruneExpiredAuthRows(db: DbExecutor, now = new Date()): Promise<{ sessions: number; throttles: number; ltiLogins: number }> {
  const nowIso = now.toISOString();
  const sessions = await db.execute(sql`
    delete from sessions
    where created_at <= ${nowIso}::timestamptz - make_interval(secs => ${SESSION_ABSOLUTE_LIFETIME_MS / 1000})
       or last_verified_at <= ${nowIso}::timestamptz - make_interval(secs => ${SESSION_IDLE_LIFETIME_MS / 1000})
    returning id`);
  const throttles = await db.execute(sql`
    delete from auth_throttles
    where updated_at <= ${nowIso}::timestamptz - make_interval(secs => ${THROTTLE_RECORD_RETENTION_MS / 1000})
      and (locked_until is null or locked_until <= ${nowIso}::timestamptz)
    returning key`);
  const ltiLogins = await db.execute(sql`
    delete from lti_login_states
    where created_at <= ${nowIso}::timestamptz - make_interval(secs => ${LOGIN_STATE_LIFETIME_MS / 1000})
    returning state`);
  return { sessions: sessions.length, throttles: throttles.length, ltiLogins: ltiLogins.length };
}
