/**
 * Join codes are guarded against guessing (docs/worlds.md): after MAX_WRONG_JOIN_CODES wrong codes
 * in JOIN_ATTEMPT_WINDOW_MINUTES from one user, or from one network address, joining answers 429 until the
 * oldest of them is older than the window. The counts live in the rate limiter's store
 * (`rate_limit_counters`, one row per subject and minute), under `join:user:<id>` and `join:ip:<address>`.
 */
import { sql } from 'drizzle-orm';
import { GameError, JOIN_ATTEMPT_WINDOW_MINUTES, MAX_WRONG_JOIN_CODES } from '@marketcraft/shared';
import type { DbExecutor } from '@marketcraft/db';
import { isLoopbackAddress } from '../clientIp.ts';

const TOO_MANY_JOIN_CODES = `Too many wrong join codes: try again in ${JOIN_ATTEMPT_WINDOW_MINUTES} minutes`;

/**
 * What a wrong code counts against: the user, and the address it came from. The game's own machine
 * (loopback) is one address for all of its players (a console, test runs, scripted players), so it
 * is not counted as one: one guesser there would keep every student on it from joining.
 */
function subjects(userId: number, clientIp: string): string[] {
  return isLoopbackAddress(clientIp) ? [`join:user:${userId}`] : [`join:user:${userId}`, `join:ip:${clientIp}`];
}

/** 429 when the user or the address has used up its wrong codes in the window. */
export async function checkJoinAttempts(db: DbExecutor, userId: number, clientIp: string): Promise<void> {
  const [row] = await db.execute<{ wrong: number; retry_seconds: number | null }>(sql`
    select coalesce(max(total), 0)::int as wrong, max(retry_seconds)::float8 as retry_seconds
    from (
      select subject, sum(requests) as total,
             extract(epoch from min(window_start) + make_interval(mins => ${JOIN_ATTEMPT_WINDOW_MINUTES}) - now()) as retry_seconds
      from rate_limit_counters
      where subject in (${sql.join(
        subjects(userId, clientIp).map((subject) => sql`${subject}`),
        sql`, `,
      )})
        and window_start > now() - make_interval(mins => ${JOIN_ATTEMPT_WINDOW_MINUTES})
      group by subject
    ) counted`);
  if (Number(row?.wrong ?? 0) >= MAX_WRONG_JOIN_CODES) {
    throw new GameError('RATE_LIMITED', TOO_MANY_JOIN_CODES, { retryAfterSeconds: Math.max(1, Number(row?.retry_seconds ?? 60)) });
  }
}

/**
 * Counts one wrong code for the user and for the address, and answers how many wrong codes the
 * busier of the two has in the window now, this one included. The count comes from the upsert's
 * own row (RETURNING: concurrent wrong codes queue on that row, so each gets a distinct number),
 * which lets the caller refuse the ones past the limit even when they all passed
 * checkJoinAttempts together.
 */
async function countWrongJoinCode(db: DbExecutor, userId: number, clientIp: string): Promise<number> {
  const [row] = await db.execute<{ wrong: number }>(sql`
    with bumped as (
      insert into rate_limit_counters as c (subject, window_start, requests, mutations)
      select subject, date_trunc('minute', now()), 1, 1 from unnest(${`{${subjects(userId, clientIp)
        .map((s) => `"${s.replaceAll('"', '')}"`)
        .join(',')}}`}::text[]) as subject
      on conflict (subject, window_start) do update set requests = c.requests + 1, mutations = c.mutations + 1
      returning c.subject, c.window_start, c.requests
    )
    select coalesce(max(b.requests + coalesce((
             select sum(r.requests) from rate_limit_counters r
             where r.subject = b.subject and r.window_start <> b.window_start
               and r.window_start > now() - make_interval(mins => ${JOIN_ATTEMPT_WINDOW_MINUTES})), 0)), 0)::int as wrong
    from bumped b`);
  return Number(row?.wrong ?? 0);
}

/**
 * A wrong code: 404, or 429 when it is past the limit (concurrent guesses that all passed the
 * check before any was counted). Past the limit a guesser is not even told the code was wrong.
 */
export async function refuseWrongJoinCode(db: DbExecutor, userId: number, clientIp: string, unknownMessage: string): Promise<never> {
  const wrong = await countWrongJoinCode(db, userId, clientIp);
  if (wrong > MAX_WRONG_JOIN_CODES) {
    await checkJoinAttempts(db, userId, clientIp);
    throw new GameError('RATE_LIMITED', TOO_MANY_JOIN_CODES, { retryAfterSeconds: JOIN_ATTEMPT_WINDOW_MINUTES * 60 });
  }
  throw new GameError('NOT_FOUND', unknownMessage);
}
