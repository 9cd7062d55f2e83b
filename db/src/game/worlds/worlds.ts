/**
 * Worlds and classroom worlds (docs/worlds.md): listing the worlds a user may see, creating a
 * private world (its instructor, join code, clock, starting cash, bots and seed), joining one by its
 * code or founding a company in one (both under the world's terms: admitNewCompany), switching the
 * session's current world, and who may do what in a world.
 *
 * Access: the public world is open to everyone; a private world is visible to its members (players
 * with a company in it, its instructor and co-instructors) and to site admins (a sandbox: to its
 * owner alone, fork.ts), and answers "World not found" (404) to everyone else, exactly like a world
 * that does not exist.
 */
import { randomInt } from 'node:crypto';
import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import {
  GameError,
  JOIN_CODE_LENGTH,
  MAX_OPEN_WORLDS_PER_INSTRUCTOR,
  MAX_OPEN_SANDBOXES_PER_PLAYER,
  PUBLIC_WORLD_ID,
  SANDBOX_LIFETIME_DAYS,
  centsToDollars,
  dollarsToCents,
  type CompanyDetails,
  type ForkChanges,
  type SignupBonusMode,
  type WorldRole,
  type WorldKind,
  type WorldStatus,
  type WorldView,
} from '@marketcraft/shared';
import { isPostgresError, UNIQUE_VIOLATION, type DbExecutor } from '../../client.ts';
import { cityMarketData, sessions, users, worldInstructors, worldProducts, worlds } from '../../schema/index.ts';
import { populateWorld } from '../../seed/index.ts';
import { createPlayerCompany } from '../companies/founding.ts';
import { ALREADY_IN_A_TEAM, addTeamMember, companyOfTeamCode, logTeamMove, teamWithRoom } from './teamMembers.ts';
import { activeCompanyIdOf, memberCompanyIdSql, playedInWorldSql } from '../companies/members.ts';
import { appendToLog } from '../replay/log.ts';
import { getCompany } from '../companies/company.ts';
import { WORLD_ENDED, turnCadence } from '../clock/state.ts';

export const WORLD_NOT_FOUND = 'World not found';
export const JOIN_CODE_UNKNOWN = 'No world has this join code';
const WORLD_FULL = 'This world is full: ask your instructor to raise its player limit';
export const INSTRUCTORS_ONLY = "Only this world's instructors can do that";
const TOO_MANY_OPEN_WORLDS = `You already run ${MAX_OPEN_WORLDS_PER_INSTRUCTOR} worlds that have not ended: end one before you create another`;

/** A sandbox is one player's backtest: nobody joins or co-teaches it (it would answer them 404 anyway). */
const SANDBOX_ALONE = 'A sandbox is yours alone: nobody joins it, and it has no join code or co-instructors';
const TOO_MANY_SANDBOXES = `You already have ${MAX_OPEN_SANDBOXES_PER_PLAYER} sandboxes: end one (or wait until one is deleted, ${SANDBOX_LIFETIME_DAYS} days after it was made) before you make another`;

/** Serialises world creation per user (the limit of open worlds). */
const WORLD_CREATION_LOCK_KEY = 0x6d637763; // "mcwc"

/** Letters and digits a student cannot misread (no 0/O, 1/I/L). */
const JOIN_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

function generateJoinCode(): string {
  let code = '';
  for (let index = 0; index < JOIN_CODE_LENGTH; index += 1) code += JOIN_CODE_ALPHABET[randomInt(JOIN_CODE_ALPHABET.length)];
  return code;
}

/** What a user is in a world: admin and instructors manage it, players play in it, visitors see the public world. */
export type WorldAccess = WorldRole | 'admin' | 'player' | 'visitor';

export interface WorldUser {
  id: number;
  isAdmin: boolean;
}

