import { describe, expect, it } from 'vitest';
import { axisDollars, dollarAxis, dollarDomain } from './axis';

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

describe('the dollar axis of a chart', () => {
  const labelsOf = (values: number[]) => {
    const axis = dollarAxis(values);
    return axis.ticks!.map(axis.tickFormatter);
  };

  it('labels a share price crossing $100 in one format on every tick', () => {
    expect(labelsOf([100.85, 95.98, 97.37])).toEqual(['$94', '$96', '$98', '$100', '$102']);
    expect(dollarAxis([100.85, 95.98, 97.37]).domain).toEqual([94, 102]);
    // What each label chose alone: "$98.00" under "$100".
    expect([98, 100].map(axisDollars)).toEqual(['$98.00', '$100']);
    expect(labelsOf([12.4, 13.1])).toEqual(['$12.40', '$12.60', '$12.80', '$13.00', '$13.20']);
  });

  it('labels a cash line in thousands with the decimals its step needs on every tick', () => {
    // The dashboard's cash after four turns read '$368.5K', '$363K', '$357.5K', '$352K', '$346.5K'.
    expect(labelsOf([367_625.79, 360_000, 354_713.79, 347_861.41])).toEqual(['$345K', '$350K', '$355K', '$360K', '$365K', '$370K']);
    expect(labelsOf([500_000, 367_625.79, 341_821.41])).toEqual(['$300K', '$350K', '$400K', '$450K', '$500K']);
    expect(labelsOf([100_000, 104_000])).toEqual(['$100K', '$101K', '$102K', '$103K', '$104K']);
    expect(labelsOf([1_400_000, 2_100_000])).toEqual(['$1.4M', '$1.6M', '$1.8M', '$2.0M', '$2.2M']);
    expect(labelsOf([-20_000, 30_000])).toEqual(['-$20K', '$0', '$20K', '$40K']);
  });

  it('writes whole dollars when the steps are whole, reads a flat line on distinct ticks, and leaves no data to recharts', () => {
    expect(labelsOf([62, 139.5])).toEqual(['$60', '$80', '$100', '$120', '$140']);
    // A flat $100,000 widened by dollarDomain to $99K-$101K.
    expect(labelsOf([100_000, 100_000])).toEqual(['$99.0K', '$99.5K', '$100.0K', '$100.5K', '$101.0K']);
    expect(labelsOf([47.65, 47.65])).toEqual(['$47.00', '$47.50', '$48.00', '$48.50']);
    expect(dollarAxis([])).toMatchObject({ domain: ['auto', 'auto'] });
    expect(dollarAxis([0, 0]).ticks).toBeUndefined();
  });
});
