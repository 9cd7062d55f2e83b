import { eq } from 'drizzle-orm';
import { world } from '../schema/index.ts';
import type { DbExecutor } from '../client.ts';

export interface WorldState {
  current_week: number;
  last_turn_at: string | null;
  next_turn_at: string | null;
}

export async function getWorldState(db: DbExecutor): Promise<WorldState> {
  const [row] = await db
    .select({ currentWeek: world.currentWeek, lastTurnAt: world.lastTurnAt, nextTurnAt: world.nextTurnAt })
    .from(world)
    .where(eq(world.id, 1));
  return {
    current_week: row?.currentWeek ?? 1,
    last_turn_at: row?.lastTurnAt?.toISOString() ?? null,
    next_turn_at: row?.nextTurnAt?.toISOString() ?? null,
  };
}

export async function currentWeek(db: DbExecutor): Promise<number> {
  const [row] = await db.select({ currentWeek: world.currentWeek }).from(world).where(eq(world.id, 1));
  return row?.currentWeek ?? 1;
}
