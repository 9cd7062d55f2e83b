/**
 * Teams in class worlds (docs/classroom.md, "Teams"): the instructor's Teams panel (every team, its
 * members and roles; placing, moving and removing students; the team size is a world setting) and a
 * student's own team (its members, roles and team code; leaving it). A student sees their own team
 * only, never another team's members or code.
 */
import { sql } from 'drizzle-orm';
import { GameError, type TeamRole, type TeamsView, type TeamView } from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { activeCompanyIdOf } from '../companies/members.ts';
import { getWorld, lockPrivateWorld, sessionsLeaveWorld, type WorldUser } from './worlds.ts';
import { WORLD_ENDED } from '../clock/state.ts';
import { addTeamMember, logTeamMove, removeTeamMember, type TeamWorld } from './teamMembers.ts';

const PUBLIC_HAS_NO_TEAMS = 'The public world has no teams: everyone plays alone';
const NO_SUCH_ACCOUNT = 'No account uses this email: ask them to sign up first';
const NO_SUCH_TEAM = 'No team in this world has this company';
const NO_SUCH_MEMBER = 'No member of your team has this id';
const ONLY_LEAVE = 'You can leave your team, not remove a teammate: ask your instructor';
const LAST_MEMBER = "You are your team's last member: your company would have nobody left to run it. Ask your instructor to remove you";

type Caller = { manages: boolean; companyId: number | null; teamSize: number };

/** The caller's part: instructors (and site admins) manage every team; a player sees their own. 404 outside the world. */
async function callerIn(db: DbExecutor, user: WorldUser, worldId: number): Promise<Caller> {
  const world = await getWorld(db, user, worldId);
  if (world.kind !== 'private') throw new GameError('RULE_BROKEN', PUBLIC_HAS_NO_TEAMS);
  const manages = world.role === 'instructor' || world.role === 'co_instructor' || world.role === 'admin';
  return { manages, companyId: manages ? null : await activeCompanyIdOf(db, worldId, user.id), teamSize: world.team_size };
}

/** GET /api/worlds/{id}/teams: instructors every player company's team; a student their own (none: an empty list). */
export async function listTeams(db: DbExecutor, user: WorldUser, worldId: number): Promise<TeamsView> {
  const caller = await callerIn(db, user, worldId);
  return { team_size: caller.teamSize, teams: await teamsOf(db, user, worldId, caller) };
}

async function teamsOf(db: DbExecutor, user: WorldUser, worldId: number, caller: Caller): Promise<TeamView[]> {
  if (!caller.manages && caller.companyId === null) return [];
  const rows = await db.execute<{
    id: number;
    name: string;
    status: TeamView['status'];
    team_code: string | null;
    user_id: number | null;
    email: string | null;
    member_name: string | null;
    role: TeamRole | null;
    joined_week: number | null;
  }>(sql`
    select c.id, c.name, c.status, c.team_code, m.user_id, u.email, l.name as member_name, m.role, m.joined_week
    from companies c
    left join company_members m on m.world_id = c.world_id and m.company_id = c.id
    left join users u on u.id = m.user_id
    left join lti_users l on l.user_id = m.user_id
    where c.world_id = ${worldId} and not c.is_bot and (c.status = 'active' or m.user_id is not null)
      and ${caller.manages ? sql`true` : sql`c.id = ${caller.companyId}`}
    order by c.founded_at, c.id, m.joined_week, m.user_id`);
  const teams = new Map<number, TeamView>();
  for (const row of rows) {
    const id = Number(row.id);
    let team = teams.get(id);
    if (!team) {
      team = { company_id: id, company_name: row.name, status: row.status, team_code: row.team_code, members: [] };
      teams.set(id, team);
    }
    if (row.user_id === null) continue;
    team.members.push({
      user_id: Number(row.user_id),
      email: row.email ?? '',
      name: row.member_name,
      role: row.role,
      joined_week: Number(row.joined_week),
      is_you: Number(row.user_id) === user.id,
    });
  }
  return [...teams.values()];
}

/** The world locked for a move of its teams; 409 once it has ended. */
async function lockTeams(tx: DbExecutor, worldId: number): Promise<TeamWorld> {
  const world = await lockPrivateWorld(tx, worldId);
  if (!world) throw new GameError('RULE_BROKEN', PUBLIC_HAS_NO_TEAMS);
  if (world.status === 'ended') throw new GameError('CONFLICT', WORLD_ENDED);
  return { id: worldId, teamSize: Number(world.team_size), currentWeek: Number(world.current_week) };
}

/**
 * POST /api/worlds/{id}/teams/members {email, company_id, role?}: the instructor places a student
 * in a team, or moves them from theirs (their old company keeps running: removeTeamMember). 409
 * when the team is full.
 */
