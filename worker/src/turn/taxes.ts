/**
 * Phase 4, taxes (docs/economy.md, "Taxes"). A company's taxable profit for the week is what it
 * earned from making and selling: store revenue + goods sold on the exchange - goods bought on the
 * exchange (market, Trade Hall and raw materials) - wages - operating costs + the change of the goods
 * it holds, valued as net worth values them (accrual basis: goods made or bought and not sold count
 * at that value, so turning profit into stock defers no tax). Store and market sales are taxed alike. Losses are carried forward: the tax (taxRule) is on the profit beyond the losses
 * carried from earlier weeks, and carriedLossRule updates them. The rate is the average effective
 * rate (effectiveTaxRateRule: the country's rate with its active tax events) of the countries of the
 * company's buildings, in basis points; a company without buildings pays the average of all
 * countries. Subsidies are not taxed.
 */
import { sql } from 'drizzle-orm';
import { carriedLossRule, effectiveTaxRateRule, taxRule } from '@marketcraft/shared';
import { goodsValueSql, ruleSql } from '@marketcraft/db';
import type { TurnContext } from './context.ts';
import { fillTurnTable, withoutNestedLoops } from './turnTables.ts';

/**
 * Ledger reasons of goods bought on the exchange and sold to it (db/src/game/goods/market.ts,
 * buildingPurchase.ts), and from and to other companies by contract (db/src/game/exchange/contracts.ts).
 * The weekly auction's fills are counted by its own phase (worker/src/turn/exchange.ts, turn_pnl).
 */
const EXCHANGE_PURCHASES = sql`('market_buy', 'store_stock', 'raw_materials', 'contract_buy')`;
const EXCHANGE_SALES = sql`('market_sell', 'contract_sell')`;

