/**
 * Bots (owned by the bots engineer): the budgets and caps every bot obeys (docs/bots.md), and the
 * bots' view of the goods market while they plan (prices from the shared market rules, flows moved
 * order by order). Money in integer cents.
 */
import { MAX_STORE_PRODUCTS, goodsBuyCostRule, marketSellProceedsRule, orderWithinMarket, wholesaleMarginBp } from '@marketcraft/shared';
import type { PlanBudget, WorldProduct } from './types.ts';

/** A bot spends at most this share of its cash at the start of its turn (all actions together). */
export const BOT_SPEND_SHARE_PER_TURN = 0.3;
/** A bot never spends below this cash ($50,000); a bot under it only sells. */
export const BOT_CASH_RESERVE_CENTS = 5_000_000;
/** No bot ever owns more buildings than this (a strategy's own limit is lower). */
export const BOT_BUILDING_CAP = 12;
/** A bot never holds more than this share of another company's shares (no takeovers). */
export const BOT_MAX_HOLDING_SHARE = 0.2;
/** A bot buys at most this many shares of one issuer per turn, of at most this many issuers. */
export const BOT_MAX_SHARES_PER_TRADE = 25;
export const BOT_SHARE_ISSUERS_PER_TURN = 1;
/** A bot keeps this many weeks of its buildings' input needs in the warehouse before selling the rest. */
export const BOT_INPUT_WEEKS_KEPT = 2;
/** Shelves are filled to this many weeks of expected sales. */
export const BOT_SHELF_WEEKS = 2;
/** A store carries at most this many products (the game's rule); a reseller adds at most one new product a turn. */
export const BOT_MAX_SHELF_PRODUCTS = MAX_STORE_PRODUCTS;
/** One market sale of a bot moves at most this share of the product's depth (no dumping). */
export const BOT_MAX_SALE_DEPTH_SHARE = 0.25;
/** Shelf prices: the city's reference price x a markup, never outside this range (a strategy narrows it). */
export const BOT_MIN_MARKUP = 0.9;
export const BOT_MAX_MARKUP = 1.4;
/**
 * Bots that price by demand (retail focus): a store counts as full when last week's sales reached
 * this share of its capacity (its prices then go up a step); a shelf with more than
 * BOT_SLOW_SHELF_WEEKS of last week's sales still on it sells slowly (its price goes down a step);
 * a step is BOT_DEMAND_PRICE_STEP of the price; prices stay under BOT_MAX_DEMAND_PRICE_MULTIPLE x
 * the city's reference price (shoppers buy nothing above 3x: SALES_MAX_PRICE_MULTIPLE).
 */
export const BOT_STORE_FULL_SHARE = 0.9;
export const BOT_SLOW_SHELF_WEEKS = 1.5;
export const BOT_DEMAND_PRICE_STEP = 0.05;
export const BOT_MAX_DEMAND_PRICE_MULTIPLE = 2.5;

/** Cents a bot may spend this turn: 30% of its cash, never taking it below the reserve. */
export function turnSpendingCents(cashCents: number): number {
  return Math.max(0, Math.min(Math.floor(cashCents * BOT_SPEND_SHARE_PER_TURN), cashCents - BOT_CASH_RESERVE_CENTS));
}

/** The planning budget a strategy draws from. */
export function planBudget(totalCents: number): PlanBudget {
  let remaining = Math.max(0, Math.floor(totalCents));
  return {
    get remainingCents() {
      return remaining;
    },
    take(costCents: number) {
      if (!Number.isFinite(costCents) || costCents < 0 || costCents > remaining) return false;
      remaining -= costCents;
      return true;
    },
  };
}

/** What buying `quantity` costs now (the shared market rule at the product's flow, its wholesale margin included), or null if the market refuses it. */
export function quoteBuy(product: WorldProduct, quantity: number): number | null {
  const values = { price: product.currentPriceCents, depth: product.depthUnits, flow: product.flow, quantity };
  if (quantity <= 0 || !orderWithinMarket(values)) return null;
  return goodsBuyCostRule.evaluate({ ...values, marginBp: wholesaleMarginBp(product.category) });
}

/** What selling `quantity` pays now, or null if the market refuses it. */
export function quoteSell(product: WorldProduct, quantity: number): number | null {
  const values = { price: product.currentPriceCents, depth: product.depthUnits, flow: product.flow, quantity };
  if (quantity <= 0 || !orderWithinMarket(values)) return null;
  return marketSellProceedsRule.evaluate(values);
}

/** Moves the product's flow as an order placed now would (the next bot prices after it). */
export function moveFlow(product: WorldProduct, quantity: number, action: 'buy' | 'sell'): void {
  product.flow += action === 'buy' ? quantity : -quantity;
}
