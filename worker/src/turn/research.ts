/** The turn's research sums (db/src/game/research/researchPlan.ts), computed once into a temp table every phase joins. */
import { sql } from 'drizzle-orm';
import { researchSumsSql } from '@marketcraft/db';
import type { TurnContext } from './context.ts';

export const TURN_RESEARCH = sql`turn_research`;
export const TURN_COMPANIES = sql`turn_companies`;

export async function createResearchTable(ctx: TurnContext): Promise<void> {
  await ctx.tx.execute(sql`create temp table turn_research on commit drop as select * from ${researchSumsSql(ctx.worldId, TURN_COMPANIES)} r`);
}
