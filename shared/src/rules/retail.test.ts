import { describe, expect, it } from 'vitest';
import { SALES_MAX_PRICE_MULTIPLE } from '../constants.ts';
import { bestShelfPrice, shelfOutcomeAt, type ShelfMarket } from './retail.ts';

// A city alone on the product: R = $10.00, 1,000 units at R, room for everything.
const alone: ShelfMarket = {
  referenceCents: 1_000,
  baseDemand: 1_000,
  others: [],
  storeBonus: 0,
  priceBonus: 0,
  capacityCents: 100_000_000,
  units: 1_000_000,
  unitCostCents: 500,
};

describe("the shelf price the store's forecast finds best", () => {
  it('alone, with cheap goods: the price where the city stops buying double (R / 2^(1/4)), not lower', () => {
    const best = bestShelfPrice(alone);
    // Below R / 2^(1/4) the city buys 2x its demand at most; above it fewer, by the fourth power.
    expect(Math.abs(best.priceCents - 1_000 / 2 ** 0.25)).toBeLessThanOrEqual(2);
    expect(best.units).toBeGreaterThanOrEqual(1_990);
  });

  it('alone, with goods bought at R: a third over cost (the margin x units peak of a fourth-power demand)', () => {
    const best = bestShelfPrice({ ...alone, unitCostCents: 1_000 });
    expect(Math.abs(best.priceCents - 4_000 / 3)).toBeLessThanOrEqual(5);
    // The spec's 50% markup earns less than it.
    expect(shelfOutcomeAt({ ...alone, unitCostCents: 1_000 }, 1_500).marginCents).toBeLessThan(best.marginCents);
  });

  it('with few units, the highest price that still sells them all; within capacity', () => {
    const few = bestShelfPrice({ ...alone, units: 100 });
    expect(few.units).toBe(100);
    expect(shelfOutcomeAt({ ...alone, units: 100 }, few.priceCents + 1).units).toBeLessThan(100);
    const small = bestShelfPrice({ ...alone, capacityCents: 50_000 });
    expect(small.revenueCents).toBeLessThanOrEqual(50_000);
  });

  it('a cheaper rival takes shoppers: the best price earns less than alone, and never above 3R', () => {
    const rival = bestShelfPrice({ ...alone, others: [{ weight: 4, priceCents: 700 }] });
    expect(rival.marginCents).toBeLessThan(bestShelfPrice(alone).marginCents);
    expect(rival.priceCents).toBeLessThanOrEqual(SALES_MAX_PRICE_MULTIPLE * alone.referenceCents);
  });

  it('goods that cost more than shoppers ever pay: the price that loses least, near the highest they still pay', () => {
    const best = bestShelfPrice({ ...alone, unitCostCents: 5_000 });
    expect(best.priceCents).toBeGreaterThan(0.95 * SALES_MAX_PRICE_MULTIPLE * alone.referenceCents);
    expect(best.marginCents).toBeLessThan(0);
  });
});
