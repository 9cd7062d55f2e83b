/**
 * The goods exchange: ONE market operation for every unit bought from or sold to the world (market
 * trades, Trade Hall purchases, factory raw materials, the bots' purchases, bankruptcy sales).
 * docs/economy.md, "The market".
 *
 * An order walks the product's price curve from this week's net flow (units bought minus units
 * sold so far this week, `market_activity`) and pays the spread: `goodsBuyCostRule` (with the
 * wholesale margin of consumer goods) and `marketSellProceedsRule` in shared/src/rules/market.ts. `placeOrder` takes the week's flow row
 * lock (an upsert), moves the flow and computes the money in ONE statement, so concurrent orders of
 * one product walk the curve one after another and the money is computed by PostgreSQL alone;
 * the caller then moves cash and goods in the same transaction (a refusal rolls the flow back).
 * `quoteOrder` answers what an order would cost now, without placing it.
 *
 * Lock order: the company row (changeCash) first, then the warehouse row, then market_activity.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  GameError,
  MAX_ORDER_VALUE_CENTS,
  centsToDollars,
  formatCents,
  goodsBuyCostRule,
  marketMidPriceRule,
  marketOrderFitsRule,
  marketSellProceedsRule,
  orderWithinMarket,
  wholesaleMarginBp,
  type Figure,
} from '@marketcraft/shared';
import type { DbExecutor } from '../client.ts';
import { ruleSql } from '../ruleSql.ts';
import { sqlTemplate } from '../sqlTemplate.ts';
import { changeCash } from './ledger.ts';
import { PRODUCT_NOT_FOUND, payIntoWarehouse, takeFromWarehouse } from './inventory.ts';
import { wholesaleMarginBpSql, worldProductsSql } from './marketPrices.ts';
import { lockCompanyInWorld } from './world.ts';

export type MarketTradeAction = 'buy' | 'sell';

export interface PlacedOrder {
  productId: number;
  productName: string;
  quantity: number;
  /** Cents paid (buy) or received (sell) for the whole order. */
  totalCents: number;
  /** totalCents / quantity, rounded to the cent (the average cost booked for the goods). */
  unitCents: number;
}

interface ProductMarket {
  id: number;
  name: string;
  priceCents: number;
  depthUnits: number;
  flow: number;
  /** The product's wholesale margin on purchases, basis points (wholesaleMarginBp). */
  marginBp: number;
}

/** The product's exchange state: posted price, depth and this week's flow so far (not locked). */
async function productMarket(db: DbExecutor, worldId: number, productId: number): Promise<ProductMarket> {
  const [row] = await db.execute<{ id: number; name: string; category: string; price_cents: number; depth_units: number; flow: number }>(sql`
    select p.id, p.name, p.category, p.current_price_cents as price_cents, p.depth_units,
           coalesce((select ma.units_bought - ma.units_sold from market_activity ma
                     where ma.world_id = ${worldId} and ma.product_id = p.id
                       and ma.week = (select current_week from worlds where id = ${worldId})), 0)::bigint as flow
    from ${worldProductsSql(worldId)} p where p.id = ${productId}`);
  if (!row) throw new GameError('NOT_FOUND', PRODUCT_NOT_FOUND);
  return {
    id: Number(row.id),
    name: row.name,
    priceCents: Number(row.price_cents),
    depthUnits: Number(row.depth_units),
    flow: Number(row.flow),
    marginBp: wholesaleMarginBp(row.category),
  };
}

function tooLarge(name: string): GameError {
  return new GameError('RULE_BROKEN', `That order is too large for the ${name} market: split it over several weeks`);
}

/**
 * placeOrder's statement, rendered once per action (sqlTemplate: rendering its rules' SQL on every
 * order cost more CPU than PostgreSQL's execution of it). The flow before this order = the flow
 * after it minus the order itself (the upsert returns the row as this order left it).
 */
