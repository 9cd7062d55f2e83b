import { describe, expect, it } from 'vitest';
import { cappedReduction, inputNeeded, operatingCostCents, outputFromInput, plannedOutput, taxCents } from './turn.ts';
import { salesDemandFactor, salesPriceFactor, storeRevenueCents, storeUnitsSold } from './sales.ts';
import { nextCityPriceCents, nextProductPriceCents, recoveredDemand } from './prices.ts';
import { dividendPerShareCents, nextSharePriceCents } from './stocks.ts';
import { effectiveTaxRate, electionTaxRate, rollPoliticalEvent } from './politics.ts';
import { mulberry32, turnRng, turnSeed } from './random.ts';

describe('turn rules', () => {
  it('planned output = round(output x rate x efficiency x (100 + bonus) / 10^6)', () => {
    expect(plannedOutput(100, 100, 75, 15)).toBe(86);
    expect(plannedOutput(100, 100, 100, 0)).toBe(100);
    expect(plannedOutput(80, 200, 25, 0)).toBe(40);
  });

  it('inputs: ceil for what is needed, floor for what stock allows, reduction capped at 50 and whole', () => {
    expect(inputNeeded(80, 150, 80, 0)).toBe(150);
    expect(inputNeeded(52, 150, 80, 0)).toBe(98); // 97.5 -> 98
    expect(outputFromInput(98, 150, 80, 0)).toBe(52);
    expect(inputNeeded(80, 150, 80, 10)).toBe(135);
    expect(cappedReduction(80)).toBe(50);
    expect(cappedReduction(7.4)).toBe(7);
    expect(taxCents(10_000, 20)).toBe(2_000);
    expect(operatingCostCents(40_000, 15)).toBe(34_000);
    expect(operatingCostCents(40_000, 80)).toBe(20_000); // capped at 50%
    expect(operatingCostCents(33_333, 7.4)).toBe(31_000); // 7% (whole): 30,999.69 rounds to 31,000
    expect(taxCents(-5, 20)).toBe(0);
  });

  it('store sales fall with price, rise with demand and bonus, never exceed stock', () => {
    expect(salesPriceFactor(100, 100)).toBe(1);
    expect(salesPriceFactor(200, 100)).toBe(0.25);
    expect(salesPriceFactor(301, 100)).toBe(0);
    expect(salesPriceFactor(10, 100)).toBe(2);
    expect(salesDemandFactor(60)).toBe(1.2);
    expect(storeUnitsSold({ stock: 300, baseUnits: 200, demandLevel: 60, retailCents: 3_900, marketCents: 2_625, bonusPercent: 10 })).toBe(119);
    expect(storeUnitsSold({ stock: 50, baseUnits: 200, demandLevel: 60, retailCents: 2_625, marketCents: 2_625, bonusPercent: 0 })).toBe(50);
    expect(storeRevenueCents(119, 3_900, 0)).toBe(464_100);
    expect(storeRevenueCents(10, 1_000, 5)).toBe(10_500);
  });

  it('prices move with net buying, revert toward base, stay in [0.25x, 4x]; demand recovers', () => {
    expect(nextProductPriceCents(3_190, 3_190, 500, 0)).toBe(3_334);
    expect(nextProductPriceCents(1_000, 1_000, 0, 0)).toBe(1_000);
    expect(nextProductPriceCents(4_000, 1_000, 5_000, 0)).toBe(4_000); // 4,400 - 340 = 4,060, capped at 4x
    expect(nextProductPriceCents(4_000, 1_000, 0, 0)).toBe(3_700);
    expect(nextProductPriceCents(260, 1_000, 0, 100_000)).toBe(311); // 234 + 10% of the gap to base
    expect(nextProductPriceCents(250, 1_000, 0, 100_000)).toBeGreaterThanOrEqual(250);
    expect(nextCityPriceCents(1_100, 1_000, 1_050)).toBe(1_155);
    expect(recoveredDemand(54, 60)).toBe(56);
    expect(recoveredDemand(59, 60)).toBe(60);
    expect(recoveredDemand(80, 60)).toBe(75);
  });

  it('share prices close 30% of the gap, never negative; dividends 20% of profit per share, floored', () => {
    expect(nextSharePriceCents(10_000, 10_000_000, 100)).toBe(37_000);
    expect(nextSharePriceCents(10_000, -5_000_000, 100)).toBe(7_000);
    expect(nextSharePriceCents(0, -1, 100)).toBe(0);
    expect(dividendPerShareCents(123_456, 100)).toBe(246);
    expect(dividendPerShareCents(-1, 100)).toBe(0);
  });

  it('politics: tax bounds, elections, event rolls', () => {
    expect(effectiveTaxRate(20, 5, 0)).toBe(25);
    expect(effectiveTaxRate(2, 0, 5)).toBe(0);
    expect(electionTaxRate(25, 25, true)).toBe(22);
    expect(electionTaxRate(16, 25, true)).toBe(15);
    expect(electionTaxRate(15, 25, true)).toBe(15);
    expect(electionTaxRate(20, 25, false)).toBe(23);
    const rolls = Array.from({ length: 10_000 }, (_, index) => rollPoliticalEvent(mulberry32(index), 0));
    const events = rolls.filter((roll) => roll !== null);
    expect(events.length / rolls.length).toBeGreaterThan(0.08);
    expect(events.length / rolls.length).toBeLessThan(0.12);
    const favourable = (influence: number) => {
      let count = 0;
      let total = 0;
      for (let index = 0; index < 20_000; index += 1) {
        const roll = rollPoliticalEvent(mulberry32(index), influence);
        if (!roll) continue;
        total += 1;
        if (roll.type !== 'tax_increase') count += 1;
      }
      return count / total;
    };
    expect(favourable(1_000)).toBeGreaterThan(favourable(0) + 0.2);
  });

  it('the generator is seeded by (world seed, week)', () => {
    expect(turnSeed(1, 2)).toBe(turnSeed(1, 2));
    expect(turnSeed(1, 2)).not.toBe(turnSeed(1, 3));
    const a = turnRng(20261121, 5);
    const b = turnRng(20261121, 5);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
  });
});
