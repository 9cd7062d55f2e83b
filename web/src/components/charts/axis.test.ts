import { describe, expect, it } from 'vitest';
import { axisDollars, dollarAxisLabels, dollarDomain } from './axis';

describe('chart axis dollars', () => {
  it('reads like its neighbours: $0, $400K, $1.6M', () => {
    expect(axisDollars(0)).toBe('$0');
    expect(axisDollars(-0)).toBe('$0');
    expect(axisDollars(400_000)).toBe('$400K');
    expect(axisDollars(1_600_000)).toBe('$1.6M');
    expect(axisDollars(-25_000)).toBe('-$25K');
    expect(axisDollars(47.5)).toBe('$47.50');
    expect(axisDollars(12_000_000)).toBe('$12M');
  });

  it('tells close ticks apart: $97.5K and $100K, $1.52M and $1.56M', () => {
    expect(axisDollars(97_500)).toBe('$97.5K');
    expect(axisDollars(102_500)).toBe('$102.5K');
    expect(axisDollars(1_520_000)).toBe('$1.52M');
    expect(axisDollars(1_560_000)).toBe('$1.56M');
  });
});

describe('chart dollar range', () => {
  it("keeps the data's own range when the line moves", () => {
    expect(dollarDomain([500_000, 367_625.79, 341_821.41])).toEqual(['auto', 'auto']);
    expect(dollarDomain([])).toEqual(['auto', 'auto']);
    expect(dollarDomain([0, 0])).toEqual(['auto', 'auto']);
  });

  it('widens a flat line to 2% of its value on round numbers, so its ticks read differently', () => {
    const [low, high] = dollarDomain([100_000, 100_000, null]) as [number, number];
    expect([low, high]).toEqual([99_000, 101_000]);
    // Five evenly spaced ticks of that range all read differently.
    const labels = [0, 1, 2, 3, 4].map((step) => axisDollars(low + ((high - low) * step) / 4));
    expect(new Set(labels).size).toBe(5);
    const [priceLow, priceHigh] = dollarDomain([47.65, 47.65]) as [number, number];
    expect(priceLow).toBeCloseTo(47.1, 6);
    expect(priceHigh).toBeCloseTo(48.2, 6);
    const [bigLow, bigHigh] = dollarDomain([1_600_000, 1_601_000]) as [number, number];
    expect([bigLow, bigHigh]).toEqual([1_580_000, 1_620_000]);
    expect(new Set([0, 1, 2, 3, 4].map((step) => axisDollars(bigLow + ((bigHigh - bigLow) * step) / 4))).size).toBe(5);
  });
});

describe('the labels of one axis', () => {
  it('share one format: a share price between $94 and $102 reads in cents on every tick', () => {
    const labels = dollarAxisLabels([100.85, 95.98, 97.37]);
    expect([94, 96, 98, 100, 102].map(labels)).toEqual(['$94.00', '$96.00', '$98.00', '$100.00', '$102.00']);
    // What each label chose alone: "$98.00" under "$100".
    expect([98, 100].map(axisDollars)).toEqual(['$98.00', '$100']);
  });

  it('writes whole dollars when the steps are whole, and keeps K and M for large values', () => {
    const prices = dollarAxisLabels([62, 139.5]);
    expect([60, 80, 100, 120, 140].map(prices)).toEqual(['$60', '$80', '$100', '$120', '$140']);
    const cash = dollarAxisLabels([500_000, 367_625.79]);
    expect([350_000, 400_000, 500_000].map(cash)).toEqual(['$350K', '$400K', '$500K']);
    // A flat price widened by dollarDomain to $47.10-$48.20 reads in cents.
    expect(dollarAxisLabels([47.65, 47.65])(47.5)).toBe('$47.50');
    expect(dollarAxisLabels([])(100)).toBe('$100');
  });
});
