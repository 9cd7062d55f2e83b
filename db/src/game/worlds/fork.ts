/**
 * Forking a world (docs/replay.md, "Forking a world"): a new class world with the original's seed,
 * bots and starting cash, run by the instructor who forked it, its own join code and a manual
 * clock. The worker then replays the original's log into it up to the fork week (a turn job of the
 * fork: worker/src/replay/fork.ts), so its state is the original's at the start of that week and its
 * companies belong to the same players, who continue in it in the teams of that week (the replay
 * makes the team moves again); then `finishFork` gives the teams their codes and applies the
 * changes asked for at the fork.
 *
 * A sandbox (`private: true`, "Sandbox backtests") is a player's own fork of the public world: only
 * they see it (roleOf in worlds.ts), they run its clock, the other players' companies play for
 * nobody in it, and the worker deletes it SANDBOX_LIFETIME_DAYS after it was made (sandboxes.ts).
 */
import { sql } from 'drizzle-orm';
import {
  GameError,
  MAX_WORLD_PLAYERS,
  centsToDollars,
  INITIAL_CAPITAL,
  PUBLIC_WORLD_ID,
  type ForkChanges,
  type ShockKind,
  type WorldView,
} from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { appendToLog } from '../replay/log.ts';
import { addAnnouncement, addShock } from './classroom.ts';
import { forkCompanyPairs } from './forkPairs.ts';
import { createWorld, getWorld, requireInstructor, type WorldUser } from './worlds.ts';

export function forkWeekMessage(currentWeek: number): string {
  return currentWeek === 1 ? 'This world has not turned yet: fork it at week 1' : `The fork week must be between 1 and ${currentWeek} (the world's week now)`;
}

const SANDBOX_OF_PUBLIC_ONLY = 'A sandbox is a fork of the public world: a class world is forked by its instructors';
const SANDBOX_PLAYERS_ONLY = 'Only players of the public world can make a sandbox: found your company first';
const NO_FORK_OF_SANDBOX = 'A sandbox cannot be forked: make another sandbox of the public world';

export interface ForkRequest {
  week: number;
  name?: string;
  /** A sandbox: the caller's own private fork of the public world. */
  private?: boolean;
  changes?: ForkChanges;
}

/** The countries and products the changes name exist: 404 as the shock route answers, before anything is created. */
async function checkChanges(db: DbExecutor, changes: ForkChanges): Promise<void> {
  const countries = [...(changes.tax_rates ?? []).map((rate) => rate.country_id), ...(changes.shock?.country_id ? [changes.shock.country_id] : [])];
  if (countries.length > 0) {
    // The first named country that does not exist, in the order the changes name them.
    const [missing] = await db.execute<{ id: number }>(sql`
      select named.id from jsonb_to_recordset(${JSON.stringify(countries.map((id, ord) => ({ ord, id })))}::jsonb) as named(ord int, id int)
      where not exists (select 1 from countries where countries.id = named.id)
      order by named.ord limit 1`);
    if (missing) throw new GameError('NOT_FOUND', `No country found with id ${missing.id}`);
  }
  const productId = changes.shock?.kind === 'tax_rate' ? undefined : changes.shock?.product_id;
  if (productId !== undefined) {
    const [product] = await db.execute(sql`select 1 from products where id = ${productId}`);
    if (!product) throw new GameError('NOT_FOUND', `No product found with id ${productId}`);
  }
}

/**
 * POST /api/worlds/{id}/fork, the database's part: the checks (the world's instructors, site admins
 * for the public world; for a sandbox, any player of the public world; a week the world has
 * reached; what the changes name) and the new world, empty of players, with the changes kept for
 * the worker. 403/404 as for any instructor route; 422 for a week out of range; 409 past the limit
 * of open worlds or sandboxes.
 */
