/** The turn's research sums (db/src/game/research/researchPlan.ts), computed once into a temp table every phase joins. */
import { sql } from 'drizzle-orm';
import { researchSumsSql } from '@marketcraft/db';
import type { TurnContext } from './context.ts';
import { fillTurnTable } from './turnTables.ts';

export const TURN_RESEARCH = sql`turn_research`;
export const TURN_COMPANIES = sql`turn_companies`;

export async function createResearchTable(ctx: TurnContext): Promise<void> {
  await fillTurnTable(ctx.tx, 'turn_research', sql`select * from ${researchSumsSql(ctx.worldId, TURN_COMPANIES)} r`);
}
