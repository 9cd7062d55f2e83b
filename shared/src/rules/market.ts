/**
 * The exchange: one market for every unit bought from or sold to the world (goods) and for every
 * share bought from or sold back to its issuer (docs/economy.md, "The market" and "Shares").
 *
 * Each traded thing has a posted price P (set by the turn), a depth D (units) and this week's net
 * flow q (units bought minus units sold so far this week). The price on the curve after a flow x is
 * P x e^(x/D): every unit bought raises it, every unit sold lowers it, so an order "walks the
 * curve": a large order costs more per unit than a small one. On top of the curve buyers pay a
 * half-spread h (2.5%) and sellers receive h less. Buying n then selling n the same week returns
 * the cost x (1 - h)/(1 + h): a round trip always loses about 5%.
 *
 * Money rounds against the trader (buy: up, sell: down), so no order ever gains a cent from
 * rounding.
 */
import { MARKET_HALF_SPREAD_BP, MARKET_REVERSION_PERCENT, MAX_PRICE_FACTOR, MIN_PRICE_FACTOR, WHOLESALE_MARGIN_BP } from '../constants.ts';
import { isConsumerGood } from '../catalog.ts';
import { E, defineRule, type InputSpec, type Node, type Operand } from './expr.ts';

const price: InputSpec = { label: 'Posted price', unit: 'dollars', cents: true, min: 1, max: 10_000_000 };
const depth: InputSpec = { label: 'Market depth', unit: 'units', min: 1, max: 10_000_000 };
const flow: InputSpec = { label: 'Net units bought this week before this order', unit: 'units', min: -10_000_000, max: 10_000_000 };

/** The largest order value (cents) the market takes: $10 billion. Larger orders are refused. */
export const MAX_ORDER_VALUE_CENTS = 1_000_000_000_000;

/** How far from the posted price an order may walk the curve, in depths (with this week's flow). */
export const MARKET_MAX_REACH_DEPTHS = 10;

/** Orders the market can take: within 10 depths of the posted price and at most MAX_ORDER_VALUE_CENTS (marketOrderFitsRule). */
export function orderWithinMarket(values: { price: number; depth: number; flow?: number; quantity: number }): boolean {
  return marketOrderFitsRule.evaluate({ price: values.price, depth: values.depth, flow: values.flow ?? 0, quantity: values.quantity }) === 1;
}
const quantity: InputSpec = { label: 'Units in the order', unit: 'units', min: 0, max: 1_000_000 };

/**
 * 1 when the market takes the order, else 0: |flow| + n within MARKET_MAX_REACH_DEPTHS depths, and
 * the price at the far end of the walk times the depth at most MAX_ORDER_VALUE_CENTS. The
 * statements that place orders check it in SQL (ruleSql), so a refused order writes nothing.
 */
export const marketOrderFitsRule = defineRule({
  name: 'marketOrderFits',
  description: 'Whether the market takes the order (1) or it is too large (0)',
  unit: 'count',
  inputs: { price, depth, flow, quantity },
  formula: (v) => {
    const reach = E.add(E.max(v.flow, E.sub(0, v.flow)), v.quantity);
    return E.if(
      E.cmp(reach, '<=', E.mul(MARKET_MAX_REACH_DEPTHS, v.depth)),
      E.if(E.cmp(E.mul(v.price, v.depth, E.exp(E.div(reach, v.depth))), '<=', MAX_ORDER_VALUE_CENTS), 1, 0),
      0,
    );
  },
});

/** The area under the price curve between flows a and b: P x D x (e^(b/D) - e^(a/D)). */
function curveArea(p: Node, d: Node, from: Operand, to: Operand): Node {
  return E.mul(p, d, E.sub(E.exp(E.div(to, d)), E.exp(E.div(from, d))));
}

/** Cents a buyer pays for n units: ceil(P x D x (e^((q+n)/D) - e^(q/D)) x (1 + h)). */
export const marketBuyCostRule = defineRule({
  name: 'marketBuyCost',
  description: "What an order of n units costs: the price curve walked from this week's flow, plus the spread",
  unit: 'dollars',
  cents: true,
  inputs: { price, depth, flow, quantity },
  valid: orderWithinMarket,
  formula: (v) => E.ceil(E.mul(curveArea(v.price, v.depth, v.flow, E.add(v.flow, v.quantity)), E.div(10_000 + MARKET_HALF_SPREAD_BP, 10_000))),
});

/** The wholesale margin of a product of this category, basis points: WHOLESALE_MARGIN_BP for consumer goods, else 0. */
export function wholesaleMarginBp(category: string): number {
  return isConsumerGood(category) ? WHOLESALE_MARGIN_BP : 0;
}

/**
 * Cents a buyer pays for n units of a good: the curve walked, plus the spread and the product's
 * wholesale margin m (wholesaleMarginBp): ceil(P x D x (e^((q+n)/D) - e^(q/D)) x (1 + h + m)).
 * With m = 0 it is marketBuyCostRule. Every goods purchase (marketTrade's statement, walkOrders, the
 * screens' buy prices, quotes) prices with it; shares use marketBuyCostRule.
 */
export const goodsBuyCostRule = defineRule({
  name: 'goodsBuyCost',
  description: "What buying n units costs: the price curve walked from this week's flow, plus the spread and, for consumer goods, the wholesale margin",
  unit: 'dollars',
  cents: true,
  inputs: { price, depth, flow, quantity, marginBp: { label: 'Wholesale margin (basis points)', unit: 'count', min: 0, max: 10_000 } },
  valid: (v) => orderWithinMarket(v),
  formula: (v) =>
    E.ceil(E.mul(curveArea(v.price, v.depth, v.flow, E.add(v.flow, v.quantity)), E.div(E.add(10_000 + MARKET_HALF_SPREAD_BP, v.marginBp), 10_000))),
});

