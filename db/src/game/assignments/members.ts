/**
 * Who a company's grades go to. Until teams land (issue 24, item 1) a company has one member, the
 * user who plays it, with the whole weight; teams replace this one function (members of a team,
 * their weight equal or by contribution) and every grade follows.
 */
import { sql, type SQL } from 'drizzle-orm';

/** (company_id, user_id, weight): the members of every player company of the world; weight 1 is the team's whole points. */
export function companyMembersSql(worldId: number): SQL {
  return sql`(select c.id as company_id, c.user_id, 1.0::numeric as weight
    from companies c where c.world_id = ${worldId}::int and not c.is_bot and c.user_id is not null)`;
}
