/**
 * What the turn records of its week for the open data files (docs/open-data.md), from the tables
 * its phases left: every company as the books closed (the turn's companies with their cash after
 * the books, their valuation turn_valuation, the share records after the stock phase) and the stores' sales
 * (turn_sales). Two rows per world and week of parallel arrays: the turn writes no row per company,
 * so recording costs a few aggregates (worker/bench/turn.ts prints it as the phase `data`). The
 * files themselves are made from these rows on first request (files.ts).
 *
 * Everything else the files need is recorded already: product_price_history (posted prices),
 * market_activity (units bought and sold), the catalogue (names, depths, price levels).
 *
 * Runs inside the turn's transaction, after the week report and before the bots' moves.
 */
import { sql } from 'drizzle-orm';
import type { DbExecutor } from '../../client.ts';

export async function recordWeekForOpenData(tx: DbExecutor, worldId: number, week: number): Promise<void> {
  // Ranked as the week report ranks (runReport): net worth after the turn among the companies
  // still active, richest first, ties by id.
  await tx.execute(sql`
    insert into week_company_figures (
      world_id, week, company_ids, names, is_bots, strategies, statuses, ranks, cash_cents, net_worth_cents,
      listed, share_price_cents, total_shares, book_value_cents, dividend_per_share_cents, shares_bought, shares_sold)
    select ${worldId}::int, ${week}::int,
           coalesce(array_agg(f.company_id), '{}'), coalesce(array_agg(f.name), '{}'), coalesce(array_agg(f.is_bot), '{}'),
           coalesce(array_agg(f.strategy), '{}'), coalesce(array_agg(f.status), '{}'), coalesce(array_agg(f.rank), '{}'),
           coalesce(array_agg(f.cash_cents), '{}'), coalesce(array_agg(f.net_worth_cents), '{}'), coalesce(array_agg(f.listed), '{}'),
           coalesce(array_agg(f.share_price_cents), '{}'), coalesce(array_agg(f.total_shares), '{}'), coalesce(array_agg(f.fundamental_cents), '{}'),
           coalesce(array_agg(f.last_dividend_cents), '{}'), coalesce(array_agg(f.week_bought), '{}'), coalesce(array_agg(f.week_sold), '{}')
    from (
      select tc.company_id, c.name, c.is_bot, c.strategy, c.status, c.cash_cents, coalesce(v.net_worth_cents, 0)::bigint as net_worth_cents,
             case when c.status = 'active'
                  then (row_number() over (partition by c.status = 'active' order by coalesce(v.net_worth_cents, 0) desc, tc.company_id))::int end as rank,
             coalesce(s.is_listed, false) as listed, coalesce(s.share_price_cents, 0)::bigint as share_price_cents,
             coalesce(s.total_shares, 0)::bigint as total_shares, coalesce(s.fundamental_cents, 0)::bigint as fundamental_cents,
             coalesce(s.last_dividend_cents, 0)::bigint as last_dividend_cents,
             coalesce(s.week_bought, 0)::bigint as week_bought, coalesce(s.week_sold, 0)::bigint as week_sold
      from turn_companies tc
      join companies c on c.world_id = ${worldId}::int and c.id = tc.company_id
      left join turn_valuation v on v.company_id = tc.company_id
      left join share_records s on s.world_id = ${worldId}::int and s.company_id = tc.company_id
      -- One order for every array (each aggregate reads the rows in this order).
      order by tc.company_id
    ) f`);
  // The week's gross share volumes are recorded: the next week counts from zero.
  await tx.execute(sql`
    update share_records set week_bought = 0, week_sold = 0
    where world_id = ${worldId}::int and (week_bought <> 0 or week_sold <> 0)`);
  await tx.execute(sql`
    insert into week_city_sales (world_id, week, city_ids, product_ids, stores, units, revenue_cents)
    select ${worldId}::int, ${week}::int, coalesce(array_agg(g.city_id), '{}'), coalesce(array_agg(g.product_id), '{}'),
           coalesce(array_agg(g.stores), '{}'), coalesce(array_agg(g.units), '{}'), coalesce(array_agg(g.revenue_cents), '{}')
    from (
      select city_id, product_id, count(distinct building_id)::int as stores, sum(units)::bigint as units, sum(revenue_cents)::bigint as revenue_cents
      from turn_sales group by city_id, product_id order by city_id, product_id
    ) g`);
}