function placeOrderTemplate(action: MarketTradeAction) {
  return sqlTemplate<'worldId' | 'productId' | 'quantity' | 'bought' | 'sold'>((slot) => {
    const curve = (flow: SQL) => ({ price: sql`p.current_price_cents`, depth: sql`p.depth_units`, flow, quantity: sql`${slot('quantity')}::bigint` });
    const money = (flow: SQL) =>
      action === 'buy'
        ? ruleSql(goodsBuyCostRule, { ...curve(flow), marginBp: wholesaleMarginBpSql(sql`p.category`) })
        : ruleSql(marketSellProceedsRule, curve(flow));
    const week = sql`(select current_week from worlds where id = ${slot('worldId')}::int)`;
    return sql`
      with p as (
        select p.id, p.name, p.category, p.current_price_cents, p.depth_units,
               coalesce((select ma.units_bought - ma.units_sold from market_activity ma
                         where ma.world_id = ${slot('worldId')}::int and ma.product_id = p.id and ma.week = ${week}), 0)::bigint as flow
        from ${worldProductsSql(sql`${slot('worldId')}::int`)} p where p.id = ${slot('productId')}::int
      ), moved as (
        insert into market_activity (world_id, week, product_id, units_bought, units_sold)
        select ${slot('worldId')}::int, ${week}, p.id, ${slot('bought')}::bigint, ${slot('sold')}::bigint from p
        where ${ruleSql(marketOrderFitsRule, curve(sql`p.flow`))} = 1
        on conflict (world_id, week, product_id) do update set
          units_bought = market_activity.units_bought + excluded.units_bought,
          units_sold = market_activity.units_sold + excluded.units_sold
        returning units_bought - units_sold - (${slot('bought')}::bigint - ${slot('sold')}::bigint) as flow_before
      )
      select p.id, p.name,
             case when ${ruleSql(marketOrderFitsRule, curve(sql`m.flow_before`))} = 1 then ${money(sql`m.flow_before`)} end as total_cents
      from p left join moved m on true`;
  });
}
const placeOrderSql = { buy: placeOrderTemplate('buy'), sell: placeOrderTemplate('sell') };

/**
 * Places an order on the exchange: locks and moves this week's flow of the product and returns what
 * the order costs (buy) or pays (sell). Moves no cash and no goods: the caller does, in the same
 * transaction.
 *
 * One statement: the product and its flow so far are read, the order is checked against the market
 * (marketOrderFitsRule), and only then is the week's row upserted, so an unknown product (404) or
 * an order too large (422) writes nothing. The money is computed on the flow as the upsert left it
 * (after any order of the product that committed first); should that flow have moved past the
 * market's reach meanwhile, the order is refused and the caller's transaction rolls the flow back.
 */
export async function placeOrder(db: DbExecutor, input: { worldId: number; productId: number; quantity: number; action: MarketTradeAction }): Promise<PlacedOrder> {
  const [row] = await db.execute<{ id: number; name: string; total_cents: number | null }>(
    placeOrderSql[input.action]({
      worldId: input.worldId,
      productId: input.productId,
      quantity: input.quantity,
      bought: input.action === 'buy' ? input.quantity : 0,
      sold: input.action === 'sell' ? input.quantity : 0,
    }),
  );
  if (!row) throw new GameError('NOT_FOUND', PRODUCT_NOT_FOUND);
  const totalCents = row.total_cents === null ? null : Number(row.total_cents);
  if (totalCents === null || !Number.isSafeInteger(totalCents) || totalCents > MAX_ORDER_VALUE_CENTS) throw tooLarge(row.name);
  return {
    productId: Number(row.id),
    productName: row.name,
    quantity: input.quantity,
    totalCents,
    unitCents: input.quantity > 0 ? Math.round(totalCents / input.quantity) : 0,
  };
}

export interface MarketQuote {
  product_id: number;
  product_name: string;
  action: MarketTradeAction;
  quantity: number;
  /** Dollars the whole order costs (buy) or pays (sell) now, spread and price impact included. */
  total: number;
  /** Average dollars per unit of the order. */
  unit_price: number;
  /** The posted price this week and the price on the curve before and after the order, dollars. */
  posted_price: number;
  price_before: number;
  price_after: number;
  /** How the total comes about. */
  why: Figure;
}

