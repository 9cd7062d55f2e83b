/**
 * Phase 4, costs and taxes (docs/economy.md). Wages: employees x $50 per building. Operating
 * costs: the building type's weekly_operating_cost less cost_reduction research (capped at 50%).
 * Both may take cash below zero. Taxes: per country, the effective rate (tax_rate + active
 * tax_increase points - active tax_cut points, 0-100) on the positive profit the company made there
 * this turn (store revenue in that country's cities - wages - operating costs there). Subsidies:
 * each active subsidy pays its dollars per building to every company with buildings in the country.
 */
import { sql } from 'drizzle-orm';
import { MAX_REDUCTION_PERCENT, WAGE_PER_EMPLOYEE_WEEKLY_CENTS } from '@marketcraft/shared';
import type { TurnContext } from './context.ts';
import { researchEffect, researchJoins } from './research.ts';

export async function runCosts(ctx: TurnContext): Promise<void> {
  const { tx, week } = ctx;
  await tx.execute(sql`
    create temp table turn_costs on commit drop as
    select b.company_id, ci.country_id,
           sum(b.employees)::bigint as employees,
           count(*)::int as buildings,
           (sum(b.employees) * ${WAGE_PER_EMPLOYEE_WEEKLY_CENTS}::bigint)::bigint as wages_cents,
           -- integer rounding half up, per building: round(cost x (100 - cost_reduction) / 100)
           sum((bt.weekly_operating_cost_cents * (100 - least(${MAX_REDUCTION_PERCENT}::int, greatest(0, ${researchEffect('cost_reduction')}))) + 50) / 100)::bigint as operating_cents
    from buildings b
    join turn_companies tc on tc.company_id = b.company_id
    join building_types bt on bt.type = b.type
    join cities ci on ci.id = b.city_id
    ${researchJoins}
    group by b.company_id, ci.country_id`);

  await tx.execute(sql`
    insert into turn_pnl (company_id, country_id, wages_cents, operating_cents)
    select company_id, country_id, wages_cents, operating_cents from turn_costs`);
  await tx.execute(sql`
    insert into turn_cash (company_id, type, reason, amount_cents, description)
    select company_id, 'other', 'wages', -sum(wages_cents)::bigint, 'Wages: ' || sum(employees)::bigint || ' employees'
    from turn_costs group by company_id having sum(wages_cents) > 0
    union all
    select company_id, 'other', 'operating_costs', -sum(operating_cents)::bigint, 'Operating costs: ' || sum(buildings)::bigint || ' buildings'
    from turn_costs group by company_id having sum(operating_cents) > 0`);

  // Taxes on this turn's positive profit per country.
  await tx.execute(sql`
    create temp table turn_tax on commit drop as
    with rates as (
      select c.id as country_id, c.name,
             greatest(0, least(100, c.tax_rate + coalesce(sum(case e.event_type when 'tax_increase' then e.effect_value
                                                                         when 'tax_cut' then -e.effect_value else 0 end), 0)))::int as rate
      from countries c
      left join political_events e on e.country_id = c.id and e.started_week <= ${week}::int and e.active_until_week >= ${week}::int
                                   and e.event_type in ('tax_increase', 'tax_cut')
      group by c.id, c.name, c.tax_rate
    ), profit as (
      select company_id, country_id, sum(revenue_cents - wages_cents - operating_cents)::bigint as profit_cents
      from turn_pnl group by company_id, country_id
    )
    select p.company_id, p.country_id, r.name, r.rate, p.profit_cents,
           round(p.profit_cents::numeric * r.rate / 100)::bigint as tax_cents
    from profit p join rates r on r.country_id = p.country_id
    where p.profit_cents > 0 and r.rate > 0`);
  await tx.execute(sql`
    insert into turn_pnl (company_id, country_id, tax_cents)
    select company_id, country_id, tax_cents from turn_tax where tax_cents > 0`);
  await tx.execute(sql`
    insert into turn_cash (company_id, type, reason, amount_cents, description)
    select company_id, 'other', 'tax', -sum(tax_cents)::bigint,
           'Taxes: ' || string_agg(name || ' ' || rate || '%', ', ' order by name)
    from turn_tax where tax_cents > 0 group by company_id`);

  // Subsidies of active events: dollars per building in the country.
  await tx.execute(sql`
    create temp table turn_subsidy on commit drop as
    select tc.company_id, tc.country_id, (tc.buildings * sum(e.effect_value) * 100)::bigint as subsidy_cents, min(c.name) as name
    from turn_costs tc
    join political_events e on e.country_id = tc.country_id and e.event_type = 'subsidy'
                            and e.started_week <= ${week}::int and e.active_until_week >= ${week}::int and e.effect_value > 0
    join countries c on c.id = tc.country_id
    group by tc.company_id, tc.country_id, tc.buildings`);
  await tx.execute(sql`
    insert into turn_pnl (company_id, country_id, subsidy_cents)
    select company_id, country_id, subsidy_cents from turn_subsidy`);
  await tx.execute(sql`
    insert into turn_cash (company_id, type, reason, amount_cents, description)
    select company_id, 'other', 'subsidy', sum(subsidy_cents)::bigint, 'Subsidies: ' || string_agg(name, ', ' order by name)
    from turn_subsidy group by company_id having sum(subsidy_cents) > 0`);
}