export async function createFork(db: DbExecutor, user: WorldUser, worldId: number, input: ForkRequest): Promise<WorldView> {
  const original = input.private ? await getWorld(db, user, worldId) : await requireInstructor(db, user, worldId);
  if (input.private) {
    if (original.id !== PUBLIC_WORLD_ID) throw new GameError('RULE_BROKEN', SANDBOX_OF_PUBLIC_ONLY);
    if (!original.joined && original.role !== 'admin') throw new GameError('FORBIDDEN', SANDBOX_PLAYERS_ONLY);
  }
  if (original.sandbox) throw new GameError('RULE_BROKEN', NO_FORK_OF_SANDBOX);
  if (!Number.isInteger(input.week) || input.week < 1 || input.week > original.current_week) {
    throw new GameError('RULE_BROKEN', forkWeekMessage(original.current_week));
  }
  await checkChanges(db, input.changes ?? {});
  const [settings] = await db.execute<{ seed: number; bot_count: number; starting_cash_cents: number | null; max_players: number | null; team_size: number }>(
    sql`select seed, bot_count, starting_cash_cents, max_players, team_size from worlds where id = ${worldId}`,
  );
  return createWorld(db, user, {
    name: input.name ?? `${input.private ? 'Sandbox: ' : ''}${original.name} from week ${input.week}`.slice(0, 60),
    seed: Number(settings!.seed),
    bots: Number(settings!.bot_count),
    // The public world's players got their starting cash at sign-up (the log keeps each one's).
    startingCashDollars: settings!.starting_cash_cents === null ? INITIAL_CAPITAL : centsToDollars(Number(settings!.starting_cash_cents)),
    maxPlayers: settings!.max_players === null ? MAX_WORLD_PLAYERS : Number(settings!.max_players),
    teamSize: Number(settings!.team_size),
    turnIntervalMinutes: null,
    fork: { fromWorldId: worldId, atWeek: input.week, changes: input.changes ?? {}, sandbox: input.private === true },
  });
}

/** A fork whose replay failed: ended (read-only), so nobody plays a world that is not the original's. */
export async function abandonFork(db: DbExecutor, forkId: number): Promise<void> {
  await db.execute(sql`update worlds set status = 'ended', ended_at = now(), next_turn_at = null where id = ${forkId} and forked_from_world_id is not null`);
}

/** The settings a fork may change besides a shock: countries' tax rates, the bots on or off. */
export type WorldSettingsChange = Pick<ForkChanges, 'tax_rates' | 'bots'>;

/**
 * The settings part of a fork's changes, in the fork's log as `changeAtFork` (so a replay of the
 * fork makes the same change: worker/src/replay/replay.ts). A tax rate is the country's rate from
 * now on (elections go on moving it); bots off: they make no more moves (their companies stay,
 * with what they hold, and run as any company does).
 */
export async function changeWorldSettings(tx: DbExecutor, user: WorldUser, worldId: number, change: WorldSettingsChange): Promise<void> {
  if ((change.tax_rates?.length ?? 0) > 0) {
    await tx.execute(sql`
      update world_countries set tax_rate = rate.tax_rate
      from jsonb_to_recordset(${JSON.stringify(change.tax_rates)}::jsonb) as rate(country_id int, tax_rate int)
      where world_countries.world_id = ${worldId} and world_countries.country_id = rate.country_id`);
  }
  if (change.bots !== undefined) await tx.execute(sql`update worlds set bots_active = ${change.bots}, updated_at = now() where id = ${worldId}`);
  await appendToLog(tx, [
    {
      worldId,
      companyId: null,
      actingUserId: user.id,
      action: 'changeAtFork',
      input: { tax_rates: change.tax_rates ?? [], ...(change.bots === undefined ? {} : { bots: change.bots }) },
      outcome: { applied: true },
    },
  ]);
}

