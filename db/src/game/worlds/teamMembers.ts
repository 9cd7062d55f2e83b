/**
 * The moves of a class world's teams (docs/classroom.md, "Teams"): a student joins a company's team,
 * is placed in one, or leaves it. Every caller holds the world's row locked (`for update`: joins,
 * re-foundings, the instructor's moves and the world's end wait for each other), so a team's seats
 * are counted once per move and concurrent joins of a full team admit at most its size.
 */
import { sql } from 'drizzle-orm';
import { GameError, type TeamRole } from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { appendToLog } from '../replay/log.ts';

export const TEAM_CODE_UNKNOWN = 'No team in this world has this team code';
const teamFullMessage = (size: number) => `This team is full: a team of this world has at most ${size} member${size === 1 ? '' : 's'}`;
export const ALREADY_IN_A_TEAM = 'You already play in this world: ask your instructor to move you to another team';

/** The world as a move reads it, under its lock. */
export interface TeamWorld {
  id: number;
  teamSize: number;
  currentWeek: number;
}

/**
 * The team moves the action log keeps (docs/replay.md): they change who acts for a company, not the
 * game's state (members are not in the state hash), but replay makes them again (replayTeamMove), so
 * a fork has the teams of its fork week. Logged with no acting company, so that no contribution
 * count or grade weight takes a move for an action of the team.
 */
export const TEAM_MOVES = ['joinTeam', 'placeTeamMember', 'removeTeamMember', 'setTeamRole'] as const;
export type TeamMove = (typeof TEAM_MOVES)[number];

/** A team move's entry in the world's log, as the last statement of the move's transaction (its commit order). */
export function logTeamMove(
  tx: DbExecutor,
  worldId: number,
  actingUserId: number,
  action: TeamMove,
  input: { user_id: number; company_id: number; [detail: string]: unknown },
): Promise<void> {
  return appendToLog(tx, [{ worldId, companyId: null, actingUserId, action, input, outcome: { applied: true } }]);
}

/** The members a company has now. */
async function seatsTaken(tx: DbExecutor, worldId: number, companyId: number): Promise<number> {
  const [row] = await tx.execute<{ members: number }>(
    sql`select count(*)::int as members from company_members where world_id = ${worldId} and company_id = ${companyId}`,
  );
  return Number(row?.members ?? 0);
}

/**
 * The user becomes a member of the company's team (their row in another team, active or not, moves
 * with them: the caller has taken them out of an active one first). 409 when the team is full. The
 * company answers for nobody yet (its last member left): the newcomer answers for it.
 */
export async function addTeamMember(tx: DbExecutor, world: TeamWorld, companyId: number, userId: number, role: TeamRole | null = null): Promise<void> {
  if ((await seatsTaken(tx, world.id, companyId)) >= world.teamSize) throw new GameError('CONFLICT', teamFullMessage(world.teamSize));
  await seatMember(tx, world.id, world.currentWeek, companyId, userId, role);
}

/** The user's seat in the company's team (moved from any other), and the company answers for them if it answered for nobody. */
async function seatMember(tx: DbExecutor, worldId: number, week: number, companyId: number, userId: number, role: TeamRole | null): Promise<void> {
  await tx.execute(sql`
    insert into company_members (world_id, user_id, company_id, role, joined_week)
    values (${worldId}, ${userId}, ${companyId}, ${role}, ${week})
    on conflict (world_id, user_id) do update set company_id = excluded.company_id, role = excluded.role, joined_week = excluded.joined_week`);
  await tx.execute(sql`update companies set user_id = ${userId} where world_id = ${worldId} and id = ${companyId} and user_id is null`);
}

/** A logged team move, its input with the target world's user and company (replay translates the original's). */
export interface TeamMoveAgain {
  action: TeamMove;
  userId: number;
  companyId: number;
  role: TeamRole | null;
  /** The rest of the logged input (`by`, `from_company_id`), kept in the entry as it was. */
  detail: Record<string, unknown>;
}

/**
 * A team move of a world's log made again in another world (replay, a fork: its teams are then those
 * of the week it replays to). As the move did it, without the team-size check (it was admitted then;
 * the world's team size may have changed since), and logged again, so a fork's log keeps its own
 * teams' history.
 */
export async function replayTeamMove(tx: DbExecutor, worldId: number, actingUserId: number | null, move: TeamMoveAgain): Promise<void> {
  const [world] = await tx.execute<{ current_week: number }>(sql`select current_week from worlds where id = ${worldId}`);
  const week = Number(world!.current_week);
  if (move.action === 'setTeamRole') {
    await tx.execute(sql`update company_members set role = ${move.role} where world_id = ${worldId} and user_id = ${move.userId}`);
  } else if (move.action === 'removeTeamMember') {
    await removeTeamMember(tx, worldId, move.userId);
  } else {
    // A placement moves the student out of their team first; a join has none (it is refused otherwise).
    if (move.action === 'placeTeamMember') await removeTeamMember(tx, worldId, move.userId);
    await seatMember(tx, worldId, week, move.companyId, move.userId, move.role);
  }
  const input = {
    ...move.detail,
    user_id: move.userId,
    company_id: move.companyId,
    ...(move.action === 'joinTeam' || move.action === 'removeTeamMember' ? {} : { role: move.role }),
  };
  await appendToLog(tx, [{ worldId, companyId: null, actingUserId, action: move.action, input, outcome: { applied: true } }]);
}

/**
 * The user leaves their team (nothing when they have none). The company keeps running: when they
 * answered for it, the member who joined first (then the lowest user id) answers for it now; the
 * last member leaving leaves it with nobody (`user_id` null) until someone joins by its team code
 * or the instructor places a student in it. Answers the company they left, or null.
 */
export async function removeTeamMember(tx: DbExecutor, worldId: number, userId: number): Promise<number | null> {
  const [left] = await tx.execute<{ company_id: number }>(
    sql`delete from company_members where world_id = ${worldId} and user_id = ${userId} returning company_id`,
  );
  const companyId = left ? Number(left.company_id) : null;
  // The company they answer for, even without a member row (founded before teams, or by a fixture).
  await tx.execute(sql`
    update companies c set user_id = (
      select m.user_id from company_members m where m.world_id = c.world_id and m.company_id = c.id order by m.joined_week, m.user_id limit 1)
    where c.world_id = ${worldId} and c.user_id = ${userId} and c.status = 'active'`);
  return companyId;
}

/** The active player company of the world with this team code, or 404. */
export async function companyOfTeamCode(tx: DbExecutor, worldId: number, teamCode: string): Promise<number> {
  const [row] = await tx.execute<{ id: number }>(
    sql`select id from companies where world_id = ${worldId} and team_code = ${teamCode} and status = 'active' and not is_bot`,
  );
  if (!row) throw new GameError('NOT_FOUND', TEAM_CODE_UNKNOWN);
  return Number(row.id);
}

/**
 * The team a learner launched from a course system joins (docs/classroom.md, "Teams"): the first
 * founded company of the world that has a member and room for one more; null when every team is
 * full (the learner founds a new one). With a team size of 1 nobody shares.
 */
export async function teamWithRoom(tx: DbExecutor, world: TeamWorld): Promise<number | null> {
  if (world.teamSize <= 1) return null;
  const [row] = await tx.execute<{ id: number }>(sql`
    select c.id from companies c
    join company_members m on m.world_id = c.world_id and m.company_id = c.id
    where c.world_id = ${world.id} and c.status = 'active' and not c.is_bot
    group by c.id, c.founded_at
    having count(*) < ${world.teamSize}
    order by c.founded_at, c.id
    limit 1`);
  return row ? Number(row.id) : null;
}
