/**
 * Forking a world (docs/replay.md, "Forking a world"): a new class world with the original's seed,
 * bots and starting cash, run by the instructor who forked it, its own join code and a manual
 * clock. The worker then replays the original's log into it up to the fork week (a turn job of the
 * fork: worker/src/replay/fork.ts), so its state is the original's at the start of that week and its
 * companies belong to the same players, who continue in it.
 */
import { sql } from 'drizzle-orm';
import { GameError, MAX_WORLD_PLAYERS, centsToDollars, INITIAL_CAPITAL, type WorldView } from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { createWorld, requireInstructor, type WorldUser } from './worlds.ts';

export function forkWeekMessage(currentWeek: number): string {
  return currentWeek === 1 ? 'This world has not turned yet: fork it at week 1' : `The fork week must be between 1 and ${currentWeek} (the world's week now)`;
}

/**
 * POST /api/worlds/{id}/fork, the database's part: the checks (the world's instructors, site admins
 * for the public world; a week the world has reached) and the new world, empty of players. 403/404
 * as for any instructor route; 422 for a week out of range.
 */
export async function createFork(db: DbExecutor, user: WorldUser, worldId: number, input: { week: number; name: string }): Promise<WorldView> {
  const original = await requireInstructor(db, user, worldId);
  if (!Number.isInteger(input.week) || input.week < 1 || input.week > original.current_week) {
    throw new GameError('RULE_BROKEN', forkWeekMessage(original.current_week));
  }
  const [settings] = await db.execute<{ seed: number; bot_count: number; starting_cash_cents: number | null; max_players: number | null }>(
    sql`select seed, bot_count, starting_cash_cents, max_players from worlds where id = ${worldId}`,
  );
  const fork = await createWorld(db, user, {
    name: input.name,
    seed: Number(settings!.seed),
    bots: Number(settings!.bot_count),
    // The public world's players got their starting cash at sign-up (the log keeps each one's).
    startingCashDollars: settings!.starting_cash_cents === null ? INITIAL_CAPITAL : centsToDollars(Number(settings!.starting_cash_cents)),
    maxPlayers: settings!.max_players === null ? MAX_WORLD_PLAYERS : Number(settings!.max_players),
    turnIntervalMinutes: null,
  });
  await db.execute(sql`update worlds set forked_from_world_id = ${worldId}, forked_at_week = ${input.week} where id = ${fork.id}`);
  return fork;
}

/** A fork whose replay failed: ended (read-only), so nobody plays a world that is not the original's. */
export async function abandonFork(db: DbExecutor, forkId: number): Promise<void> {
  await db.execute(sql`update worlds set status = 'ended', ended_at = now(), next_turn_at = null where id = ${forkId} and forked_from_world_id is not null`);
}
