/**
 * Phase 12, open data (docs/open-data.md): the week as its books closed, recorded for the weekly
 * data files (recordWeekForOpenData). After the report, before the bots' moves for the next week.
 */
import { recordWeekForOpenData } from '@marketcraft/db';
import type { TurnContext } from './context.ts';

export async function runOpenData(ctx: TurnContext): Promise<void> {
  await recordWeekForOpenData(ctx.tx, ctx.worldId, ctx.week);
}
