/**
 * Phase 6, bankruptcy (docs/economy.md, "Bankruptcy"). A company ending the turn with negative cash
 * counts one more negative turn (reset to 0 otherwise); at BANKRUPTCY_TURNS (4) it goes bankrupt:
 * - its goods (warehouse, shelves, back rooms) are sold on the exchange like any sale
 *   (marketSellProceedsRule, walking each product's curve from this week's flow; bankrupt companies
 *   in id order), and the units count in this week's market flow, so the dump moves the price;
 * - the shares it holds are sold back to their issuers at what selling them pays
 *   (liquidationValueRule on the issuer's curve), when the issuer's cash covers all it must buy
 *   back; otherwise they are cancelled without payment (the issuer's other owners gain);
 * - its buildings are closed, its own shares are delisted (holders lose them), and its status
 *   becomes 'bankrupt'. Its player may found a new company.
 * Its open exchange orders are cancelled first, with what they hold given back (docs/exchange.md).
 * Money: one 'liquidation' credit for the goods and shares, 'share_buyback' debits for issuers.
 */
import { sql } from 'drizzle-orm';
import { BANKRUPTCY_TURNS, marketSellProceedsRule } from '@marketcraft/shared';
import { positionValueCentsSql, ruleSql, worldProductsSql } from '@marketcraft/db';
import type { TurnContext } from './context.ts';
import { turnBalancesSql } from './ledgerBatch.ts';
import { releaseToCompanies, returnContractGoods } from './exchange.ts';

