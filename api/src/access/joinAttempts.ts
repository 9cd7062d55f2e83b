/**
 * Join codes are guarded against guessing (docs/worlds.md): after MAX_WRONG_JOIN_CODES wrong codes
 * in JOIN_ATTEMPT_WINDOW_MINUTES from one user, or from one address, joining answers 429 until the
 * oldest of them is older than the window. The counts live in the rate limiter's store
 * (`rate_limit_counters`, one row per subject and minute), under `join:user:<id>` and `join:ip:<address>`.
 */
import { sql } from 'drizzle-orm';
import { GameError, JOIN_ATTEMPT_WINDOW_MINUTES, MAX_WRONG_JOIN_CODES } from '@marketcraft/shared';
import type { DbExecutor } from '@marketcraft/db';

export const TOO_MANY_JOIN_CODES = `Too many wrong join codes: try again in ${JOIN_ATTEMPT_WINDOW_MINUTES} minutes`;

function subjects(userId: number, clientIp: string): string[] {
  return [`join:user:${userId}`, `join:ip:${clientIp}`];
}

/** 429 when the user or the address has used up its wrong codes in the window. */
export async function checkJoinAttempts(db: DbExecutor, userId: number, clientIp: string): Promise<void> {
  const [row] = await db.execute<{ wrong: number; retry_seconds: number | null }>(sql`
    select coalesce(max(total), 0)::int as wrong, max(retry_seconds)::float8 as retry_seconds
    from (
      select subject, sum(requests) as total,
             extract(epoch from min(window_start) + make_interval(mins => ${JOIN_ATTEMPT_WINDOW_MINUTES}) - now()) as retry_seconds
      from rate_limit_counters
      where subject in (${sql.join(subjects(userId, clientIp).map((subject) => sql`${subject}`), sql`, `)})
        and window_start > now() - make_interval(mins => ${JOIN_ATTEMPT_WINDOW_MINUTES})
      group by subject
    ) counted`);
  if (Number(row?.wrong ?? 0) >= MAX_WRONG_JOIN_CODES) {
    throw new GameError('RATE_LIMITED', TOO_MANY_JOIN_CODES, { retryAfterSeconds: Math.max(1, Number(row?.retry_seconds ?? 60)) });
  }
}

/** Counts one wrong code for the user and for the address. */
export async function countWrongJoinCode(db: DbExecutor, userId: number, clientIp: string): Promise<void> {
  await db.execute(sql`
    insert into rate_limit_counters as c (subject, window_start, requests, mutations)
    select subject, date_trunc('minute', now()), 1, 1 from unnest(${`{${subjects(userId, clientIp).map((s) => `"${s.replaceAll('"', '')}"`).join(',')}}`}::text[]) as subject
    on conflict (subject, window_start) do update set requests = c.requests + 1, mutations = c.mutations + 1`);
}
