/**
 * An instructor's assignments of a class world (docs/classroom.md, "Assignments"): create, change
 * the title or due week, delete; every member of the world reads them. Checkpoints stay as created
 * (what a student has earned is never graded against a changed rule): to change one, delete the
 * assignment and add it again.
 */
import { sql } from 'drizzle-orm';
import {
  CHECKPOINT_CATALOGUE,
  GameError,
  MAX_ASSIGNMENTS_PER_WORLD,
  centsToDollars,
  checkpointMeasures,
  dollarsToCents,
  type AssignmentView,
  type CheckpointInput,
  type CheckpointKind,
  type CheckpointView,
} from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { WORLD_ENDED } from '../clock/state.ts';
import { appendToLog } from '../replay/log.ts';
import { getWorld, requireInstructor, type WorldUser } from '../worlds/worlds.ts';

export const ASSIGNMENT_NOT_FOUND = 'Assignment not found';
const PUBLIC_WORLD_HAS_NO_ASSIGNMENTS = 'Assignments are for class worlds: the public world has none';
const TOO_MANY_ASSIGNMENTS = `A world has at most ${MAX_ASSIGNMENTS_PER_WORLD} assignments: delete one first`;

export type CheckpointRow = { id: number; assignment_id: number; kind: CheckpointKind; points: number; target: number | null; weeks: number | null };
export type AssignmentRow = { id: number; title: string; due_week: number };

/** A checkpoint as the API shows it (the net-worth target in dollars). */
function checkpointView(row: CheckpointRow): CheckpointView {
  const target = row.target === null ? null : row.kind === 'net_worth' ? centsToDollars(Number(row.target)) : Number(row.target);
  const weeks = row.weeks === null ? null : Number(row.weeks);
  return {
    id: Number(row.id),
    kind: row.kind,
    label: CHECKPOINT_CATALOGUE[row.kind].label,
    measures: checkpointMeasures({ kind: row.kind, target, weeks }),
    points: Number(row.points),
    target,
    weeks,
  };
}

/** The world's assignments (by due week) and their checkpoints (in the editor's order). */
export async function readAssignments(db: DbExecutor, worldId: number): Promise<{ assignments: AssignmentRow[]; checkpoints: CheckpointRow[] }> {
  const [assignments, checkpoints] = await Promise.all([
    db.execute<AssignmentRow>(sql`select id, title, due_week from assignments where world_id = ${worldId} order by due_week, id`),
    db.execute<CheckpointRow>(
      sql`select id, assignment_id, kind, points, target, weeks from assignment_checkpoints where world_id = ${worldId} order by assignment_id, position`,
    ),
  ]);
  return {
    assignments: assignments.map((row) => ({ id: Number(row.id), title: row.title, due_week: Number(row.due_week) })),
    checkpoints: [...checkpoints],
  };
}

export function assignmentViews(assignments: AssignmentRow[], checkpoints: CheckpointRow[]): AssignmentView[] {
  return assignments.map((assignment) => {
    const own = checkpoints.filter((checkpoint) => Number(checkpoint.assignment_id) === assignment.id).map(checkpointView);
    return { ...assignment, points_possible: own.reduce((sum, checkpoint) => sum + checkpoint.points, 0), checkpoints: own };
  });
}

/** GET /api/worlds/{id}/assignments: members and instructors of the world (404 for anyone else). */
export async function listAssignments(db: DbExecutor, user: WorldUser, worldId: number): Promise<AssignmentView[]> {
  await getWorld(db, user, worldId);
  const { assignments, checkpoints } = await readAssignments(db, worldId);
  return assignmentViews(assignments, checkpoints);
}

async function assignmentOf(db: DbExecutor, worldId: number, assignmentId: number): Promise<AssignmentView> {
  const { assignments, checkpoints } = await readAssignments(db, worldId);
  const view = assignmentViews(assignments, checkpoints).find((assignment) => assignment.id === assignmentId);
  if (!view) throw new GameError('NOT_FOUND', ASSIGNMENT_NOT_FOUND);
  return view;
}

async function requireClassWorld(db: DbExecutor, user: WorldUser, worldId: number): Promise<void> {
  const world = await requireInstructor(db, user, worldId);
  if (world.kind === 'public') throw new GameError('RULE_BROKEN', PUBLIC_WORLD_HAS_NO_ASSIGNMENTS);
  if (world.status === 'ended') throw new GameError('CONFLICT', WORLD_ENDED);
}

/**
 * The log entries of assignments (docs/replay.md): the instructor's changes and a student's answer.
 * Grading is not the game's state (the state hash has no assignments or results), so replay keeps
 * them as history and skips them: a replayed world has the original's companies and markets, not
 * its assignments; a fork gets those still open at its fork week (forkAssignments.ts).
 */