export async function runBankruptcy(ctx: TurnContext): Promise<number[]> {
  const { tx, week, worldId } = ctx;
  await tx.execute(sql`
    update companies c set negative_cash_turns = case when tc.cash_cents < 0 then c.negative_cash_turns + 1 else 0 end
    from ${turnBalancesSql} tc
    where c.world_id = ${worldId}::int and tc.company_id = c.id and (tc.cash_cents < 0 or c.negative_cash_turns <> 0)`);
  const bankrupt = await tx.execute<{ id: number }>(sql`
    select c.id from companies c join turn_companies tc on tc.company_id = c.id
    where c.world_id = ${worldId}::int and c.negative_cash_turns >= ${BANKRUPTCY_TURNS}::int order by c.id`);
  const ids = bankrupt.map((row) => Number(row.id));
  if (ids.length === 0) return ids;
  await tx.execute(sql`create temp table turn_bankrupt on commit drop as select unnest(${`{${ids.join(',')}}`}::int[]) as company_id`);
  // Its open exchange orders are cancelled first and what they hold comes back (cash to its
  // balance, goods to its warehouse), so the liquidation below sells what it really owns.
  await tx.execute(sql`
    create temp table turn_bankrupt_orders on commit drop as
    with old as (
      select o.id, o.escrow_cents, o.escrow_units from exchange_orders o join turn_bankrupt tb on tb.company_id = o.company_id
      where o.world_id = ${worldId}::int and o.status in ('open', 'partially_filled')
    ), closed as (
      update exchange_orders o set status = 'cancelled', escrow_cents = 0, escrow_units = 0, closed_week = ${week}::int
      from old where o.world_id = ${worldId}::int and o.id = old.id
      returning o.id, o.company_id, o.product_id, o.side, old.escrow_cents, old.escrow_units, o.escrow_cost_cents
    )
    select closed.*, p.name as product_name from closed join products p on p.id = closed.product_id`);
  await releaseToCompanies(ctx, 'turn_bankrupt_orders', 'cancelled: bankruptcy');
  // Its open contract offers, made or received, are cancelled: the goods go back to their seller.
  await tx.execute(sql`
    create temp table turn_bankrupt_contracts on commit drop as
    with closed as (
      update contracts k set status = 'cancelled', closed_week = ${week}::int
      where k.world_id = ${worldId}::int and k.status = 'open'
        and (k.seller_company_id in (select company_id from turn_bankrupt) or k.buyer_company_id in (select company_id from turn_bankrupt))
      returning k.id, k.seller_company_id, k.buyer_company_id, k.product_id, k.quantity, k.escrow_cost_cents
    )
    select closed.*, p.name as product_name from closed join products p on p.id = closed.product_id`);
  await returnContractGoods(ctx, 'turn_bankrupt_contracts', 'cancelled: bankruptcy');

  // Goods, sold on the exchange one company after another per product.
  await tx.execute(sql`
    create temp table turn_liquidation on commit drop as
    with held as (
      select company_id, product_id, sum(quantity)::bigint as quantity
      from (
        select i.company_id, i.product_id, i.quantity from inventory_items i join turn_bankrupt tb on tb.company_id = i.company_id
        where i.world_id = ${worldId}::int
        union all
        select b.company_id, sp.product_id, sp.quantity from store_products sp join buildings b on b.world_id = sp.world_id and b.id = sp.building_id
        join turn_bankrupt tb on tb.company_id = b.company_id
        where sp.world_id = ${worldId}::int
        union all
        select b.company_id, bi.product_id, bi.quantity from building_inventory_items bi join buildings b on b.world_id = bi.world_id and b.id = bi.building_id
        join turn_bankrupt tb on tb.company_id = b.company_id
        where bi.world_id = ${worldId}::int
      ) stock
      where quantity > 0
      group by company_id, product_id
    ), walked as (
      select h.*, p.current_price_cents, p.depth_units,
             coalesce(ma.units_bought - ma.units_sold, 0)
               - coalesce(sum(h.quantity) over (partition by h.product_id order by h.company_id rows between unbounded preceding and 1 preceding), 0) as flow_before
      from held h
      join ${worldProductsSql(worldId)} p on p.id = h.product_id
      left join market_activity ma on ma.world_id = ${worldId}::int and ma.product_id = h.product_id and ma.week = ${week}::int
    )
    -- A flow or an order beyond 10 depths adds nothing to the proceeds (e^-10) and would overflow exp: clamped.
    select company_id, product_id, quantity,
           ${ruleSql(marketSellProceedsRule, {
             price: sql`current_price_cents`,
             depth: sql`depth_units`,
             flow: sql`least(greatest(flow_before, -10 * depth_units), 10 * depth_units)`,
             quantity: sql`least(quantity, 10 * depth_units)`,
           })} as proceeds_cents
    from walked`);
  await tx.execute(sql`
    insert into market_activity (world_id, week, product_id, units_bought, units_sold)
    select ${worldId}::int, ${week}::int, product_id, 0, sum(quantity)::bigint from turn_liquidation group by product_id
    on conflict (world_id, week, product_id) do update set units_sold = market_activity.units_sold + excluded.units_sold`);

  // Shares held, sold back to issuers that can pay for all of them; others cancelled.
  await tx.execute(sql`
    create temp table turn_buyback on commit drop as
    with positions as (
      select pe.holder_company_id, pe.issuer_company_id, pe.shares_owned, ${positionValueCentsSql} as value_cents
      from portfolio_entries pe
      join turn_bankrupt tb on tb.company_id = pe.holder_company_id
      join share_records s on s.world_id = pe.world_id and s.company_id = pe.issuer_company_id and s.is_listed
      where pe.world_id = ${worldId}::int and pe.shares_owned > 0 and not exists (select 1 from turn_bankrupt x where x.company_id = pe.issuer_company_id)
    ), affordable as (
      select p.issuer_company_id from positions p join ${turnBalancesSql} b on b.company_id = p.issuer_company_id
      group by p.issuer_company_id, b.cash_cents having b.cash_cents >= sum(p.value_cents)
    )
    select p.*, case when a.issuer_company_id is null then 0 else p.value_cents end as paid_cents
    from positions p left join affordable a on a.issuer_company_id = p.issuer_company_id`);
  await tx.execute(sql`
    update share_records s set total_shares = greatest(1, s.total_shares - b.shares), week_flow = s.week_flow - b.shares, week_sold = s.week_sold + b.shares
    from (select issuer_company_id, sum(shares_owned)::bigint as shares from turn_buyback group by issuer_company_id) b
    where s.world_id = ${worldId}::int and s.company_id = b.issuer_company_id`);

  await tx.execute(sql`
    insert into turn_cash (company_id, type, reason, amount_cents, description)
    select company_id, 'other', 'liquidation', sum(cents)::bigint, 'Bankruptcy: goods sold on the market and shares sold back to their issuers'
    from (
      select company_id, proceeds_cents as cents from turn_liquidation
      union all
      select holder_company_id, paid_cents from turn_buyback
    ) assets
    group by company_id having sum(cents) > 0
    union all
    select b.issuer_company_id, 'stock_trade', 'share_buyback', -sum(b.paid_cents)::bigint,
           'Bought back ' || sum(b.shares_owned) || ' shares from bankrupt ' || string_agg(c.name, ', ' order by c.id)
    from turn_buyback b join companies c on c.world_id = ${worldId}::int and c.id = b.holder_company_id
    where b.paid_cents > 0 group by b.issuer_company_id`);

  await tx.execute(sql`delete from buildings where world_id = ${worldId}::int and company_id in (select company_id from turn_bankrupt)`);
  await tx.execute(sql`delete from inventory_items where world_id = ${worldId}::int and company_id in (select company_id from turn_bankrupt)`);
  await tx.execute(sql`
    delete from portfolio_entries where world_id = ${worldId}::int and (holder_company_id in (select company_id from turn_bankrupt)
                                      or issuer_company_id in (select company_id from turn_bankrupt))`);
  await tx.execute(sql`
    update share_records set is_listed = false, share_price_cents = 0, fundamental_cents = 0, updated_at = now()
    where world_id = ${worldId}::int and company_id in (select company_id from turn_bankrupt)`);
  await tx.execute(sql`
    update companies set status = 'bankrupt', bankrupt_at = now() where world_id = ${worldId}::int and id in (select company_id from turn_bankrupt)`);
  return ids;
}
