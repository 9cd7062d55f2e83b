/**
 * The week reports ("Week N results", docs/web.md): after the books, one insert writes each player
 * company's report of the processed week from what the phases left in their temporary tables
 * (turn_sales, turn_production, turn_pnl, turn_profit, turn_dividend_payments, turn_valuation) and
 * from the week's ledger, research and political events. Nothing is recomputed: every figure is the
 * one the turn applied. Bots get no report (nobody reads them); they are ranked all the same.
 *
 * Speed (npm run bench:turn, 1,000 player companies with 10 buildings): the long lists (sales,
 * production, cash flows) are parallel arrays and no list is sorted per company here (the read sorts
 * them): jsonb objects with ordered aggregates made this phase ~0.8 s. Each list is aggregated
 * for every company of the turn and only the final join keeps the players': joined to the players
 * inside each aggregate, the week's ledger (planned from statistics taken before the turn wrote
 * its rows: 5 rows expected, 60,000 read at 10,000 companies) cost more to join than to group.
 * The few bots' groups are built and dropped. The countries a player has buildings in come from
 * the costs phase (turn_costs), not from every building again (docs/turn.md).
 *
 * - cash at start = cash at end - every ledger row of the week (the player's moves between turns
 *   and the turn's rows): the ledger is the only record of cash changes, so the two always agree;
 * - rank = place on the leaderboard (net worth after the turn, richest first, ties by company id,
 *   as listCompanies orders it) among the companies still active; rank_before = last report's rank;
 * - events = political events of the countries where the company has buildings, or that its own
 *   lobbying won, active during the week or announced by this turn (elections included).
 */
import { sql } from 'drizzle-orm';
import type { TurnContext } from './context.ts';

