import { describe, expect, it } from 'vitest';
import { priceChangePercent } from './market.ts';

describe('price change', () => {
  it('is the percent change rounded to 2 decimals, and 0 without a previous price', () => {
    expect(priceChangePercent(110, 80)).toBe(37.5);
    expect(priceChangePercent(100, 300)).toBe(-66.67);
    expect(priceChangePercent(100, null)).toBe(0);
    expect(priceChangePercent(100, 0)).toBe(0);
  });
});
