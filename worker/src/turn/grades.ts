/**
 * The grades phase: the checkpoints of the world's open assignments that player companies earned
 * this week, with their evidence, from the week reports just written (gradeCheckpointsOfWeek,
 * db/src/game/assignments/grading.ts; docs/classroom.md, "How grades are computed").
 */
import { gradeCheckpointsOfWeek } from '@marketcraft/db';
import type { TurnContext } from './context.ts';

export async function runGrades(ctx: TurnContext): Promise<void> {
  await gradeCheckpointsOfWeek(ctx.tx, ctx.worldId, ctx.week);
}
