/**
 * What each building costs this week, as one query builder (the turn: every active company; the
 * building page's forecast: one company): wages (`wagesRule`, overtime above rate 100) and operating
 * costs (`operatingCostRule`: the type's cost less cost_reduction research, wear above rate 100, and
 * the overhead of the company's size). docs/economy.md, "Costs".
 *
 * Rows: (building_id, company_id, country_id, employees, wages_cents, operating_cents).
 */
import { sql, type SQL } from 'drizzle-orm';
import { operatingCostRule, wagesRule } from '@marketcraft/shared';
import { ruleSql } from '../../ruleSql.ts';
import { researchEffect, researchJoins } from '../research/researchPlan.ts';

export function buildingCostsSql(options: { worldId: number; companies: SQL; research: SQL }): SQL {
  return sql`(
    select b.id as building_id, b.company_id, ci.country_id, b.employees,
           ${ruleSql(wagesRule, { employees: sql`b.employees`, productionRate: sql`b.production_rate` })} as wages_cents,
           ${ruleSql(operatingCostRule, {
             typeCostCents: sql`bt.weekly_operating_cost_cents`,
             costReduction: researchEffect('cost_reduction'),
             productionRate: sql`b.production_rate`,
             companyBuildings: sql`count(*) over (partition by b.company_id)`,
           })} as operating_cents
    from buildings b
    join ${options.companies} scope on scope.company_id = b.company_id
    join building_types bt on bt.type = b.type
    join cities ci on ci.id = b.city_id
    ${researchJoins(options.research)}
    where b.world_id = ${options.worldId}::int
  )`;
}
