/**
 * A fork's assignments (docs/replay.md, "Forking a world"): the original's assignments still open at
 * the fork week (due that week or later) come across as the original has them when the fork is made,
 * with their checkpoints, what each company had earned before the fork week (the fork's history up
 * to then is the original's, so it had earned the same), and the world's score weights. Assignments
 * due before the fork week were graded in the original and stay there. Replay does not run the
 * assignment entries of the log (grades are not in the state hash): this is how a fork gets them.
 */
import { sql } from 'drizzle-orm';
import { centsToDollars } from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { appendToLog } from '../replay/log.ts';
import type { WorldUser } from '../worlds/worlds.ts';
import { forkCompanyPairs } from '../worlds/forkPairs.ts';

/**
 * Copies the original's open assignments into the fork (inside the fork's finishing transaction),
 * each logged in the fork's log as the instructor's `createAssignment` (with `from_assignment_id`).
 */
export async function carryAssignmentsToFork(tx: DbExecutor, forkId: number, user: WorldUser): Promise<void> {
  const [fork] = await tx.execute<{ from_world: number; at_week: number }>(
    sql`select forked_from_world_id as from_world, forked_at_week as at_week from worlds where id = ${forkId} and forked_from_world_id is not null`,
  );
  if (!fork) throw new Error(`world ${forkId} is not a fork`);
  const originalId = Number(fork.from_world);
  const forkWeek = Number(fork.at_week);
  await tx.execute(sql`
    insert into world_score_weights (world_id, net_worth_rank, profit, checkpoints, team_weighting)
    select ${forkId}::int, net_worth_rank, profit, checkpoints, team_weighting from world_score_weights where world_id = ${originalId}
    on conflict (world_id) do nothing`);
  // One statement per table: the assignments (their new ids paired with the old by due week and id,
  // the order both are inserted in), their checkpoints, what was earned before the fork week.
  const carried = await tx.execute<{ original_id: number; id: number; title: string; due_week: number }>(sql`
    with source as (
      select id, title, due_week, row_number() over (order by due_week, id) as ord
      from assignments where world_id = ${originalId} and due_week >= ${forkWeek}),
    made as (
      insert into assignments (world_id, title, due_week, created_by_user_id)
      select ${forkId}::int, title, due_week, ${user.id}::int from source order by ord
      returning id, title, due_week)
    select s.id as original_id, m.id, m.title, m.due_week
    from source s join (select id, title, due_week, row_number() over (order by id) as ord from made) m on m.ord = s.ord
    order by s.ord`);
  if (carried.length === 0) return;
  const assignmentPairs = JSON.stringify(carried.map((row) => ({ original_id: Number(row.original_id), fork_id: Number(row.id) })));
  const checkpoints = await tx.execute<{
    original_id: number;
    id: number;
    assignment_id: number;
    kind: string;
    points: number;
    target: number | null;
    weeks: number | null;
  }>(sql`
    with pairs as (select * from jsonb_to_recordset(${assignmentPairs}::jsonb) as p(original_id int, fork_id int)),
    source as (
      select c.id, p.fork_id as assignment_id, c.position, c.kind, c.points, c.target, c.weeks, row_number() over (order by p.fork_id, c.position) as ord
      from assignment_checkpoints c join pairs p on p.original_id = c.assignment_id where c.world_id = ${originalId}),
    made as (
      insert into assignment_checkpoints (world_id, assignment_id, position, kind, points, target, weeks)
      select ${forkId}::int, assignment_id, position, kind, points, target, weeks from source order by ord
      returning id)
    select s.id as original_id, m.id, s.assignment_id, s.kind, s.points, s.target, s.weeks
    from source s join (select id, row_number() over (order by id) as ord from made) m on m.ord = s.ord
    order by s.ord`);
  const checkpointPairs = JSON.stringify(checkpoints.map((row) => ({ original_id: Number(row.original_id), fork_id: Number(row.id) })));
  await tx.execute(sql`
    insert into checkpoint_results (world_id, checkpoint_id, company_id, week, points, evidence, answered_by_user_id)
    select ${forkId}::int, p.fork_id, c.fork_id, r.week, r.points, r.evidence, r.answered_by_user_id
    from checkpoint_results r
    join jsonb_to_recordset(${checkpointPairs}::jsonb) as p(original_id int, fork_id int) on p.original_id = r.checkpoint_id
    join ${forkCompanyPairs(originalId, forkId)} c on c.original_id = r.company_id
    where r.world_id = ${originalId} and r.week < ${forkWeek}`);
  await appendToLog(
    tx,
    carried.map((assignment) => ({
      worldId: forkId,
      companyId: null,
      actingUserId: user.id,
      action: 'createAssignment',
      input: {
        title: assignment.title,
        due_week: Number(assignment.due_week),
        from_assignment_id: Number(assignment.original_id),
        checkpoints: checkpoints
          .filter((checkpoint) => Number(checkpoint.assignment_id) === Number(assignment.id))
          .map((checkpoint) => ({
            kind: checkpoint.kind,
            points: Number(checkpoint.points),
            // As the instructor's request gives it: a net worth in dollars.
            ...(checkpoint.target === null
              ? {}
              : { target: checkpoint.kind === 'net_worth' ? centsToDollars(Number(checkpoint.target)) : Number(checkpoint.target) }),
            ...(checkpoint.weeks === null ? {} : { weeks: Number(checkpoint.weeks) }),
          })),
      },
      outcome: { applied: true, result: { id: Number(assignment.id) } },
    })),
  );
}