export const ASSIGNMENT_LOG_ACTIONS = ['createAssignment', 'updateAssignment', 'deleteAssignment', 'setScoreWeights', 'answerCheckpoint'] as const;

/** An instructor's change of the world's assignments or weights, in its action log (db/src/game/replay/log.ts), in the change's transaction. */
export function logInstructorAction(
  tx: DbExecutor,
  worldId: number,
  user: WorldUser,
  action: Exclude<(typeof ASSIGNMENT_LOG_ACTIONS)[number], 'answerCheckpoint'>,
  input: Record<string, unknown>,
  result?: unknown,
): Promise<void> {
  return appendToLog(tx, [
    { worldId, companyId: null, actingUserId: user.id, action, input, outcome: result === undefined ? { applied: true } : { applied: true, result } },
  ]);
}

/** The target as stored: a net worth in cents, the others as entered. */
function storedTarget(checkpoint: CheckpointInput): number | null {
  if (checkpoint.target === undefined) return null;
  return checkpoint.kind === 'net_worth' ? dollarsToCents(checkpoint.target) : checkpoint.target;
}

/** POST /api/worlds/{id}/assignments: instructors of a class world. */
export async function createAssignment(
  db: DbExecutor,
  user: WorldUser,
  worldId: number,
  input: { title: string; dueWeek: number; checkpoints: CheckpointInput[] },
): Promise<AssignmentView> {
  await requireClassWorld(db, user, worldId);
  const assignmentId = await db.transaction(async (tx) => {
    // The world's row locked: two creations at once cannot pass the limit together.
    await tx.execute(sql`select 1 from worlds where id = ${worldId} for no key update`);
    const [count] = await tx.execute<{ n: number }>(sql`select count(*)::int as n from assignments where world_id = ${worldId}`);
    if (Number(count?.n ?? 0) >= MAX_ASSIGNMENTS_PER_WORLD) throw new GameError('RULE_BROKEN', TOO_MANY_ASSIGNMENTS);
    const [row] = await tx.execute<{ id: number }>(sql`
      insert into assignments (world_id, title, due_week, created_by_user_id) values (${worldId}, ${input.title}, ${input.dueWeek}, ${user.id}) returning id`);
    const id = Number(row!.id);
    const values = input.checkpoints.map(
      (checkpoint, position) =>
        sql`(${worldId}::int, ${id}::int, ${position}::int, ${checkpoint.kind}, ${checkpoint.points}::int, ${storedTarget(checkpoint)}::bigint, ${checkpoint.weeks ?? null}::int)`,
    );
    await tx.execute(
      sql`insert into assignment_checkpoints (world_id, assignment_id, position, kind, points, target, weeks) values ${sql.join(values, sql`, `)}`,
    );
    await logInstructorAction(tx, worldId, user, 'createAssignment', { title: input.title, due_week: input.dueWeek, checkpoints: input.checkpoints }, { id });
    return id;
  });
  return assignmentOf(db, worldId, assignmentId);
}

/** PATCH /api/worlds/{id}/assignments/{assignment_id}: the title or the due week. */
export async function updateAssignment(
  db: DbExecutor,
  user: WorldUser,
  worldId: number,
  assignmentId: number,
  change: { title?: string; dueWeek?: number },
): Promise<AssignmentView> {
  await requireClassWorld(db, user, worldId);
  await db.transaction(async (tx) => {
    const updated = await tx.execute(sql`
      update assignments set title = coalesce(${change.title ?? null}, title), due_week = coalesce(${change.dueWeek ?? null}::int, due_week)
      where world_id = ${worldId} and id = ${assignmentId} returning id`);
    if (updated.length === 0) throw new GameError('NOT_FOUND', ASSIGNMENT_NOT_FOUND);
    await logInstructorAction(tx, worldId, user, 'updateAssignment', { assignment_id: assignmentId, title: change.title, due_week: change.dueWeek });
  });
  return assignmentOf(db, worldId, assignmentId);
}

/** DELETE /api/worlds/{id}/assignments/{assignment_id}: with its checkpoints and what was earned. */
export async function deleteAssignment(db: DbExecutor, user: WorldUser, worldId: number, assignmentId: number): Promise<{ ok: true }> {
  await requireClassWorld(db, user, worldId);
  await db.transaction(async (tx) => {
    const deleted = await tx.execute(sql`delete from assignments where world_id = ${worldId} and id = ${assignmentId} returning id`);
    if (deleted.length === 0) throw new GameError('NOT_FOUND', ASSIGNMENT_NOT_FOUND);
    await logInstructorAction(tx, worldId, user, 'deleteAssignment', { assignment_id: assignmentId });
  });
  return { ok: true };
}