type WorldRow = {
  id: number;
  name: string;
  kind: WorldKind;
  status: WorldStatus;
  current_week: number;
  turn_interval_minutes: number | null;
  next_turn_at: Date | string | null;
  last_turn_at: Date | string | null;
  starting_cash_cents: number | null;
  bot_count: number;
  max_players: number | null;
  team_size: number;
  join_code: string | null;
  created_at: Date | string;
  ended_at: Date | string | null;
  players: number;
  instructor_role: string | null;
  joined: boolean;
  played: boolean;
  forked_from_world_id: number | null;
  forked_at_week: number | null;
  bots_active: boolean;
  sandbox_owner_user_id: number | null;
};

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function toView(row: WorldRow, user: WorldUser): WorldView {
  const role = roleOf(row, user);
  const manages = role === 'admin' || role === 'instructor' || role === 'co_instructor';
  return {
    id: Number(row.id),
    name: row.name,
    kind: row.kind,
    status: row.status,
    current_week: Number(row.current_week),
    turn_interval_minutes: row.turn_interval_minutes === null ? null : Number(row.turn_interval_minutes),
    turns: turnCadence({
      kind: row.kind,
      status: row.status,
      turnIntervalMinutes: row.turn_interval_minutes === null ? null : Number(row.turn_interval_minutes),
      nextTurnAt: row.next_turn_at,
    }),
    next_turn_at: iso(row.next_turn_at),
    last_turn_at: iso(row.last_turn_at),
    starting_cash: row.starting_cash_cents === null ? null : centsToDollars(Number(row.starting_cash_cents)),
    bots: Number(row.bot_count),
    max_players: row.max_players === null ? null : Number(row.max_players),
    team_size: Number(row.team_size),
    players: Number(row.players),
    role,
    joined: row.joined,
    join_code: manages ? row.join_code : null,
    created_at: new Date(row.created_at).toISOString(),
    ended_at: iso(row.ended_at),
    forked_from_world_id: row.forked_from_world_id === null ? null : Number(row.forked_from_world_id),
    forked_at_week: row.forked_at_week === null ? null : Number(row.forked_at_week),
    bots_active: row.bots_active,
    sandbox: row.sandbox_owner_user_id !== null,
    deletes_at: row.sandbox_owner_user_id === null ? null : sandboxDeletesAt(new Date(row.created_at)).toISOString(),
  };
}

/** When the worker deletes a sandbox made at `createdAt` (SANDBOX_LIFETIME_DAYS later). */
function sandboxDeletesAt(createdAt: Date): Date {
  return new Date(createdAt.getTime() + SANDBOX_LIFETIME_DAYS * 24 * 60 * 60 * 1000);
}

function roleOf(row: Pick<WorldRow, 'kind' | 'instructor_role' | 'played' | 'sandbox_owner_user_id'>, user: WorldUser): WorldAccess | null {
  // A sandbox is its owner's alone (site admins included: it is nobody's class).
  if (row.sandbox_owner_user_id !== null && Number(row.sandbox_owner_user_id) !== user.id) return null;
  if (row.instructor_role === 'instructor' || row.instructor_role === 'co_instructor') return row.instructor_role;
  if (user.isAdmin) return 'admin';
  if (row.played) return 'player';
  return row.kind === 'public' ? 'visitor' : null;
}

/** Worlds with the caller's part in each; `where` narrows them (SQL over alias w). */
async function selectWorlds(db: DbExecutor, user: WorldUser, where: ReturnType<typeof sql>): Promise<WorldRow[]> {
  return db.execute<WorldRow>(sql`
    select w.id, w.name, w.kind, w.status, w.current_week, w.turn_interval_minutes, w.next_turn_at, w.last_turn_at,
           w.starting_cash_cents, w.bot_count, w.max_players, w.team_size, w.join_code, w.created_at, w.ended_at,
           (select count(*) from companies c where c.world_id = w.id and not c.is_bot and c.status = 'active')::int as players,
           (select i.role from world_instructors i where i.world_id = w.id and i.user_id = ${user.id}) as instructor_role,
           ${memberCompanyIdSql(sql`w.id`, user.id)} is not null as joined,
           ${playedInWorldSql(sql`w.id`, user.id)} as played,
           w.forked_from_world_id, w.forked_at_week, w.bots_active, w.sandbox_owner_user_id
    from worlds w
    where ${where}
    order by (w.kind = 'public') desc, w.created_at desc, w.id`);
}

