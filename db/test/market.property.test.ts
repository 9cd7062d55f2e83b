/**
 * No round trip on the exchange pays (docs/economy.md, "The market"), for EVERY product of the
 * catalogue (its real base price and depth) with random flows and order sizes (fast-check, fixed
 * seed): buy then sell, or sell then buy back, in the same week or across the turn's price update
 * (at the noise's expectation, 0), for any order that walks the price curve within about 60% of the
 * base price (|ln(price on the curve / base)| < 0.45): the 10% drift back toward base is then smaller
 * than the 5% spread. Only after a dump far below base (or a squeeze far above) does the drift pay.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { marketBuyCostRule, marketSellProceedsRule, nextMarketPriceRule, orderWithinMarket } from '@marketcraft/shared';
import { CATALOGUE } from '../src/seed/index.ts';
import { PRODUCTS } from '../src/seed/data/products.ts';

const products = PRODUCTS.map((product) => ({
  name: product.name,
  base: CATALOGUE.basePriceCents.get(product.name)!,
  depth: CATALOGUE.depthUnits.get(product.name)!,
}));

/** ln(price on the curve / base) after a flow. */
const gap = (price: number, flow: number, depth: number, base: number) => Math.log(price / base) + flow / depth;

/** A week's state of one product: its posted price, this week's flow, an order: all of its walk within ~60% of base. */
const state = (base: number, depth: number) =>
  fc
    .record({
      priceFactor: fc.double({ min: 0.6, max: 1.6, noNaN: true }),
      flow: fc.integer({ min: -depth, max: depth }),
      quantity: fc.integer({ min: 1, max: depth }),
    })
    .map(({ priceFactor, flow, quantity }) => ({ price: Math.max(1, Math.round(base * priceFactor)), flow, quantity }))
    .filter(
      ({ price, flow, quantity }) =>
        [flow - quantity, flow, flow + quantity].every((walked) => Math.abs(gap(price, walked, depth, base)) < 0.45) &&
        orderWithinMarket({ price, depth, flow, quantity }),
    );

const buy = (price: number, depth: number, flow: number, quantity: number) => marketBuyCostRule.evaluate({ price, depth, flow, quantity });
const sell = (price: number, depth: number, flow: number, quantity: number) => marketSellProceedsRule.evaluate({ price, depth, flow, quantity });
const nextWeek = (price: number, depth: number, flow: number, base: number) =>
  nextMarketPriceRule.evaluate({ price, depth, flow, basePrice: base, targetPrice: base, noiseBp: 0 });

describe('no round trip on the market pays, for every product', () => {
  it('covers all 304 products', () => {
    expect(products).toHaveLength(304);
  });

  it('same week: buying then selling back, or selling then buying back, loses', () => {
    for (const [index, product] of products.entries()) {
      for (const { price, flow, quantity } of fc.sample(state(product.base, product.depth), { numRuns: 25, seed: 9_000 + index })) {
        const paid = buy(price, product.depth, flow, quantity);
        expect(sell(price, product.depth, flow + quantity, quantity), product.name).toBeLessThan(paid);
        const received = sell(price, product.depth, flow, quantity);
        expect(buy(price, product.depth, flow - quantity, quantity), product.name).toBeGreaterThan(received);
      }
    }
  });

  it('across the turn: buying to sell next week, or selling to buy back next week, loses (expected noise)', () => {
    for (const [index, product] of products.entries()) {
      for (const { price, flow, quantity } of fc.sample(state(product.base, product.depth), { numRuns: 25, seed: 19_000 + index })) {
        const paid = buy(price, product.depth, flow, quantity);
        const laterHigh = nextWeek(price, product.depth, flow + quantity, product.base);
        expect(sell(laterHigh, product.depth, 0, quantity), `${product.name} bought at ${price} (base ${product.base})`).toBeLessThan(paid);
        const received = sell(price, product.depth, flow, quantity);
        const laterLow = nextWeek(price, product.depth, flow - quantity, product.base);
        expect(buy(laterLow, product.depth, 0, quantity), `${product.name} sold at ${price} (base ${product.base})`).toBeGreaterThan(received);
      }
    }
  });
});
