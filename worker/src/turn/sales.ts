/**
 * Phase 2, store sales (docs/economy.md, "Store sales"). What every shelf sells is storeSalesSql
 * (db/src/game/retail/salesPlan.ts: each city's demand for a product shared by the stores selling it),
 * the same query a store's forecast runs; this phase applies it: shelves are decremented,
 * units_sold_last_turn set, and each company gets one 'sale' ledger row for its store revenue.
 */
import { sql } from 'drizzle-orm';
import { storeSalesSql } from '@marketcraft/db';
import type { TurnContext } from './context.ts';
import { fillTurnTable, withoutNestedLoops } from './turnTables.ts';
import { TURN_COMPANIES, TURN_RESEARCH } from './research.ts';

export async function runSales(ctx: TurnContext): Promise<void> {
  const { tx, worldId } = ctx;
  // The shelves' joins in the order written (shelf, building, company, city, product, city market,
  // ...): searching the best order of its ten joins cost ~15 ms of planning, more than a class
  // world's whole sales (docs/benchmarks.md, 2026-12-07); at 3,000 companies the two orders cost the same.
  await tx.execute(sql`set local join_collapse_limit = 1`);
  await tx.execute(sql`set local from_collapse_limit = 1`);
  // Nested loops off: the planner expects a handful of offers from each CTE (it cannot count them)
  // and would join the shelves that did not sell (60,000 at 10,000 companies) to the stores that did
  // one pair at a time; hash joins read each side once.
  await withoutNestedLoops(tx, () =>
    fillTurnTable(
      tx,
      'turn_sales',
      sql`select * from ${storeSalesSql({ worldId, companies: TURN_COMPANIES, research: TURN_RESEARCH, sellingOnly: true })} s
      where s.units > 0`,
    ),
  );
  await tx.execute(sql`set local join_collapse_limit to default`);
  await tx.execute(sql`set local from_collapse_limit to default`);
  // One update per shelf row that changes: sold this week, or sold last week and not this week (reset to 0).
  await tx.execute(sql`
    update store_products sp set quantity = sp.quantity - c.units, units_sold_last_turn = c.units
    from (
      select store_product_id, units from turn_sales
      union all
      select sp0.id, 0::bigint from store_products sp0
      where sp0.world_id = ${worldId}::int and sp0.units_sold_last_turn <> 0 and not exists (select 1 from turn_sales s where s.store_product_id = sp0.id)
    ) c
    where sp.world_id = ${worldId}::int and c.store_product_id = sp.id`);

  await tx.execute(sql`
    insert into turn_cash (company_id, type, reason, amount_cents, description)
    select company_id, 'sale', 'store_sales', sum(revenue_cents)::bigint,
           'Store sales: ' || sum(units)::bigint || ' units from ' || count(*) || case count(*) when 1 then ' shelf' else ' shelves' end
    from turn_sales group by company_id having sum(revenue_cents) > 0`);

  await tx.execute(sql`
    insert into turn_pnl (company_id, store_revenue_cents)
    select company_id, sum(revenue_cents)::bigint from turn_sales group by company_id`);
}