/**
 * GET /api/worlds: the public worlds and every world the user belongs to (site admins: all worlds).
 */
export async function listWorlds(db: DbExecutor, user: WorldUser): Promise<WorldView[]> {
  const rows = await selectWorlds(
    db,
    user,
    user.isAdmin
      ? sql`true`
      : sql`(w.kind = 'public'
             or exists (select 1 from world_instructors i where i.world_id = w.id and i.user_id = ${user.id})
             or ${playedInWorldSql(sql`w.id`, user.id)})`,
  );
  return rows.map((row) => toView(row, user)).filter((world) => world.role !== null);
}

/** One world as the user may see it; 404 for a private world they are not part of. */
export async function getWorld(db: DbExecutor, user: WorldUser, worldId: number): Promise<WorldView> {
  const [row] = await selectWorlds(db, user, sql`w.id = ${worldId}`);
  if (!row) throw new GameError('NOT_FOUND', WORLD_NOT_FOUND);
  const view = toView(row, user);
  if (view.role === null) throw new GameError('NOT_FOUND', WORLD_NOT_FOUND);
  return view;
}

/** The user's part in a world, or 404 when the world is private and they have none. */
export async function worldAccess(db: DbExecutor, user: WorldUser, worldId: number): Promise<WorldAccess> {
  const role = (await getWorld(db, user, worldId)).role;
  if (role === null) throw new GameError('NOT_FOUND', WORLD_NOT_FOUND);
  return role;
}

/**
 * Instructors, co-instructors and site admins manage a world. Players of a private world get 403
 * (they know the world exists); everyone else 404.
 */
export async function requireInstructor(db: DbExecutor, user: WorldUser, worldId: number): Promise<WorldView> {
  const world = await getWorld(db, user, worldId);
  if (world.role !== 'instructor' && world.role !== 'co_instructor' && world.role !== 'admin') throw new GameError('FORBIDDEN', INSTRUCTORS_ONLY);
  return world;
}

export interface CreateWorldOptions {
  name: string;
  turnIntervalMinutes: number | null;
  startingCashDollars: number;
  bots: number;
  seed?: number;
  maxPlayers: number;
  /** Members a company may have (teams); 1 when absent. */
  teamSize?: number;
  /** A fork (db/src/game/worlds/fork.ts): its original, its week, its changes, and whether it is the caller's sandbox. */
  fork?: { fromWorldId: number; atWeek: number; changes: ForkChanges; sandbox: boolean };
}

/**
 * POST /api/worlds: a private world, its creator its instructor, its own market and bots (the first
 * `bots` of the seeded competitors), week 1. With an interval its clock starts now.
 */
