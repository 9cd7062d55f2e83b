/**
 * The goods market's prices as the read screens show them, in one place, as SQL over a product row
 * aliased `p` from worldProductsSql (GET /goods, GET /market/products, GET /warehouse). They are the exchange's own rules
 * (shared/src/rules/market.ts), rendered by ruleSql, so a table shows what an order would really
 * cost or pay:
 * - one unit's buy and sell price: goodsBuyCostRule (the wholesale margin of consumer goods
 *   included) / marketSellProceedsRule for one unit, from
 *   this week's flow so far (what GET /market/quote answers for a quantity of 1);
 * - a holding's market value: liquidationValueRule (selling all of it now, the curve walked down
 *   from the posted price, less the spread), as net worth counts goods (valuation.ts).
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  CONSUMER_CATEGORIES,
  WHOLESALE_MARGIN_BP,
  baseDemandRule,
  goodsBuyCostRule,
  liquidationValueRule,
  marketSellProceedsRule,
  referencePriceRule,
  shockedDemandRule,
} from '@marketcraft/shared';
import { ruleSql } from '../../ruleSql.ts';

/**
 * The products of one world's exchange: every catalogue column plus the world's `world_id` and
 * `current_price_cents`. Alias it `p` for the expressions below (`from ${worldProductsSql(id)} p`).
 * `weekFlow`: also `week_flow`, this week's units bought minus sold (market_activity), which the
 * one-unit prices below need; it is joined once per product (each price uses it several times).
 */
export function worldProductsSql(worldId: number | SQL, options: { weekFlow?: boolean } = {}): SQL {
  if (!options.weekFlow) {
    return sql`(select pr.*, wp.world_id, wp.current_price_cents from products pr
    join world_products wp on wp.product_id = pr.id and wp.world_id = ${worldId})`;
  }
  return sql`(select pr.*, wp.world_id, wp.current_price_cents, coalesce(ma.units_bought - ma.units_sold, 0) as week_flow
    from products pr
    join world_products wp on wp.product_id = pr.id and wp.world_id = ${worldId}
    left join market_activity ma on ma.world_id = wp.world_id and ma.product_id = pr.id
      and ma.week = (select current_week from worlds w where w.id = ${worldId}))`;
}

/**
 * The price shoppers in a city expect for a product (referencePriceRule): it follows the world's
 * posted price, so it is stored nowhere and computed where it is read. Storing it cost every turn
 * an update of all 15,200 city rows of its world (most posted prices move every week), the largest
 * fixed cost of a small classroom world's turn (docs/benchmarks.md).
 */
export function referencePriceSql(postedPriceCents: SQL, cityFactorBp: SQL): SQL {
  return ruleSql(referencePriceRule, { marketPriceCents: postedPriceCents, cityFactorBp });
}

/**
 * One world's city markets: every column of city_market_data plus `market_price_cents`, the
 * city's reference price now (referencePriceSql). Alias it as the table was (`${cityMarketsSql(id)} cmd`).
 */
export function cityMarketsSql(worldId: number | SQL): SQL {
  return sql`(select cm.*, ${referencePriceSql(sql`wp.current_price_cents`, sql`cm.price_factor_bp`)} as market_price_cents
    from city_market_data cm join world_products wp on wp.world_id = cm.world_id and wp.product_id = cm.product_id
    where cm.world_id = ${worldId})`;
}

/** This week's net flow of product `p` (`week_flow`), kept inside the curve's reach for one more unit. */
const flowSql = sql`least(greatest(p.week_flow, 1 - 10 * p.depth_units), 10 * p.depth_units - 1)`;

const curve = { price: sql`p.current_price_cents`, depth: sql`p.depth_units`, flow: flowSql, quantity: sql`1` };

/** The wholesale margin (basis points) of a product of the category `category` (wholesaleMarginBp in SQL). */
export function wholesaleMarginBpSql(category: SQL): SQL {
  return sql`(case when ${isConsumerGoodSql(category)} then ${WHOLESALE_MARGIN_BP}::int else 0 end)`;
}

/** Whether a product of the category `category` is a consumer good (isConsumerGood in SQL). */
export function isConsumerGoodSql(category: SQL): SQL {
  const categories = sql.join(
    CONSUMER_CATEGORIES.map((name) => sql`${name}`),
    sql`, `,
  );
  return sql`(${category} in (${categories}))`;
}

