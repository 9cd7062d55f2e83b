import { eq, sql } from 'drizzle-orm';
import { GameError, TURN_INTERVAL_HOURS, type WorldStatus, type WorldState } from '@marketcraft/shared';
import { worlds } from '../../schema/index.ts';
import type { DbExecutor } from '../../client.ts';

/** What every change in an ended world answers (409): an ended world is read-only. */
export const WORLD_ENDED = 'This world has ended: it is read-only';

export interface WorldClock {
  kind: string;
  status: string;
  turnIntervalMinutes: number | null;
  nextTurnAt: Date | string | null;
}

/**
 * How a world's turns come, in the words /worlds, the manage page and the header show
 * (docs/worlds.md, "How turns come"): what is true now, from the world's row. A paused or ended
 * clock says so; the public world without a next turn time has no schedule (the worker runs with
 * TURN_SCHEDULE_ENABLED=0 and sets next_turn_at to null), so only an admin turns it; a private
 * world turns every turn_interval_minutes, or only when its instructor advances it.
 */
export function turnCadence(world: WorldClock): string {
  if (world.status === 'ended') return 'Ended';
  if (world.status === 'paused') return 'Paused';
  if (world.kind === 'public') return world.nextTurnAt === null ? 'Manual turns' : `Every ${TURN_INTERVAL_HOURS} hours`;
  return world.turnIntervalMinutes === null ? 'Manual turns' : `Every ${world.turnIntervalMinutes} min`;
}

/** GET /world: the week and clock of one world. */
export async function getWorldState(db: DbExecutor, worldId: number): Promise<WorldState> {
  const [row] = await db
    .select({
      currentWeek: worlds.currentWeek,
      lastTurnAt: worlds.lastTurnAt,
      nextTurnAt: worlds.nextTurnAt,
      status: worlds.status,
      kind: worlds.kind,
      turnIntervalMinutes: worlds.turnIntervalMinutes,
    })
    .from(worlds)
    .where(eq(worlds.id, worldId));
  return {
    current_week: row?.currentWeek ?? 1,
    last_turn_at: row?.lastTurnAt?.toISOString() ?? null,
    next_turn_at: row?.nextTurnAt?.toISOString() ?? null,
    status: (row?.status ?? 'active') as WorldStatus,
    turns: row ? turnCadence(row) : 'Manual turns',
  };
}

export async function currentWeek(db: DbExecutor, worldId: number): Promise<number> {
  const [row] = await db.select({ currentWeek: worlds.currentWeek }).from(worlds).where(eq(worlds.id, worldId));
  return row?.currentWeek ?? 1;
}

/**
 * The world a company plays in. Operations that start from a company (the player's, a bot's) act in
 * its world: every row they write and every world figure they read (prices, the week) is that world's.
 */
export async function companyWorld(db: DbExecutor, companyId: number): Promise<number> {
  const [row] = await db.execute<{ world_id: number }>(sql`select world_id from companies where id = ${companyId}`);
  if (!row) throw new GameError('NOT_FOUND', 'No company found');
  return Number(row.world_id);
}