export async function createWorld(db: DbExecutor, user: WorldUser, options: CreateWorldOptions): Promise<WorldView> {
  const worldId = await db.transaction(async (tx) => {
    if (!user.isAdmin) {
      // One creation at a time per user, so concurrent creations cannot pass the limit together.
      // Sandboxes have their own limit: a player's backtests never use up a teacher's worlds.
      await tx.execute(sql`select pg_advisory_xact_lock(${WORLD_CREATION_LOCK_KEY}, ${user.id}::int)`);
      const sandbox = options.fork?.sandbox === true;
      const [open] = await tx.execute<{ worlds: number }>(sql`
        select count(*)::int as worlds from worlds w join world_instructors i on i.world_id = w.id
        where i.user_id = ${user.id} and i.role = 'instructor' and w.kind = 'private' and w.status <> 'ended'
          and ${sandbox ? sql`w.sandbox_owner_user_id = ${user.id}` : sql`w.sandbox_owner_user_id is null`}`);
      if (sandbox && Number(open?.worlds ?? 0) >= MAX_OPEN_SANDBOXES_PER_PLAYER) throw new GameError('CONFLICT', TOO_MANY_SANDBOXES);
      if (!sandbox && Number(open?.worlds ?? 0) >= MAX_OPEN_WORLDS_PER_INSTRUCTOR) throw new GameError('CONFLICT', TOO_MANY_OPEN_WORLDS);
    }
    const fork = options.fork;
    const seed = options.seed ?? randomInt(1, 2_147_483_647);
    const nextTurnAt = options.turnIntervalMinutes === null ? null : new Date(Date.now() + options.turnIntervalMinutes * 60_000);
    let inserted: { id: number } | undefined;
    // A fresh code until it is unique (a collision is one in billions).
    for (let attempt = 0; attempt < 5 && !inserted; attempt += 1) {
      const rows = await tx.execute<{ id: number }>(sql`
        insert into worlds (name, kind, status, join_code, turn_interval_minutes, starting_cash_cents, max_players, team_size, bot_count,
                            created_by_user_id, current_week, next_turn_at, seed,
                            forked_from_world_id, forked_at_week, fork_changes, sandbox_owner_user_id)
        values (${options.name}, 'private', 'active', ${generateJoinCode()}, ${options.turnIntervalMinutes}, ${dollarsToCents(options.startingCashDollars)},
                ${options.maxPlayers}, ${options.teamSize ?? 1}, ${options.bots}, ${user.id}, 1, ${nextTurnAt ? nextTurnAt.toISOString() : null}::timestamptz, ${seed},
                ${fork?.fromWorldId ?? null}, ${fork?.atWeek ?? null}, ${fork ? JSON.stringify(fork.changes) : null}::jsonb, ${fork?.sandbox ? user.id : null})
        on conflict (join_code) do nothing
        returning id`);
      inserted = rows[0];
    }
    if (!inserted) throw new Error('Could not generate a unique join code');
    const id = Number(inserted.id);
    await tx.insert(worldInstructors).values({ worldId: id, userId: user.id, role: 'instructor' });
    await populateWorld(tx, id, { botCount: options.bots });
    // The world's first entry: what replay creates it from.
    await appendToLog(tx, [
      {
        worldId: id,
        companyId: null,
        actingUserId: user.id,
        action: 'createWorld',
        input: {
          name: options.name,
          seed,
          bots: options.bots,
          starting_cash_cents: dollarsToCents(options.startingCashDollars),
          max_players: options.maxPlayers,
          turn_interval_minutes: options.turnIntervalMinutes,
        },
        outcome: { applied: true, result: { world_id: id } },
      },
    ]);
    return id;
  });
  await analyzeNewWorld(db);
  return getWorld(db, user, worldId);
}

/**
 * The planner's statistics of the tables a new world just filled with thousands of rows (its
 * products and its city markets: 15,200 rows). Until autovacuum's next analyze, up to a minute
 * later, they described the worlds before it: the planner expected one row for the new world and
 * its first turns' store sales joined the city markets to the products row by row, 2.3 million
 * comparisons, 1-6 s of CPU a turn instead of about 30 ms (docs/benchmarks.md, "npm test's time").
 * After the commit, so the table's analyze lock is held for its own few tens of ms; a database user
 * that does not own the tables gets PostgreSQL's warning, not an error.
 */
async function analyzeNewWorld(db: DbExecutor): Promise<void> {
  await db.execute(sql`analyze ${worldProducts}, ${cityMarketData}`);
}

/**
 * POST /api/worlds/join: the world with this code gets a company for the user (the world's
 * starting cash), or with a team code a seat in that company's team (docs/classroom.md, "Teams");
 * `fillTeams` (a course system's launch) seats them in the first team with room before founding,
 * or with a team code (the course link's) in that team, and keeps a player's team as it is.
 * Joining a world one already plays in just answers the world (joining one's own team again too).
 * Unknown codes are counted by the caller (the rate limit): an unknown world code answers null, an
 * unknown team code throws TEAM_CODE_UNKNOWN; an ended or full world or team says so.
 */