export async function assignTeamMember(
  db: DbExecutor,
  user: WorldUser,
  worldId: number,
  input: { email: string; companyId: number; role?: TeamRole | null },
): Promise<TeamsView> {
  const caller = await callerIn(db, user, worldId);
  if (!caller.manages) throw new GameError('FORBIDDEN', "Only this world's instructors can do that");
  await db.transaction(async (tx) => {
    const world = await lockTeams(tx, worldId);
    const [student] = await tx.execute<{ id: number }>(sql`select id from users where lower(email) = lower(${input.email})`);
    if (!student) throw new GameError('NOT_FOUND', NO_SUCH_ACCOUNT);
    const studentId = Number(student.id);
    const [team] = await tx.execute(sql`select 1 from companies where world_id = ${worldId} and id = ${input.companyId} and status = 'active' and not is_bot`);
    if (!team) throw new GameError('NOT_FOUND', NO_SUCH_TEAM);
    const current = await activeCompanyIdOf(tx, worldId, studentId);
    if (current === input.companyId) {
      if (input.role !== undefined) await setRole(tx, worldId, user.id, studentId, input.companyId, input.role);
      return;
    }
    if (current !== null) await removeTeamMember(tx, worldId, studentId);
    await addTeamMember(tx, world, input.companyId, studentId, input.role ?? null);
    await logTeamMove(tx, worldId, user.id, 'placeTeamMember', {
      user_id: studentId,
      company_id: input.companyId,
      from_company_id: current,
      role: input.role ?? null,
    });
  });
  return listTeams(db, user, worldId);
}

async function setRole(tx: DbExecutor, worldId: number, actingUserId: number, userId: number, companyId: number, role: TeamRole | null): Promise<void> {
  await tx.execute(sql`update company_members set role = ${role} where world_id = ${worldId} and user_id = ${userId}`);
  await logTeamMove(tx, worldId, actingUserId, 'setTeamRole', { user_id: userId, company_id: companyId, role });
}

/** The active team of a member of the world, or null. */
async function teamOfMember(db: DbExecutor, worldId: number, userId: number): Promise<number | null> {
  const [row] = await db.execute<{ company_id: number }>(sql`
    select m.company_id from company_members m
    join companies c on c.world_id = m.world_id and c.id = m.company_id and c.status = 'active'
    where m.world_id = ${worldId} and m.user_id = ${userId}`);
  return row ? Number(row.company_id) : null;
}

/** The member the caller may change: any member for instructors, a teammate (or themselves) for a student; else 404. */
async function memberInReach(db: DbExecutor, caller: Caller, worldId: number, userId: number): Promise<number> {
  const team = await teamOfMember(db, worldId, userId);
  if (team === null || (!caller.manages && team !== caller.companyId)) throw new GameError('NOT_FOUND', NO_SUCH_MEMBER);
  return team;
}

/** PATCH /api/worlds/{id}/teams/members/{user_id} {role}: the instructor or a teammate labels a member (null: no label). */
export async function updateTeamMember(db: DbExecutor, user: WorldUser, worldId: number, userId: number, role: TeamRole | null): Promise<TeamsView> {
  const caller = await callerIn(db, user, worldId);
  const team = await memberInReach(db, caller, worldId, userId);
  await db.transaction(async (tx) => {
    await lockTeams(tx, worldId);
    // A move of the same member that committed meanwhile: they are no longer in this team.
    if ((await teamOfMember(tx, worldId, userId)) !== team) throw new GameError('NOT_FOUND', NO_SUCH_MEMBER);
    await setRole(tx, worldId, user.id, userId, team, role);
  });
  return listTeams(db, user, worldId);
}

/**
 * DELETE /api/worlds/{id}/teams/members/{user_id}: the instructor removes a member, or a student
 * leaves their team (not the last member: their company would have nobody; the instructor can).
 * The company keeps running either way (removeTeamMember).
 */
export async function removeMemberFromTeam(db: DbExecutor, user: WorldUser, worldId: number, userId: number): Promise<TeamsView> {
  const caller = await callerIn(db, user, worldId);
  if (!caller.manages && userId !== user.id) throw new GameError('FORBIDDEN', ONLY_LEAVE);
  const team = await memberInReach(db, caller, worldId, userId);
  await db.transaction(async (tx) => {
    await lockTeams(tx, worldId);
    // Counted under the lock: two last-but-one members leaving at once cannot both go.
    if (!caller.manages) {
      const [row] = await tx.execute<{ members: number }>(
        sql`select count(*)::int as members from company_members where world_id = ${worldId} and company_id = ${team}`,
      );
      if (Number(row?.members ?? 0) <= 1) throw new GameError('CONFLICT', LAST_MEMBER);
    }
    // A move of the same member that committed meanwhile: they are no longer in this team.
    if ((await teamOfMember(tx, worldId, userId)) !== team) throw new GameError('NOT_FOUND', NO_SUCH_MEMBER);
    await removeTeamMember(tx, worldId, userId);
    await sessionsLeaveWorld(tx, worldId, userId);
    await logTeamMove(tx, worldId, user.id, 'removeTeamMember', { user_id: userId, company_id: team });
  });
  // A student who left is no longer in the world (they may join again with its code).
  if (!caller.manages) return { team_size: caller.teamSize, teams: [] };
  return listTeams(db, user, worldId);
}
