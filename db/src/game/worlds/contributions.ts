/**
 * GET /api/worlds/{id}/contributions (docs/classroom.md, "Contributions"): for the instructor, each
 * team member's share of the team's actions and a week-by-week timeline, read from the action log
 * (`world_actions`: every action a member took through the action door, and their founding, with
 * the member who took it). Counted: the entries of the world's player companies with an acting
 * user, not the turn's; an applied action counts, a refused one is shown apart. A member who left
 * keeps what they did for the team.
 */
import { sql } from 'drizzle-orm';
import { GameError, type ContributionsView } from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { INSTRUCTORS_ONLY, requireInstructor, type WorldUser } from './worlds.ts';

type Team = ContributionsView['teams'][number];
type Member = Team['members'][number];

/** Their applied actions as a percent of the team's, one decimal (0 when the team took none). */
function sharePercent(actions: number, teamActions: number): number {
  return teamActions === 0 ? 0 : Math.round((1000 * actions) / teamActions) / 10;
}

export async function worldContributions(db: DbExecutor, user: WorldUser, worldId: number): Promise<ContributionsView> {
  const world = await requireInstructor(db, user, worldId);
  if (world.kind !== 'private') throw new GameError('FORBIDDEN', INSTRUCTORS_ONLY);
  // The teams (player companies) with their current members, in founding order.
  const teamRows = await db.execute<{ id: number; name: string; user_id: number | null; email: string | null; member_name: string | null }>(sql`
    select c.id, c.name, m.user_id, u.email, l.name as member_name
    from companies c
    left join company_members m on m.world_id = c.world_id and m.company_id = c.id
    left join users u on u.id = m.user_id
    left join lti_users l on l.user_id = m.user_id
    where c.world_id = ${worldId} and not c.is_bot
    order by c.founded_at, c.id, m.joined_week, m.user_id`);
  // What each member did for each team, per week.
  const counted = await db.execute<{
    company_id: number;
    user_id: number;
    email: string | null;
    member_name: string | null;
    week: number;
    applied: number;
    refused: number;
  }>(sql`
    select a.company_id, a.acting_user_id as user_id, u.email, l.name as member_name, a.week,
           count(*) filter (where (a.outcome ->> 'applied')::boolean)::int as applied,
           count(*) filter (where not (a.outcome ->> 'applied')::boolean)::int as refused
    from world_actions a
    join companies c on c.world_id = a.world_id and c.id = a.company_id and not c.is_bot
    left join users u on u.id = a.acting_user_id
    left join lti_users l on l.user_id = a.acting_user_id
    where a.world_id = ${worldId} and a.acting_user_id is not null and not a.by_turn
    group by a.company_id, a.acting_user_id, u.email, l.name, a.week
    order by a.company_id, a.week, a.acting_user_id`);

  const teams = new Map<number, Team>();
  const memberOf = (team: Team, userId: number, email: string | null, name: string | null, isMember: boolean): Member => {
    let member = team.members.find((candidate) => candidate.user_id === userId);
    if (!member) {
      member = { user_id: userId, email: email ?? '', name, is_member: isMember, actions: 0, refused: 0, share_percent: 0 };
      team.members.push(member);
    }
    return member;
  };
  for (const row of teamRows) {
    const id = Number(row.id);
    let team = teams.get(id);
    if (!team) {
      team = { company_id: id, company_name: row.name, actions: 0, members: [], timeline: [] };
      teams.set(id, team);
    }
    if (row.user_id !== null) memberOf(team, Number(row.user_id), row.email, row.member_name, true);
  }
  for (const row of counted) {
    const team = teams.get(Number(row.company_id));
    if (!team) continue;
    const member = memberOf(team, Number(row.user_id), row.email, row.member_name, false);
    const applied = Number(row.applied);
    member.actions += applied;
    member.refused += Number(row.refused);
    team.actions += applied;
    if (applied === 0) continue;
    const week = Number(row.week);
    let point = team.timeline.at(-1);
    if (point?.week !== week) {
      point = { week, actions: [] };
      team.timeline.push(point);
    }
    point.actions.push({ user_id: member.user_id, actions: applied });
  }
  for (const team of teams.values()) {
    for (const member of team.members) member.share_percent = sharePercent(member.actions, team.actions);
  }
  return { teams: [...teams.values()] };
}
