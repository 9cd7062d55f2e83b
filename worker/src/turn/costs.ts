/**
 * Phase 3, costs and subsidies (docs/economy.md, "Costs"). What every building costs is
 * buildingCostsSql (db/src/game/buildings/costsPlan.ts: wages with overtime, operating costs with wear and
 * the overhead of size), the query a building's forecast runs too. Both are paid even when cash
 * goes below zero. Each active subsidy in a country pays its dollars per building the company owns
 * there.
 */
import { sql } from 'drizzle-orm';
import { buildingCostsSql } from '@marketcraft/db';
import type { TurnContext } from './context.ts';
import { fillTurnTable } from './turnTables.ts';
import { TURN_COMPANIES, TURN_RESEARCH } from './research.ts';

export async function runCosts(ctx: TurnContext): Promise<void> {
  const { tx, week, worldId } = ctx;
  await fillTurnTable(
    tx,
    'turn_costs',
    sql`select company_id, country_id, count(*)::int as buildings, sum(employees)::bigint as employees,
           sum(wages_cents)::bigint as wages_cents, sum(operating_cents)::bigint as operating_cents
    from ${buildingCostsSql({ worldId, companies: TURN_COMPANIES, research: TURN_RESEARCH })} c
    group by company_id, country_id`,
  );
  // Each company's wages and operating costs, summed once for its two ledger rows and its profit and loss.
  await tx.execute(sql`
    with by_company as materialized (
      select company_id, sum(wages_cents)::bigint as wages_cents, sum(employees)::bigint as employees,
             sum(operating_cents)::bigint as operating_cents, sum(buildings)::bigint as buildings
      from turn_costs group by company_id
    ), pnl as (
      insert into turn_pnl (company_id, wages_cents, operating_cents) select company_id, wages_cents, operating_cents from by_company
    )
    insert into turn_cash (company_id, type, reason, amount_cents, description)
    select company_id, 'other', 'wages', -wages_cents, 'Wages: ' || employees || ' employees'
    from by_company where wages_cents > 0
    union all
    select company_id, 'other', 'operating_costs', -operating_cents, 'Operating costs: ' || buildings || ' buildings'
    from by_company where operating_cents > 0`);

  // Subsidies of active events: dollars per building in the country.
  await fillTurnTable(
    tx,
    'turn_subsidy',
    sql`select tc.company_id, tc.country_id, (tc.buildings * sum(e.effect_value) * 100)::bigint as subsidy_cents, min(c.name) as name
    from turn_costs tc
    join political_events e on e.world_id = ${worldId}::int and e.country_id = tc.country_id and e.event_type = 'subsidy'
                            and e.started_week <= ${week}::int and e.active_until_week >= ${week}::int and e.effect_value > 0
    join countries c on c.id = tc.country_id
    group by tc.company_id, tc.country_id, tc.buildings`,
  );
  await tx.execute(sql`
    insert into turn_pnl (company_id, subsidy_cents)
    select company_id, sum(subsidy_cents)::bigint from turn_subsidy group by company_id`);
  await tx.execute(sql`
    insert into turn_cash (company_id, type, reason, amount_cents, description)
    select company_id, 'other', 'subsidy', sum(subsidy_cents)::bigint, 'Subsidies: ' || string_agg(name, ', ' order by name)
    from turn_subsidy group by company_id having sum(subsidy_cents) > 0`);
}