/** Cents one unit of product `p` costs to buy now (`p` from worldProductsSql with weekFlow). */
export const unitBuyCentsSql: SQL = ruleSql(goodsBuyCostRule, { ...curve, marginBp: wholesaleMarginBpSql(sql`p.category`) });

/** Cents selling one unit of product `p` pays now (`p` from worldProductsSql with weekFlow). */
export const unitSellCentsSql: SQL = ruleSql(marketSellProceedsRule, curve);

/** Cents selling `quantity` units of product `p` pays now (the whole holding, from the posted price). */
export function holdingValueCentsSql(quantity: SQL): SQL {
  return ruleSql(liquidationValueRule, { price: sql`p.current_price_cents`, depth: sql`p.depth_units`, quantity: sql`least(${quantity}, 10 * p.depth_units)` });
}

/**
 * (company_id, goods_cents): every product each company holds (warehouse, shelves, back rooms, and
 * what its open sell orders and contract offers hold in escrow) at what selling each product's whole
 * holding at once would pay now (holdingValueCentsSql). Net worth counts goods so (valuation.ts) and
 * the warehouse's total shows the same figure. `companyIds`: only these (an SQL list, e.g. sql`(42)`).
 */
export function goodsValueSql(options: { worldId: number | SQL; companyIds?: SQL }): SQL {
  const world = sql`${options.worldId}::int`;
  const only = (column: SQL) => (options.companyIds ? sql`and ${column} in ${options.companyIds}` : sql``);
  return sql`(
    select held.company_id, sum(${holdingValueCentsSql(sql`held.quantity`)})::bigint as goods_cents
    from (
      select company_id, product_id, sum(quantity)::bigint as quantity
      from (
        select i.company_id, i.product_id, i.quantity from inventory_items i where i.world_id = ${world} and i.quantity > 0 ${only(sql`i.company_id`)}
        union all
        select b.company_id, sp.product_id, sp.quantity from store_products sp join buildings b on b.world_id = sp.world_id and b.id = sp.building_id
        where sp.world_id = ${world} and sp.quantity > 0 ${only(sql`b.company_id`)}
        union all
        select b.company_id, bi.product_id, bi.quantity from building_inventory_items bi join buildings b on b.world_id = bi.world_id and b.id = bi.building_id
        where bi.world_id = ${world} and bi.quantity > 0 ${only(sql`b.company_id`)}
        union all
        -- Goods held in escrow by open sell orders and contract offers are still the company's (docs/exchange.md).
        select o.company_id, o.product_id, o.escrow_units from exchange_orders o
        where o.world_id = ${world} and o.status in ('open', 'partially_filled') and o.escrow_units > 0 ${only(sql`o.company_id`)}
        union all
        select k.seller_company_id, k.product_id, k.quantity from contracts k
        where k.world_id = ${world} and k.status = 'open' ${only(sql`k.seller_company_id`)}
      ) stock
      group by company_id, product_id
    ) held
    join ${worldProductsSql(options.worldId)} p on p.id = held.product_id
    group by held.company_id
  )`;
}

/**
 * (product_id, percent): the instructors' demand shocks on each product this week, added up
 * (docs/worlds.md). The turn's sales and the bots' view of the shoppers both read it.
 */
export function demandShocksSql(worldId: number): SQL {
  return sql`(
    select product_id, sum(percent)::int as percent from world_shocks
    where world_id = ${worldId}::int and kind = 'demand'
      and start_week <= (select current_week from worlds where id = ${worldId}::int)
      and end_week >= (select current_week from worlds where id = ${worldId}::int)
    group by product_id
  )`;
}

/**
 * Units the city buys at the reference price (baseDemandRule) with this week's demand shock
 * (shockedDemandRule), for the aliases ci (city), cmd (its market data), p (product) and ds
 * (demandShocksSql). An instructor's demand shock scales the city's shoppers while it lasts
 * (docs/worlds.md); shocks that add up below -100% leave no shoppers.
 */
export const shockedBaseDemandSql = ruleSql(shockedDemandRule, {
  baseDemand: ruleSql(baseDemandRule, {
    population: sql`ci.population`,
    demandLevel: sql`cmd.demand_level`,
    baseReferenceCents: ruleSql(referencePriceRule, { marketPriceCents: sql`p.base_price_cents`, cityFactorBp: sql`cmd.price_factor_bp` }),
  }),
  shockPercent: sql`coalesce(ds.percent, 0)`,
});
