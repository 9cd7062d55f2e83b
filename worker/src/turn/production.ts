/**
 * Phase 1, production (docs/economy.md, "Production"). What every building makes and uses is
 * productionPlanSql (db/src/game/buildings/productionPlan.ts), the same query the building page's forecast
 * runs; this phase applies it: inputs leave the warehouse, output enters it (at the product's posted
 * price as its unit cost), and each producing company gets one 'production' ledger row of $0
 * describing what it made.
 */
import { sql } from 'drizzle-orm';
import { productionPlanSql } from '@marketcraft/db';
import type { TurnContext } from './context.ts';
import { fillTurnTable, withoutNestedLoops } from './turnTables.ts';
import { TURN_COMPANIES, TURN_RESEARCH } from './research.ts';

export async function runProduction(ctx: TurnContext): Promise<void> {
  const { tx, worldId } = ctx;
  // Nested loops off for the plan: the planner cannot see how many inputs it needs (a CTE) and
  // would look each one up in the warehouse's index one by one; one hash join over the warehouse
  // is about a third cheaper at 10,000 companies (worker/bench/turn.ts --explain). The week
  // reports read the plan's rows per building (report.ts). Only the units that move are kept: a
  // building that made nothing, or an input it did not use (~a fifth of the plan's rows), changes
  // no stock and shows in no report.
  await withoutNestedLoops(tx, () =>
    fillTurnTable(
      tx,
      'turn_production',
      sql`select * from ${productionPlanSql({ worldId, companies: TURN_COMPANIES, research: TURN_RESEARCH })} plan where units > 0`,
    ),
  );
  await fillTurnTable(
    tx,
    'turn_stock_delta',
    sql`select company_id, product_id,
           sum(case when role = 'output' then units else 0 end)::bigint as produced,
           sum(case when role = 'input' then units else 0 end)::bigint as consumed
    from turn_production
    group by company_id, product_id`,
  );

  // One pass over the warehouse rows that exist (consumption always hits existing rows), then new rows.
  await tx.execute(sql`
    update inventory_items inv
    set quantity = inv.quantity - d.consumed + d.produced,
        average_cost_cents = case when d.produced > 0
          then coalesce(round(((inv.quantity - d.consumed) * inv.average_cost_cents + d.produced * p.current_price_cents)::numeric
                              / nullif(inv.quantity - d.consumed + d.produced, 0)), inv.average_cost_cents)
          else inv.average_cost_cents end
    from turn_stock_delta d join world_products p on p.world_id = ${worldId}::int and p.product_id = d.product_id
    where inv.world_id = ${worldId}::int and inv.company_id = d.company_id and inv.product_id = d.product_id`);
  await tx.execute(sql`
    insert into inventory_items (world_id, company_id, product_id, quantity, average_cost_cents)
    select ${worldId}::int, d.company_id, d.product_id, d.produced, p.current_price_cents
    from turn_stock_delta d join world_products p on p.world_id = ${worldId}::int and p.product_id = d.product_id
    where d.produced > 0
      and not exists (select 1 from inventory_items i where i.world_id = ${worldId}::int and i.company_id = d.company_id and i.product_id = d.product_id)`);

  await tx.execute(sql`
    insert into turn_cash (company_id, type, reason, amount_cents, description)
    select company_id, 'production', 'production', 0,
           'Produced ' || string_agg(units || ' ' || name, ', ' order by name)
    from (
      select d.company_id, p.name, d.produced as units
      from turn_stock_delta d join products p on p.id = d.product_id
      where d.produced > 0
    ) made
    group by company_id`);
}
