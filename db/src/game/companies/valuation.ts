/**
 * Net worth: ONE definition for the leaderboard, the dashboard, the profile, share prices and the
 * bots (docs/economy.md, "Net worth"). Per company:
 *
 *   goods      = every product it holds (warehouse + shelves + back rooms) at what selling it all on
 *                the exchange would pay now (liquidationValueRule: the curve walked down, less the
 *                spread), so hoarding or buying never raises net worth by itself;
 *   buildings  = what selling them refunds (buildingBookValueRule: 50% of construction + equipment);
 *   holdings   = its shares in other companies, each position at what selling it back would pay
 *                (liquidationValueRule on the issuer's share curve);
 *   claims     = the same value of the positions OTHER companies hold in it;
 *   equity     = cash + goods + buildings + holdings   (what backs each of its shares);
 *   net worth  = equity - claims                         (what belongs to its own player).
 *
 * Summed over every company each company's own assets count exactly once: a share trade moves value
 * between the buyer's holdings and the issuer's claims and creates none, whatever the price.
 *
 * `valuationSql(cash, filter)` is a subquery with one row per company of `cash` (company_id,
 * cash_cents): the turn passes its running balances, the API the companies table.
 */
import { sql, type SQL } from 'drizzle-orm';
import { buildingBookValueRule, equipmentSpentRule, equityRule, liquidationValueRule, netWorthRule, shareDepthRule } from '@marketcraft/shared';
import { ruleSql } from '../../ruleSql.ts';
import { goodsValueSql } from '../goods/prices.ts';

/** Per (holder, issuer) position: what selling it back would pay (listed issuers with a price only). */
const positionValueSql = (worldId: number | SQL) => sql`(
  select pe.holder_company_id, pe.issuer_company_id,
         ${ruleSql(liquidationValueRule, {
           price: sql`s.share_price_cents`,
           depth: ruleSql(shareDepthRule, { totalShares: sql`s.total_shares` }),
           quantity: sql`least(pe.shares_owned, 10 * ${ruleSql(shareDepthRule, { totalShares: sql`s.total_shares` })})`,
         })} as value_cents
  from portfolio_entries pe
  join share_records s on s.world_id = pe.world_id and s.company_id = pe.issuer_company_id and s.is_listed and s.share_price_cents > 0
  where pe.world_id = ${worldId}::int and pe.shares_owned > 0
)`;

export interface ValuationOptions {
  /** The world whose companies are valued (every row read is that world's): its id, or an SQL expression of it. */
  worldId: number | SQL;
  /** Only these companies (an SQL list expression, e.g. sql`(42)`); default every company of `cash`. */
  companyIds?: SQL;
  /**
   * A relation of (company_id, goods_cents, buildings_cents) already computed by `assetsSql` (the
   * turn values companies twice, before and after share prices move: goods are the costly part).
   */
  assets?: SQL;
}

/** (company_id, goods_cents, buildings_cents): the goods and buildings part of valuationSql. */
export function assetsSql(options: Pick<ValuationOptions, 'worldId' | 'companyIds'>): SQL {
  const world = sql`${options.worldId}::int`;
  const only = (column: SQL) => (options.companyIds ? sql`and ${column} in ${options.companyIds}` : sql``);
  return sql`(
    with goods as ${goodsValueSql(options)}, building_book as (
      select b.company_id,
             sum(${ruleSql(buildingBookValueRule, {
               paidCents: sql`b.construction_cost_cents + ${ruleSql(equipmentSpentRule, { equipmentLevel: sql`b.equipment_level` })}`,
             })})::bigint as buildings_cents
      from buildings b
      where b.world_id = ${world} ${only(sql`b.company_id`)}
      group by b.company_id
    )
    select coalesce(g.company_id, bb.company_id) as company_id, coalesce(g.goods_cents, 0)::bigint as goods_cents,
           coalesce(bb.buildings_cents, 0)::bigint as buildings_cents
    from goods g full join building_book bb on bb.company_id = g.company_id
  )`;
}

/**
 * One row per company of `cash`: company_id, cash_cents, goods_cents, buildings_cents,
 * holdings_cents, claims_cents, equity_cents, net_worth_cents.
 */
export function valuationSql(cash: SQL, options: ValuationOptions): SQL {
  const only = (column: SQL) => (options.companyIds ? sql`and ${column} in ${options.companyIds}` : sql``);
  return sql`(
    with assets as (
      select * from ${options.assets ?? assetsSql({ worldId: options.worldId, companyIds: options.companyIds })} a
    ), positions as (
      select * from ${positionValueSql(options.worldId)} pv
      where true ${options.companyIds ? sql`and (pv.holder_company_id in ${options.companyIds} or pv.issuer_company_id in ${options.companyIds})` : sql``}
    ), holdings as (
      select holder_company_id as company_id, sum(value_cents)::bigint as holdings_cents from positions group by holder_company_id
    ), claims as (
      select issuer_company_id as company_id, sum(value_cents)::bigint as claims_cents from positions group by issuer_company_id
    ), escrow as (
      -- Cash held by open buy orders is still the company's (docs/exchange.md): it counts with its cash.
      select o.company_id, sum(o.escrow_cents)::bigint as escrow_cents from exchange_orders o
      where o.world_id = ${options.worldId}::int and o.status in ('open', 'partially_filled') and o.escrow_cents > 0 ${only(sql`o.company_id`)}
      group by o.company_id
    )
    select c.company_id, c.cash_cents, coalesce(e.escrow_cents, 0)::bigint as escrow_cents,
           coalesce(a.goods_cents, 0)::bigint as goods_cents,
           coalesce(a.buildings_cents, 0)::bigint as buildings_cents,
           coalesce(h.holdings_cents, 0)::bigint as holdings_cents,
           coalesce(cl.claims_cents, 0)::bigint as claims_cents,
           ${ruleSql(equityRule, {
             cashCents: sql`c.cash_cents + coalesce(e.escrow_cents, 0)`,
             goodsCents: sql`coalesce(a.goods_cents, 0)`,
             buildingsCents: sql`coalesce(a.buildings_cents, 0)`,
             holdingsCents: sql`coalesce(h.holdings_cents, 0)`,
           })} as equity_cents,
           ${ruleSql(netWorthRule, {
             cashCents: sql`c.cash_cents + coalesce(e.escrow_cents, 0)`,
             goodsCents: sql`coalesce(a.goods_cents, 0)`,
             buildingsCents: sql`coalesce(a.buildings_cents, 0)`,
             holdingsCents: sql`coalesce(h.holdings_cents, 0)`,
             claimsCents: sql`coalesce(cl.claims_cents, 0)`,
           })} as net_worth_cents
    from ${cash} c
    left join assets a on a.company_id = c.company_id
    left join holdings h on h.company_id = c.company_id
    left join claims cl on cl.company_id = c.company_id
    left join escrow e on e.company_id = c.company_id
    where true ${only(sql`c.company_id`)}
  )`;
}

/** The companies table as a cash source: (company_id, cash_cents) of every active company of a world. */
export function activeCompaniesCashSql(worldId: number | SQL): SQL {
  return sql`(select id as company_id, cash_cents from companies where world_id = ${worldId}::int and status = 'active')`;
}