/** The fork's news item: where it comes from and what changed, for the players who continue in it. */
function forkNotice(originalName: string, week: number, changes: ForkChanges, countryNames: Map<number, string>, shockDescription: string | null): string {
  const changed = [
    ...(shockDescription ? [`a shock (${shockDescription})`] : []),
    ...(changes.tax_rates ?? []).map((rate) => `${countryNames.get(rate.country_id) ?? 'a country'}'s tax rate set to ${rate.tax_rate}%`),
    ...(changes.bots === undefined ? [] : [changes.bots ? 'the bots keep playing' : 'the bots make no more moves']),
  ];
  return (
    `This world is a fork of ${originalName} at the start of week ${week}: your company continues here with everything it had then, and your team with it.` +
    (changed.length > 0 ? ` Changed at the fork: ${changed.join('; ')}.` : '')
  );
}

/**
 * After the replay (the worker, in the fork's job): the teams keep their original's team codes (their
 * members and roles are those of the fork week: the replay made the team moves again), a sandbox's
 * other companies are left to nobody, the changes are applied and logged, and the players read
 * a news item saying where the world comes from. One transaction: all of it or nothing.
 */
export async function finishFork(db: DbExecutor, forkId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [fork] = await tx.execute<{
      from_world: number;
      at_week: number;
      changes: ForkChanges | null;
      sandbox_owner: number | null;
      instructor: number;
      is_admin: boolean;
      original_name: string;
    }>(sql`
      select w.forked_from_world_id as from_world, w.forked_at_week as at_week, w.fork_changes as changes, w.sandbox_owner_user_id as sandbox_owner,
             i.user_id as instructor, u.is_admin, o.name as original_name
      from worlds w join world_instructors i on i.world_id = w.id and i.role = 'instructor' join users u on u.id = i.user_id
      join worlds o on o.id = w.forked_from_world_id
      where w.id = ${forkId}`);
    if (!fork) throw new Error(`world ${forkId} is not a fork`);
    const originalId = Number(fork.from_world);
    const owner = fork.sandbox_owner === null ? null : Number(fork.sandbox_owner);
    if (owner === null) await keepTeamCodes(tx, originalId, forkId);
    else {
      // Only its owner plays in a sandbox: the others' companies stay (the history needs them) but play for nobody.
      await tx.execute(sql`delete from company_members where world_id = ${forkId} and user_id <> ${owner}`);
      await tx.execute(sql`update companies set user_id = null where world_id = ${forkId} and user_id <> ${owner}`);
    }
    const changes = fork.changes ?? {};
    const user: WorldUser = { id: Number(fork.instructor), isAdmin: Boolean(fork.is_admin) };
    if ((changes.tax_rates?.length ?? 0) > 0 || changes.bots !== undefined) await changeWorldSettings(tx, user, forkId, changes);
    let shockDescription: string | null = null;
    if (changes.shock) {
      const shock = await addShock(tx, user, forkId, {
        kind: changes.shock.kind as ShockKind,
        countryId: changes.shock.country_id,
        productId: changes.shock.product_id,
        percent: changes.shock.percent,
        weeks: changes.shock.weeks,
      });
      shockDescription = shock.description;
    }
    const countries = await tx.execute<{ id: number; name: string }>(sql`select id, name from countries`);
    const names = new Map(countries.map((country) => [Number(country.id), country.name]));
    await addAnnouncement(tx, user, forkId, forkNotice(fork.original_name, Number(fork.at_week), changes, names, shockDescription));
  });
}

/**
 * The fork's team codes are its original's (companies paired by rank, as the state hash pairs
 * them): a team that continues in the fork keeps the code its members know. The replay drew others
 * at each founding (a team code is a secret drawn at random, not part of the state); they are
 * cleared first, so that no two companies hold one code while they are swapped.
 */
async function keepTeamCodes(tx: DbExecutor, originalId: number, forkId: number): Promise<void> {
  await tx.execute(sql`update companies set team_code = null where world_id = ${forkId} and team_code is not null`);
  await tx.execute(sql`
    update companies f set team_code = o.team_code
    from ${forkCompanyPairs(originalId, forkId)} p join companies o on o.id = p.original_id
    where f.world_id = ${forkId} and f.id = p.fork_id and o.team_code is not null`);
}
