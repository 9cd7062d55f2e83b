/**
 * Who a company's grades go to, and with what weight (docs/classroom.md, "How grades are computed"):
 * the members of its team (company_members; a company without members, e.g. in the public world,
 * its player). Weight 1 gives a member the team's whole points ('equal'); with 'contribution' a
 * member's weight is their share of the team's applied actions times the team's size, at most 1
 * (an equal share or more: full points; half an equal share: half), from the action log as the
 * contributions view counts them; a team that took no action weighs everyone 1.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { TeamWeighting } from '@marketcraft/shared';

/** (company_id, user_id, weight): the members of every player company of the world. */
export function companyMembersSql(worldId: number, weighting: TeamWeighting): SQL {
  const members = sql`
    select m.company_id, m.user_id from company_members m where m.world_id = ${worldId}::int
    union
    select c.id, c.user_id from companies c
    where c.world_id = ${worldId}::int and not c.is_bot and c.user_id is not null
      and not exists (select 1 from company_members m where m.world_id = c.world_id and m.company_id = c.id)`;
  if (weighting === 'equal') return sql`(select company_id, user_id, 1.0::numeric as weight from (${members}) members)`;
  return sql`(
    with members as (${members}),
    acted as (
      select a.company_id, a.acting_user_id as user_id, count(*)::numeric as actions
      from world_actions a
      where a.world_id = ${worldId}::int and a.acting_user_id is not null and not a.by_turn and (a.outcome ->> 'applied')::boolean
      group by a.company_id, a.acting_user_id
    ),
    teams as (
      select m.company_id, count(*)::numeric as size, coalesce(sum(a.actions), 0) as actions
      from members m left join acted a on a.company_id = m.company_id and a.user_id = m.user_id
      group by m.company_id
    )
    select m.company_id, m.user_id,
           case when t.actions = 0 then 1.0 else least(1.0, coalesce(a.actions, 0) * t.size / t.actions) end as weight
    from members m
    join teams t on t.company_id = m.company_id
    left join acted a on a.company_id = m.company_id and a.user_id = m.user_id)`;
}