/** GET /api/market/quote: what an order would cost or pay now (nothing is placed). */
export async function quoteOrder(db: DbExecutor, input: { worldId: number; productId: number; quantity: number; action: MarketTradeAction }): Promise<MarketQuote> {
  const market = await productMarket(db, input.worldId, input.productId);
  const values = { price: market.priceCents, depth: market.depthUnits, flow: market.flow, quantity: input.quantity };
  if (!orderWithinMarket(values)) throw tooLarge(market.name);
  const buying = { ...values, marginBp: market.marginBp };
  const why = input.action === 'buy' ? goodsBuyCostRule.explain(buying) : marketSellProceedsRule.explain(values);
  const totalCents = input.action === 'buy' ? goodsBuyCostRule.evaluate(buying) : marketSellProceedsRule.evaluate(values);
  const after = input.action === 'buy' ? market.flow + input.quantity : market.flow - input.quantity;
  return {
    product_id: market.id,
    product_name: market.name,
    action: input.action,
    quantity: input.quantity,
    total: centsToDollars(totalCents),
    unit_price: centsToDollars(input.quantity > 0 ? Math.round(totalCents / input.quantity) : 0),
    posted_price: centsToDollars(market.priceCents),
    price_before: centsToDollars(marketMidPriceRule.evaluate({ price: market.priceCents, depth: market.depthUnits, flow: market.flow })),
    price_after: centsToDollars(marketMidPriceRule.evaluate({ price: market.priceCents, depth: market.depthUnits, flow: after })),
    why,
  };
}

export interface MarketTradeResult {
  action: MarketTradeAction;
  product_id: number;
  product_name: string;
  quantity: number;
  /** Average dollars per unit paid (buy) or received (sell). */
  unit_price: number;
  /** Dollars paid or received in total. */
  total: number;
  /** Units of the product now in the warehouse. */
  quantity_held: number;
  cash: number;
}

/** POST /market/trade: buy into the company warehouse or sell from it, through placeOrder. */
export async function marketTrade(
  db: DbExecutor,
  companyId: number,
  input: { productId: number; quantity: number; action: MarketTradeAction },
): Promise<MarketTradeResult> {
  return db.transaction(async (tx) => {
    // The company row lock comes first in every operation.
    const worldId = await lockCompanyInWorld(tx, companyId);
    if (input.action === 'buy') {
      // An unknown product: placeOrder answers 404 before anything is written. The order's price is
      // known only once placed, so the cash change follows it within the same transaction.
      const order = await placeOrder(tx, { ...input, worldId });
      const paid = await payIntoWarehouse(
        tx,
        {
          companyId,
          amountCents: -order.totalCents,
          type: 'purchase',
          reason: 'market_buy',
          description: `Bought ${order.quantity} ${order.productName} on the market for ${formatCents(order.totalCents)} (${formatCents(order.unitCents)} each)`,
          ref: { productId: order.productId },
        },
        { productId: order.productId, quantity: order.quantity, unitCostCents: order.unitCents },
      );
      return tradeResult('buy', order, paid.quantity, paid.cashCents);
    }

    // The conditional stock update decides first; if it refuses (an unknown product holds no
    // stock either), nothing else happens.
    const taken = await takeFromWarehouse(tx, companyId, input.productId, input.quantity);
    if (taken === null) {
      const [product] = await tx.execute<{ name: string; held: number }>(sql`
        select p.name, coalesce((select i.quantity from inventory_items i where i.company_id = ${companyId} and i.product_id = p.id), 0)::bigint as held
        from products p where p.id = ${input.productId}`);
      if (!product) throw new GameError('NOT_FOUND', PRODUCT_NOT_FOUND);
      throw new GameError('NOT_ENOUGH_STOCK', `Not enough stock: you have ${Number(product.held)} ${product.name}`);
    }
    const order = await placeOrder(tx, { ...input, worldId });
    const cashCents = await changeCash(tx, {
      companyId,
      amountCents: order.totalCents,
      type: 'sale',
      reason: 'market_sell',
      description: `Sold ${order.quantity} ${order.productName} on the market for ${formatCents(order.totalCents)} (${formatCents(order.unitCents)} each)`,
      ref: { productId: order.productId },
    });
    return tradeResult('sell', order, taken.quantityLeft, cashCents);
  });
}

function tradeResult(action: MarketTradeAction, order: PlacedOrder, held: number, cashCents: number): MarketTradeResult {
  return {
    action,
    product_id: order.productId,
    product_name: order.productName,
    quantity: order.quantity,
    unit_price: centsToDollars(order.unitCents),
    total: centsToDollars(order.totalCents),
    quantity_held: held,
    cash: centsToDollars(cashCents),
  };
}