export async function joinWorld(
  db: DbExecutor,
  user: WorldUser & { email: string },
  input: { code: string; companyName?: string; teamCode?: string; fillTeams?: boolean },
): Promise<WorldView | null> {
  const [world] = await db
    .select({ id: worlds.id })
    .from(worlds)
    // A sandbox's code (one drawn before codes were refused for sandboxes) is no code: joining would
    // found a company in a world that answers its player 404.
    .where(and(eq(worlds.joinCode, input.code), eq(worlds.kind, 'private'), isNull(worlds.sandboxOwnerUserId)));
  if (!world) return null;
  await db.transaction(async (tx) => {
    const locked = await lockPrivateWorld(tx, world.id);
    const teamWorld = { id: world.id, teamSize: Number(locked?.team_size ?? 1), currentWeek: Number(locked?.current_week ?? 1) };
    // Asked after the lock: a second join of the same user waits for the first and then sees its company.
    const current = await activeCompanyIdOf(tx, world.id, user.id);
    // A course launch of someone who already plays keeps their team (the instructor moves them).
    if (current !== null && input.fillTeams) return;
    if (input.teamCode) {
      if (locked?.status === 'ended') throw new GameError('CONFLICT', WORLD_ENDED);
      const team = await companyOfTeamCode(tx, world.id, input.teamCode);
      if (current === team) return;
      if (current !== null) throw new GameError('CONFLICT', ALREADY_IN_A_TEAM);
      await addTeamMember(tx, teamWorld, team, user.id);
      await logTeamMove(tx, world.id, user.id, 'joinTeam', { user_id: user.id, company_id: team, by: input.fillTeams ? 'course_link' : 'team_code' });
      return;
    }
    if (current !== null) return;
    if (input.fillTeams && locked?.status !== 'ended') {
      const team = await teamWithRoom(tx, teamWorld);
      if (team !== null) {
        await addTeamMember(tx, teamWorld, team, user.id);
        await logTeamMove(tx, world.id, user.id, 'joinTeam', { user_id: user.id, company_id: team, by: 'first_with_room' });
        return;
      }
    }
    const { startingCashCents } = await admitNewCompany(tx, world.id);
    const mode: SignupBonusMode = 'flat';
    await createPlayerCompany(tx, {
      worldId: world.id,
      userId: user.id,
      email: user.email,
      mode,
      name: input.companyName,
      startingCashCents,
    });
  });
  return getWorld(db, user, world.id);
}

/**
 * POST /api/company: a signed-in user without an active company (new, or after bankruptcy) founds
 * one with the flat starting capital (in a private world: the world's starting cash; 409 when that
 * world has ended or is full; 404 when they have no part in it). 409 when they already have an
 * active company.
 */
export async function foundCompany(
  db: DbExecutor,
  input: { worldId: number; userId: number; isAdmin: boolean; email: string; name?: string; mode?: SignupBonusMode; startingCashCents?: number | null },
): Promise<CompanyDetails> {
  const companyId = await db.transaction(async (tx) => {
    // A member of a team has a company too (theirs is the team's).
    if ((await activeCompanyIdOf(tx, input.worldId, input.userId)) !== null) throw new GameError('CONFLICT', 'You already have a company');
    // A private world's terms hold here too (joining is not the only way in): its starting cash, its
    // player limit, and nothing new once it has ended.
    const admitted = await admitNewCompany(tx, input.worldId);
    // Only those with a part in a private world found in it (its players, bankrupt ones included, and
    // its instructors): a student the instructor removed, whose session still points at the world,
    // must not come back without its join code (asked after the world's lock, as joins are).
    if (input.worldId !== PUBLIC_WORLD_ID) await worldAccess(tx, { id: input.userId, isAdmin: input.isAdmin }, input.worldId);
    try {
      const company = await createPlayerCompany(tx, {
        worldId: input.worldId,
        userId: input.userId,
        email: input.email,
        mode: input.mode ?? 'flat',
        name: input.name,
        startingCashCents: input.startingCashCents ?? admitted.startingCashCents,
      });
      return company.id;
    } catch (error) {
      if (isPostgresError(error, UNIQUE_VIOLATION)) throw new GameError('CONFLICT', 'You already have a company');
      throw error;
    }
  });
  return getCompany(db, companyId);
}

