/**
 * Properties of the turn's rules over random inputs (fast-check, fixed seed: deterministic). These
 * are what the worker's SQL relies on: docs/invariants.md.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { inputNeeded, outputFromInput, plannedOutput, taxCents } from './turn.ts';
import { storeRevenueCents, storeUnitsSold } from './sales.ts';
import { nextProductPriceCents, recoveredDemand } from './prices.ts';
import { dividendPerShareCents, nextSharePriceCents } from './stocks.ts';
import { effectiveTaxRate } from './politics.ts';
import { buildingEfficiency } from './production.ts';

const runs = { numRuns: 500, seed: 20261122 };

describe('turn rules, for any inputs', () => {
  it('inputs: what stock allows never needs more than that stock, and what is needed allows at least the units', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5_000 }),
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 0, max: 50 }),
        (units, inputQuantity, outputQuantity, reduction) => {
          const needed = inputNeeded(units, inputQuantity, outputQuantity, reduction);
          expect(outputFromInput(needed, inputQuantity, outputQuantity, reduction)).toBeGreaterThanOrEqual(units);
          const allowed = outputFromInput(units, inputQuantity, outputQuantity, reduction);
          expect(inputNeeded(allowed, inputQuantity, outputQuantity, reduction)).toBeLessThanOrEqual(units);
        },
      ),
      runs,
    );
  });

  it('planned output grows with staff, equipment, rate and bonus, and is never negative', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 10, max: 200 }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 200 }),
        (outputQuantity, rate, employees, equipment, bonus) => {
          const planned = plannedOutput(outputQuantity, rate, buildingEfficiency(employees, equipment), bonus);
          expect(planned).toBeGreaterThanOrEqual(0);
          expect(plannedOutput(outputQuantity, rate, buildingEfficiency(employees + 1, equipment), bonus)).toBeGreaterThanOrEqual(planned);
          expect(plannedOutput(outputQuantity, Math.min(200, rate + 10), buildingEfficiency(employees, equipment), bonus)).toBeGreaterThanOrEqual(planned);
          expect(plannedOutput(outputQuantity, rate, buildingEfficiency(employees, equipment), bonus + 5)).toBeGreaterThanOrEqual(planned);
        },
      ),
      runs,
    );
  });

  it('store sales: between 0 and the stock, fewer at a higher price, more with demand', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 0, max: 100 }),
        (stock, demandLevel, retailCents, marketCents, bonusPercent) => {
          const sale = { stock, baseUnits: 200, demandLevel, retailCents, marketCents, bonusPercent };
          const units = storeUnitsSold(sale);
          expect(units).toBeGreaterThanOrEqual(0);
          expect(units).toBeLessThanOrEqual(stock);
          expect(storeUnitsSold({ ...sale, retailCents: retailCents + 1 })).toBeLessThanOrEqual(units);
          expect(storeUnitsSold({ ...sale, demandLevel: Math.min(100, demandLevel + 1) })).toBeGreaterThanOrEqual(units);
          expect(storeRevenueCents(units, retailCents, 0)).toBe(units * retailCents);
        },
      ),
      runs,
    );
  });

  it('product prices stay within [0.25x, 4x] of base whatever is traded; demand recovers toward base without passing it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.double({ min: 0.25, max: 4, noNaN: true }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        (baseCents, factor, bought, sold, level, base) => {
          const price = nextProductPriceCents(Math.max(1, Math.round(baseCents * factor)), baseCents, bought, sold);
          expect(price).toBeGreaterThanOrEqual(Math.max(1, Math.ceil(baseCents * 0.25)));
          expect(price).toBeLessThanOrEqual(Math.floor(baseCents * 4));
          const recovered = recoveredDemand(level, base);
          expect(Math.abs(base - recovered)).toBeLessThanOrEqual(Math.abs(base - level));
          expect(Math.sign(base - recovered) * Math.sign(base - level)).toBeGreaterThanOrEqual(0);
        },
      ),
      runs,
    );
  });

  it('share prices never go negative and move toward net worth per share; dividends pay at most 20% of profit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
        (oldCents, netWorthCents, totalShares, profitCents) => {
          const price = nextSharePriceCents(oldCents, netWorthCents, totalShares);
          const target = Math.max(0, netWorthCents / totalShares);
          expect(price).toBeGreaterThanOrEqual(0);
          expect(Math.abs(target - price)).toBeLessThanOrEqual(Math.abs(target - oldCents) + 0.5);
          const perShare = dividendPerShareCents(profitCents, totalShares);
          expect(perShare).toBeGreaterThanOrEqual(0);
          expect(perShare * totalShares).toBeLessThanOrEqual(Math.max(0, profitCents * 0.2));
        },
      ),
      runs,
    );
  });

  it('tax rates stay within 0-100% and taxes are never negative or above the profit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
        (rate, increase, cut, profitCents) => {
          const effective = effectiveTaxRate(rate, increase, cut);
          expect(effective).toBeGreaterThanOrEqual(0);
          expect(effective).toBeLessThanOrEqual(100);
          const tax = taxCents(profitCents, effective);
          expect(tax).toBeGreaterThanOrEqual(0);
          expect(tax).toBeLessThanOrEqual(Math.max(0, profitCents));
        },
      ),
      runs,
    );
  });
});