export async function runTaxes(ctx: TurnContext): Promise<void> {
  const { tx, week, worldId } = ctx;
  // This week's exchange trades, from the ledger (the trades happened between turns).
  await tx.execute(sql`
    insert into turn_pnl (company_id, market_sales_cents, market_purchases_cents)
    select t.company_id,
           coalesce(sum(t.amount_cents) filter (where t.reason in ${EXCHANGE_SALES}), 0)::bigint,
           coalesce(-sum(t.amount_cents) filter (where t.reason in ${EXCHANGE_PURCHASES}), 0)::bigint
    from transactions t join turn_companies tc on tc.company_id = t.company_id
    where t.world_id = ${worldId}::int and t.week = ${week}::int and t.reason in ('market_buy', 'store_stock', 'raw_materials', 'market_sell', 'contract_buy', 'contract_sell')
    group by t.company_id`);

  await fillTurnTable(
    tx,
    'turn_tax_rates',
    sql`with rates as (
      select c.id as country_id, c.name,
             ${ruleSql(effectiveTaxRateRule, {
               // An instructor's tax shock moves the rate by its percent while it lasts (docs/worlds.md).
               taxRate: sql`least(100, greatest(0, round(wc.tax_rate * (100 + coalesce(sh.percent, 0)) / 100.0)))::int`,
               increasePoints: sql`coalesce(sum(e.effect_value) filter (where e.event_type = 'tax_increase'), 0)`,
               cutPoints: sql`coalesce(sum(e.effect_value) filter (where e.event_type = 'tax_cut'), 0)`,
             })} as rate
      from countries c
      join world_countries wc on wc.world_id = ${worldId}::int and wc.country_id = c.id
      left join (
        select country_id, sum(percent)::int as percent from world_shocks
        where world_id = ${worldId}::int and kind = 'tax_rate' and start_week <= ${week}::int and end_week >= ${week}::int
        group by country_id
      ) sh on sh.country_id = c.id
      left join political_events e on e.world_id = ${worldId}::int and e.country_id = c.id and e.started_week <= ${week}::int and e.active_until_week >= ${week}::int
                                   and e.event_type in ('tax_increase', 'tax_cut')
      group by c.id, c.name, wc.tax_rate, sh.percent
    ), by_company as (
      -- The average over the company's buildings, from the costs phase's count of them per country
      -- (turn_costs: every building of the turn's companies) instead of joining every building again:
      -- the same numeric average (sum over count), so the same rate.
      select bc.company_id, round((sum(r.rate * bc.buildings)::numeric / sum(bc.buildings)) * 100)::bigint as rate_bp
      from turn_costs bc join rates r on r.country_id = bc.country_id
      group by bc.company_id
    )
    select tc.company_id, coalesce(bc.rate_bp, (select round(avg(rate) * 100)::bigint from rates)) as rate_bp
    from turn_companies tc left join by_company bc on bc.company_id = tc.company_id`,
  );

  // Accrual: the goods each company holds now, as net worth values them (valuationSql's goods),
  // less those it held when last taxed; none recorded (a company of a game upgraded by 0022): this
  // week takes the baseline. Only the goods (the rest of assetsSql, every building's book value, is
  // not taxed), of every company of the world: the join keeps the turn's, and filtering each source
  // of goods by the turn's companies first cost more than valuing the few others.
  await fillTurnTable(
    tx,
    'turn_goods',
    sql`select tc.company_id, coalesce(a.goods_cents, 0)::bigint as goods_cents,
           (coalesce(a.goods_cents, 0) - coalesce(c.taxed_goods_cents, coalesce(a.goods_cents, 0)))::bigint as change_cents
    from turn_companies tc
    join companies c on c.world_id = ${worldId}::int and c.id = tc.company_id
    left join ${goodsValueSql({ worldId })} a on a.company_id = tc.company_id
    where c.taxed_goods_cents is distinct from coalesce(a.goods_cents, 0)`,
  );
  await tx.execute(sql`insert into turn_pnl (company_id, goods_change_cents) select company_id, change_cents from turn_goods`);

  // The profit per company is an aggregate of a never-analyzed temporary table, which the planner
  // guesses at 200 rows: it then looked each company up in the companies table's index, one probe
  // per company (x37 the time at 100,000 companies for x10 the companies: the probes miss the
  // cache). A large world's join is a hash join over its companies (docs/turn.md).
  const fillTaxes = () =>
    fillTurnTable(
      tx,
      'turn_tax',
      sql`with profit as (
      select company_id,
             sum(store_revenue_cents + market_sales_cents - market_purchases_cents - wages_cents - operating_cents + goods_change_cents)::bigint as taxable_cents
      from turn_pnl group by company_id
    )
    select p.company_id, p.taxable_cents, g.goods_cents, r.rate_bp, c.tax_loss_cents as carried_cents,
           ${ruleSql(taxRule, { profitCents: sql`p.taxable_cents`, carriedLossCents: sql`c.tax_loss_cents`, rateBp: sql`r.rate_bp` })} as tax_cents,
           ${ruleSql(carriedLossRule, { profitCents: sql`p.taxable_cents`, carriedLossCents: sql`c.tax_loss_cents` })} as carried_after_cents
    from profit p join turn_tax_rates r on r.company_id = p.company_id join companies c on c.world_id = ${worldId}::int and c.id = p.company_id
    left join turn_goods g on g.company_id = p.company_id`,
    );
  await (ctx.largeWorld ? withoutNestedLoops(tx, fillTaxes) : fillTaxes());
  // The losses carried forward (carried_after_cents) and the goods taxed (goods_cents) are written
  // with the balances, in the books (ledgerBatch.ts flushLedger): one update of each company row per turn.
  await tx.execute(sql`
    insert into turn_pnl (company_id, tax_cents) select company_id, tax_cents from turn_tax where tax_cents > 0`);
  await tx.execute(sql`
    insert into turn_cash (company_id, type, reason, amount_cents, description)
    select company_id, 'other', 'tax', -tax_cents,
           'Taxes: ' || to_char(rate_bp / 100.0, 'FM990.00') || '% of a profit of $' || to_char(taxable_cents / 100.0, 'FM999,999,999,990.00')
           || case when carried_cents > 0 then ' less $' || to_char(least(carried_cents, taxable_cents) / 100.0, 'FM999,999,999,990.00') || ' of losses carried forward' else '' end
    from turn_tax where tax_cents > 0`);
}
