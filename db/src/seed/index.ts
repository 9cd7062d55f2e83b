import type { Database } from '../client.ts';
import { world } from '../schema/index.ts';
import { nextScheduledTurnAt } from '@marketcraft/shared';

/**
 * Seeds the world. Idempotent: running it again changes nothing.
 * (Placeholder while the seed data files are written: only the world row.)
 */
export async function seedWorld(db: Database): Promise<void> {
  await db
    .insert(world)
    .values({ id: 1, currentWeek: 1, nextTurnAt: nextScheduledTurnAt(new Date()) })
    .onConflictDoNothing();
}
