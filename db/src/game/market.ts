/**
 * The goods market: buy at the product's current price into the company warehouse, sell from it at
 * the current price less MARKET_SELL_SPREAD. Each trade is recorded in market_activity (units
 * bought from / sold to the market this week), the signal the worker's price update reads.
 *
 * Lock order: the company row (changeCash) first, then the warehouse row, then market_activity.
 */
import { eq, sql } from 'drizzle-orm';
import { GameError, centsToDollars, formatCents, marketSellUnitPriceCents } from '@marketcraft/shared';
import { products } from '../schema/index.ts';
import type { DbExecutor } from '../client.ts';
import { changeCash } from './ledger.ts';
import { currentWeek } from './world.ts';
import { PRODUCT_NOT_FOUND, addToWarehouse, takeFromWarehouse, warehouseQuantity } from './inventory.ts';

export type MarketTradeAction = 'buy' | 'sell';

export interface MarketTradeResult {
  action: MarketTradeAction;
  product_id: number;
  product_name: string;
  quantity: number;
  /** Dollars per unit paid (buy) or received (sell, after the spread). */
  unit_price: number;
  /** Dollars paid or received in total. */
  total: number;
  /** Units of the product now in the warehouse. */
  quantity_held: number;
  cash: number;
}

/** Adds units to this week's market activity of a product (bought from / sold to the market). */
export async function recordMarketActivity(db: DbExecutor, productId: number, unitsBought: number, unitsSold: number): Promise<void> {
  const week = await currentWeek(db);
  await db.execute(sql`
    insert into market_activity (week, product_id, units_bought, units_sold)
    values (${week}, ${productId}, ${unitsBought}, ${unitsSold})
    on conflict (week, product_id) do update set
      units_bought = market_activity.units_bought + excluded.units_bought,
      units_sold = market_activity.units_sold + excluded.units_sold`);
}

/** POST /market/trade. */
export async function marketTrade(
  db: DbExecutor,
  companyId: number,
  input: { productId: number; quantity: number; action: MarketTradeAction },
): Promise<MarketTradeResult> {
  return db.transaction(async (tx) => {
    const [product] = await tx
      .select({ id: products.id, name: products.name, currentPriceCents: products.currentPriceCents })
      .from(products)
      .where(eq(products.id, input.productId));
    if (!product) throw new GameError('NOT_FOUND', PRODUCT_NOT_FOUND);

    if (input.action === 'buy') {
      const unitCents = product.currentPriceCents;
      const totalCents = unitCents * input.quantity;
      const cashCents = await changeCash(tx, {
        companyId,
        amountCents: -totalCents,
        type: 'purchase',
        reason: 'market_buy',
        description: `Bought ${input.quantity} ${product.name} on the market at ${formatCents(unitCents)} each`,
      });
      await addToWarehouse(tx, companyId, product.id, input.quantity, unitCents);
      await recordMarketActivity(tx, product.id, input.quantity, 0);
      return {
        action: 'buy',
        product_id: product.id,
        product_name: product.name,
        quantity: input.quantity,
        unit_price: centsToDollars(unitCents),
        total: centsToDollars(totalCents),
        quantity_held: await warehouseQuantity(tx, companyId, product.id),
        cash: centsToDollars(cashCents),
      };
    }

    const unitCents = marketSellUnitPriceCents(product.currentPriceCents);
    const totalCents = unitCents * input.quantity;
    // Cash first (the company row lock comes first in every operation), then the conditional
    // stock update decides; if it refuses, the whole transaction, credit included, rolls back.
    const cashCents = await changeCash(tx, {
      companyId,
      amountCents: totalCents,
      type: 'sale',
      reason: 'market_sell',
      description: `Sold ${input.quantity} ${product.name} on the market at ${formatCents(unitCents)} each`,
    });
    const taken = await takeFromWarehouse(tx, companyId, product.id, input.quantity);
    if (taken === null) {
      const held = await warehouseQuantity(tx, companyId, product.id);
      throw new GameError('NOT_ENOUGH_STOCK', `Not enough stock: you have ${held} ${product.name}`);
    }
    await recordMarketActivity(tx, product.id, 0, input.quantity);
    return {
      action: 'sell',
      product_id: product.id,
      product_name: product.name,
      quantity: input.quantity,
      unit_price: centsToDollars(unitCents),
      total: centsToDollars(totalCents),
      quantity_held: await warehouseQuantity(tx, companyId, product.id),
      cash: centsToDollars(cashCents),
    };
  });
}