/** Cents a seller receives for n units: floor(P x D x (e^(q/D) - e^((q-n)/D)) x (1 - h)). */
export const marketSellProceedsRule = defineRule({
  name: 'marketSellProceeds',
  description: "What selling n units pays: the price curve walked down from this week's flow, less the spread",
  unit: 'dollars',
  cents: true,
  inputs: { price, depth, flow, quantity },
  valid: orderWithinMarket,
  formula: (v) => E.floor(E.mul(curveArea(v.price, v.depth, E.sub(v.flow, v.quantity), v.flow), E.div(10_000 - MARKET_HALF_SPREAD_BP, 10_000))),
});

/**
 * What a holding is worth: selling all of it at the posted price (flow 0), walking the curve down,
 * less the spread. Net worth counts goods and shares this way, so buying never raises it by itself.
 */
export const liquidationValueRule = defineRule({
  name: 'liquidationValue',
  description: 'What selling the whole holding would pay now',
  unit: 'dollars',
  cents: true,
  inputs: { price, depth, quantity: { label: 'Units held', unit: 'units', min: 0, max: 100_000_000 } },
  valid: orderWithinMarket,
  formula: (v) => E.floor(E.mul(curveArea(v.price, v.depth, E.sub(0, v.quantity), 0), E.div(10_000 - MARKET_HALF_SPREAD_BP, 10_000))),
});

/** The price on the curve now (the mid): round(P x e^(q/D)). */
export const marketMidPriceRule = defineRule({
  name: 'marketMidPrice',
  description: "The price on the curve after this week's trading so far",
  unit: 'dollars',
  cents: true,
  inputs: { price, depth, flow },
  valid: (v) => orderWithinMarket({ ...v, quantity: 0 }),
  formula: (v) => E.max(1, E.roundHalfUp(E.mul(v.price, E.exp(E.div(v.flow, v.depth))))),
});

/**
 * The next posted price of a product (the turn): the week's trading moves it along the curve, then
 * it closes 10% (MARKET_REVERSION_PERCENT) of its log-distance to its target T and moves by the world's seeded noise:
 * P' = exp(0.9 x (ln P + q/D) + 0.1 x ln T + noise), within [0.25 B, 4 B]. The target is the base
 * price B, or B moved by an instructor's price shock while it lasts (docs/worlds.md, "Shocks").
 */
export const nextMarketPriceRule = defineRule({
  name: 'nextMarketPrice',
  description: "Next week's price: this week's trading, drift back toward the base price, and the world outside",
  unit: 'dollars',
  cents: true,
  inputs: {
    price,
    depth,
    flow,
    basePrice: { label: 'Base price', unit: 'dollars', cents: true, min: 1, max: 100_000_000 },
    targetPrice: { label: 'Price it drifts toward (the base, or the base moved by a price shock)', unit: 'dollars', cents: true, min: 1, max: 100_000_000 },
    noiseBp: { label: 'World noise (basis points)', unit: 'count', min: -2_000, max: 2_000 },
  },
  valid: (v) => orderWithinMarket({ ...v, quantity: 0 }),
  formula: (v) => {
    const keep = (100 - MARKET_REVERSION_PERCENT) / 100;
    const logPrice = E.add(
      E.mul(keep, E.add(E.ln(v.price), E.div(v.flow, v.depth))),
      E.mul(MARKET_REVERSION_PERCENT / 100, E.ln(v.targetPrice)),
      E.div(v.noiseBp, 10_000),
    );
    return E.clamp(E.roundHalfUp(E.exp(logPrice)), lowestPrice(v.basePrice), highestPrice(v.basePrice));
  },
});

/** The exchange's bounds on a product's posted price: 0.25 x base (at least 1 cent) and 4 x base. */
function lowestPrice(basePrice: Operand): Node {
  return E.max(1, E.divCeil(E.mul(basePrice, Math.round(MIN_PRICE_FACTOR * 100)), 100));
}
function highestPrice(basePrice: Operand): Node {
  return E.divFloor(E.mul(basePrice, Math.round(MAX_PRICE_FACTOR * 100)), 100);
}

/**
 * An instructor's price shock (docs/worlds.md, "Shocks"), within the exchange's bounds:
 * clamp(round(P x factor), 0.25 B, 4 B), the factor in basis points (10,000 = no change). Used
 * twice: the posted price moves by it the moment the shock is added (no week's notice to trade on),
 * and while the shock lasts the turn's drift goes toward the base moved by it (P = B) instead of
 * the base, so when it ends nothing jumps back: the price drifts home like after any other move.
 */
export const shockedPriceRule = defineRule({
  name: 'shockedPrice',
  description: "A price moved by an instructor's price shock, within the exchange's bounds",
  unit: 'dollars',
  cents: true,
  inputs: {
    price,
    basePrice: { label: 'Base price', unit: 'dollars', cents: true, min: 1, max: 100_000_000 },
    factorBp: { label: 'Shock factor (basis points, 10,000 = none)', unit: 'count', min: 1, max: 1_000_000 },
  },
  formula: (v) => E.clamp(E.divRound(E.mul(v.price, v.factorBp), 10_000), lowestPrice(v.basePrice), highestPrice(v.basePrice)),
});

/**
 * Percent change from `previous` to `current`, rounded to two decimals; 0 without a previous price
 * (spec section 9's price change: (current - base) / base; a share's or a product's week on week).
 */
export function priceChangePercent(current: number, previous: number | null | undefined): number {
  if (previous === null || previous === undefined || previous <= 0) return 0;
  return Math.round(((current - previous) / previous) * 10_000) / 100;
}