export async function runReport(ctx: TurnContext): Promise<void> {
  const { tx, week, worldId } = ctx;
  await tx.execute(sql`
    insert into week_reports (
      world_id, company_id, week, cash_start_cents, cash_end_cents, net_worth_cents, profit_cents,
      store_revenue_cents, market_sales_cents, market_purchases_cents, wages_cents, operating_cents, subsidy_cents, tax_cents,
      dividends_received_cents, dividends_paid_cents, rank, rank_before, companies_ranked,
      sale_building_ids, sale_city_ids, sale_product_ids, sale_units, sale_revenue_cents,
      production_building_ids, production_building_types, production_city_ids, production_product_ids, production_made, production_units,
      cash_flow_types, cash_flow_reasons, cash_flow_amounts_cents, cash_flow_lines, dividends_received, research, events)
    with players as (
      -- active: not bankrupt by this turn (a bankrupt company's buildings are gone)
      select tc.company_id, c.cash_cents, c.status = 'active' as active
      from turn_companies tc join companies c on c.world_id = ${worldId}::int and c.id = tc.company_id where not c.is_bot
    ), ranked as (
      select v.company_id, v.net_worth_cents,
             row_number() over (order by v.net_worth_cents desc, v.company_id)::int as rank,
             count(*) over ()::int as companies_ranked
      from turn_valuation v join companies c on c.world_id = ${worldId}::int and c.id = v.company_id
      where c.status = 'active'
    ), pnl as (
      select t.company_id, sum(t.store_revenue_cents)::bigint as store_revenue_cents, sum(t.market_sales_cents)::bigint as market_sales_cents,
             sum(t.market_purchases_cents)::bigint as market_purchases_cents, sum(t.wages_cents)::bigint as wages_cents,
             sum(t.operating_cents)::bigint as operating_cents, sum(t.subsidy_cents)::bigint as subsidy_cents, sum(t.tax_cents)::bigint as tax_cents
      from turn_pnl t group by t.company_id
    ), ledger as (
      select t.company_id, t.type, t.reason, sum(t.amount_cents)::bigint as amount_cents, count(*)::int as lines
      from transactions t
      where t.world_id = ${worldId}::int and t.week = ${week}::int
      group by t.company_id, t.type, t.reason
    ), flows as (
      select company_id, sum(amount_cents)::bigint as total_cents,
             array_agg(type) as types, array_agg(reason) as reasons, array_agg(amount_cents) as amounts, array_agg(lines) as lines
      from ledger group by company_id
    ), sales as (
      -- Parallel arrays (one element per shelf line): within a group every aggregate sees the rows in the same order.
      select s.company_id, array_agg(s.building_id) as building_ids, array_agg(s.city_id) as city_ids, array_agg(s.product_id) as product_ids,
             array_agg(s.units::bigint) as units, array_agg(s.revenue_cents::bigint) as revenue_cents
      from turn_sales s
      group by s.company_id
    ), production as (
      select m.company_id, array_agg(m.building_id) as building_ids, array_agg(m.building_type) as building_types,
             array_agg(m.city_id) as city_ids, array_agg(m.product_id) as product_ids,
             array_agg(m.role = 'output') as made, array_agg(m.units::bigint) as units
      from turn_production m
      group by m.company_id
    ), received as (
      select d.holder_company_id as company_id, sum(d.amount_cents)::bigint as total_cents,
             jsonb_agg(jsonb_build_object('company_id', d.payer_id, 'company', d.payer_name, 'shares', d.shares_owned, 'amount_cents', d.amount_cents)
                       order by d.amount_cents desc, d.payer_id) as items
      from turn_dividend_payments d
      group by d.holder_company_id
    ), paid as (
      select d.payer_id as company_id, sum(d.amount_cents)::bigint as total_cents
      from turn_dividend_payments d group by d.payer_id
    ), research as (
      select r.company_id, jsonb_agg(jsonb_build_object('upgrade_id', u.id, 'name', u.name) order by u.tier, u.id) as items
      from company_research r join research_upgrades u on u.id = r.upgrade_id
      where r.world_id = ${worldId}::int and r.researched_week = ${week}::int
      group by r.company_id
    ), week_events as (
      select e.id, e.country_id, e.beneficiary_company_id from political_events e
      where e.world_id = ${worldId}::int and e.started_week <= ${week + 1}::int and e.active_until_week >= ${week}::int
    ), touched as (
      -- the countries where each player has buildings: the costs phase counted them per country
      -- (turn_costs: every building of the turn's companies), not read again from every building
      select b.company_id, e.id
      from turn_costs b
      join players p on p.company_id = b.company_id and p.active
      join week_events e on e.country_id = b.country_id
      union
      select e.beneficiary_company_id, e.id from week_events e join players p on p.company_id = e.beneficiary_company_id
    ), events as (
      select t.company_id,
             jsonb_agg(jsonb_build_object('id', e.id, 'country', co.name, 'event_type', e.event_type, 'description', e.description,
                                          'started_week', e.started_week, 'active_until_week', e.active_until_week,
                                          'yours', coalesce(e.beneficiary_company_id = t.company_id, false))
                       order by e.started_week, e.id) as items
      from touched t join political_events e on e.world_id = ${worldId}::int and e.id = t.id join countries co on co.id = e.country_id
      group by t.company_id
    )
    select ${worldId}::int, p.company_id, ${week}::int, p.cash_cents - coalesce(f.total_cents, 0), p.cash_cents,
           coalesce(v.net_worth_cents, 0), coalesce(tp.profit_cents, 0),
           coalesce(n.store_revenue_cents, 0), coalesce(n.market_sales_cents, 0), coalesce(n.market_purchases_cents, 0),
           coalesce(n.wages_cents, 0), coalesce(n.operating_cents, 0), coalesce(n.subsidy_cents, 0), coalesce(n.tax_cents, 0),
           coalesce(rc.total_cents, 0), coalesce(pd.total_cents, 0),
           r.rank, before.rank, (select count(*) from ranked)::int,
           coalesce(s.building_ids, '{}'), coalesce(s.city_ids, '{}'), coalesce(s.product_ids, '{}'), coalesce(s.units, '{}'), coalesce(s.revenue_cents, '{}'),
           coalesce(m.building_ids, '{}'), coalesce(m.building_types, '{}'), coalesce(m.city_ids, '{}'), coalesce(m.product_ids, '{}'),
           coalesce(m.made, '{}'), coalesce(m.units, '{}'),
           coalesce(f.types, '{}'), coalesce(f.reasons, '{}'), coalesce(f.amounts, '{}'), coalesce(f.lines, '{}'), coalesce(rc.items, '[]'),
           coalesce(rs.items, '[]'), coalesce(ev.items, '[]')
    from players p
    left join turn_valuation v on v.company_id = p.company_id
    left join turn_profit tp on tp.company_id = p.company_id
    left join ranked r on r.company_id = p.company_id
    left join week_reports before on before.world_id = ${worldId}::int and before.company_id = p.company_id and before.week = ${week - 1}::int
    left join pnl n on n.company_id = p.company_id
    left join flows f on f.company_id = p.company_id
    left join sales s on s.company_id = p.company_id
    left join production m on m.company_id = p.company_id
    left join received rc on rc.company_id = p.company_id
    left join paid pd on pd.company_id = p.company_id
    left join research rs on rs.company_id = p.company_id
    left join events ev on ev.company_id = p.company_id`);
}
