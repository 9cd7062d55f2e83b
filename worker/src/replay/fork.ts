/**
 * The worker's part of a fork (docs/replay.md, "Forking a world"): the fork world exists (the API
 * created it, db/src/game/worlds/fork.ts); its original's log is replayed into it up to the fork
 * week, in the fork's turn job (one job of a world at a time: no turn of the fork runs meanwhile).
 * The players' companies are founded again for the same accounts, and their team moves made again,
 * so they continue in the fork in the teams of the fork week; then finishFork gives the teams their
 * codes and applies the changes asked for at the fork, and the open assignments come across.
 * A replay that does not reach the original's hashes fails the job: the API then ends the fork.
 */
import { sql } from 'drizzle-orm';
import { carryAssignmentsToFork, finishFork, type Database } from '@marketcraft/db';
import { replayWorld, type ReplayReport } from './replay.ts';

export async function replayFork(db: Database, forkId: number): Promise<ReplayReport> {
  const [fork] = await db.execute<{ from_world: number | null; at_week: number | null; instructor: number; is_admin: boolean }>(sql`
    select w.forked_from_world_id as from_world, w.forked_at_week as at_week, i.user_id as instructor, u.is_admin
    from worlds w join world_instructors i on i.world_id = w.id and i.role = 'instructor' join users u on u.id = i.user_id
    where w.id = ${forkId}`);
  if (!fork || fork.from_world === null || fork.at_week === null) throw new Error(`world ${forkId} is not a fork`);
  const [week] = await db.execute<{ current_week: number }>(sql`select current_week from worlds where id = ${forkId}`);
  if (Number(week?.current_week) !== 1 || (await db.execute(sql`select 1 from companies where world_id = ${forkId} and not is_bot limit 1`)).length > 0) {
    throw new Error(`fork ${forkId} was already replayed`);
  }
  const report = await replayWorld(
    db,
    Number(fork.from_world),
    { db, worldId: forkId, admin: { id: Number(fork.instructor), isAdmin: Boolean(fork.is_admin) }, userFor: (userId) => Promise.resolve(userId) },
    { toWeek: Number(fork.at_week) },
  );
  const differing = report.weeks.find((check) => !check.matches);
  if (differing) throw new Error(`the fork's week ${differing.week} differs from the original's (hash ${differing.replayed} against ${differing.original})`);
  if (report.mismatches.length > 0) {
    const first = report.mismatches[0]!;
    throw new Error(`the fork's replay of entry ${first.seq} (${first.action}) answered differently: ${JSON.stringify(first.replayed)}`);
  }
  // The team codes, the changes asked for at the fork, the players' notice (db/src/game/worlds/fork.ts),
  // the assignments still open at the fork week: all of it or nothing.
  const instructor = { id: Number(fork.instructor), isAdmin: Boolean(fork.is_admin) };
  await db.transaction(async (tx) => {
    await finishFork(tx, forkId);
    await carryAssignmentsToFork(tx, forkId, instructor);
  });
  return report;
}