type LockedWorld = { status: string; max_players: number | null; starting_cash_cents: number | null; team_size: number; current_week: number };

/**
 * Locks a private world's row for the rest of the transaction: joins, re-foundings and ending the
 * world wait for each other, so the player limit and "ended" hold under concurrent requests.
 * Null for the public world, which is never locked here (a sign-up never waits for its turn).
 */
export async function lockPrivateWorld(tx: DbExecutor, worldId: number): Promise<LockedWorld | null> {
  const [row] = await tx.execute<LockedWorld>(
    sql`select status, max_players, starting_cash_cents, team_size, current_week from worlds where id = ${worldId} and kind = 'private' for update`,
  );
  return row ?? null;
}

/**
 * Whether a new player company may be founded in the world now, and with what cash (null: the
 * public world's sign-up bonus). Private worlds: 409 when ended or full, else the world's starting
 * cash. Runs inside the founding transaction and locks the world's row (lockPrivateWorld); the
 * players are counted in a statement after the lock, so it sees every company founded by those who
 * held the lock before (a statement's snapshot is taken when it starts, not when its lock is granted).
 */
async function admitNewCompany(tx: DbExecutor, worldId: number): Promise<{ startingCashCents: number | null }> {
  const world = await lockPrivateWorld(tx, worldId);
  if (!world) return { startingCashCents: null };
  if (world.status === 'ended') throw new GameError('CONFLICT', WORLD_ENDED);
  if (world.max_players !== null) {
    const [counted] = await tx.execute<{ players: number }>(
      sql`select count(*)::int as players from companies where world_id = ${worldId} and not is_bot and status = 'active'`,
    );
    if (Number(counted?.players ?? 0) >= Number(world.max_players)) throw new GameError('CONFLICT', WORLD_FULL);
  }
  return { startingCashCents: world.starting_cash_cents === null ? null : Number(world.starting_cash_cents) };
}

/** PUT /api/session/world: the world the session plays in (the header's switcher). */
export async function switchWorld(db: DbExecutor, user: WorldUser, sessionId: string, worldId: number): Promise<WorldView> {
  const world = await getWorld(db, user, worldId);
  await db
    .update(sessions)
    .set({ currentWorldId: worldId === PUBLIC_WORLD_ID ? null : worldId })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, user.id)));
  return world;
}

/**
 * A user removed from a private world (a student by the instructor, a co-instructor) who has no other
 * part in it any more: their sessions that were playing in it play in the public world again, so the
 * website shows them a world they can read rather than a class that answers 'World not found'.
 */
export async function sessionsLeaveWorld(db: DbExecutor, worldId: number, userId: number): Promise<void> {
  await db.execute(sql`
    update sessions set current_world_id = null
    where user_id = ${userId} and current_world_id = ${worldId}
      and not exists (select 1 from world_instructors i where i.world_id = ${worldId} and i.user_id = ${userId})
      and not ${playedInWorldSql(worldId, userId)}`);
}

/** POST /api/worlds/{id}/join-code: a new code; the old one stops working at once. */
export async function rotateJoinCode(db: DbExecutor, user: WorldUser, worldId: number): Promise<WorldView> {
  const world = await requireInstructor(db, user, worldId);
  if (world.kind !== 'private') throw new GameError('RULE_BROKEN', 'The public world has no join code');
  if (world.sandbox) throw new GameError('RULE_BROKEN', SANDBOX_ALONE);
  // Nobody joins an ended world, so a new code would only look like an invitation.
  if (world.status === 'ended') throw new GameError('CONFLICT', WORLD_ENDED);
  // A code another world already has is drawn again (the unique key decides).
  for (let attempt = 0; ; attempt += 1) {
    const code = generateJoinCode();
    const taken = await db.select({ id: worlds.id }).from(worlds).where(eq(worlds.joinCode, code));
    if (taken.length === 0 || attempt >= 5) {
      // Only while the world runs: an end that commits after the check above keeps its world closed.
      const rotated = await db
        .update(worlds)
        .set({ joinCode: code, updatedAt: new Date() })
        .where(and(eq(worlds.id, worldId), ne(worlds.status, 'ended')))
        .returning({ id: worlds.id });
      if (rotated.length === 0) throw new GameError('CONFLICT', WORLD_ENDED);
      break;
    }
  }
  return getWorld(db, user, worldId);
}

export interface WorldMember {
  user_id: number;
  email: string;
  role: WorldRole;
  /** Whether this is the caller (a co-instructor may leave: DELETE /api/worlds/{id}/co-instructors/{user_id}). */
  is_you: boolean;
}

/** The world's instructors and co-instructors. */
export async function listInstructors(db: DbExecutor, user: WorldUser, worldId: number): Promise<WorldMember[]> {
  await requireInstructor(db, user, worldId);
  return instructorsOf(db, user, worldId);
}

async function instructorsOf(db: DbExecutor, user: WorldUser, worldId: number): Promise<WorldMember[]> {
  const rows = await db
    .select({ userId: worldInstructors.userId, email: users.email, role: worldInstructors.role })
    .from(worldInstructors)
    .innerJoin(users, eq(users.id, worldInstructors.userId))
    .where(eq(worldInstructors.worldId, worldId))
    .orderBy(asc(worldInstructors.addedAt));
  return rows.map((row) => ({ user_id: row.userId, email: row.email, role: row.role as WorldRole, is_you: row.userId === user.id }));
}

const CO_INSTRUCTOR_NOT_FOUND = 'No co-instructor of this world has this id';
const OWNER_STAYS = "The world's instructor cannot be removed: end the world instead";
const ONLY_OWNER_REMOVES = "Only the world's instructor removes co-instructors; you can leave yourself";

/**
 * DELETE /api/worlds/{id}/co-instructors/{user_id}: the world's instructor (or a site admin)
 * removes a co-instructor, or a co-instructor leaves (anybody can be added by their email, so
 * anybody added must be able to go). The instructor who created the world stays. Answers the
 * instructors left (to a co-instructor who left: as they were when they left).
 */
export async function removeCoInstructor(db: DbExecutor, user: WorldUser, worldId: number, targetUserId: number): Promise<WorldMember[]> {
  const world = await requireInstructor(db, user, worldId);
  const [target] = await db
    .select({ role: worldInstructors.role })
    .from(worldInstructors)
    .where(and(eq(worldInstructors.worldId, worldId), eq(worldInstructors.userId, targetUserId)));
  if (!target) throw new GameError('NOT_FOUND', CO_INSTRUCTOR_NOT_FOUND);
  if (target.role !== 'co_instructor') throw new GameError('CONFLICT', OWNER_STAYS);
  const leaving = targetUserId === user.id;
  if (!leaving && world.role !== 'instructor' && world.role !== 'admin') throw new GameError('FORBIDDEN', ONLY_OWNER_REMOVES);
  await db.transaction(async (tx) => {
    await tx
      .delete(worldInstructors)
      .where(and(eq(worldInstructors.worldId, worldId), eq(worldInstructors.userId, targetUserId), eq(worldInstructors.role, 'co_instructor')));
    await sessionsLeaveWorld(tx, worldId, targetUserId);
  });
  return instructorsOf(db, user, worldId);
}

/** POST /api/worlds/{id}/co-instructors {email}: an existing account becomes a co-instructor. */
export async function addCoInstructor(db: DbExecutor, user: WorldUser, worldId: number, email: string): Promise<WorldMember[]> {
  if ((await requireInstructor(db, user, worldId)).sandbox) throw new GameError('RULE_BROKEN', SANDBOX_ALONE);
  const [target] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`);
  if (!target) throw new GameError('NOT_FOUND', 'No account uses this email: ask them to sign up first');
  await db.insert(worldInstructors).values({ worldId, userId: target.id, role: 'co_instructor' }).onConflictDoNothing();
  return listInstructors(db, user, worldId);
}
