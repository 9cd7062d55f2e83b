import { describe, expect, it } from 'vitest';
import { netWorthCents, priceChangePercent, sharesAvailable } from './networth.ts';

describe('net worth', () => {
  it('is cash plus total shares times the share price', () => {
    expect(netWorthCents(10_000_000, 100, 10_000)).toBe(11_000_000);
    expect(netWorthCents(-500, 100, 0)).toBe(-500);
  });
  it('shares available never go below zero', () => {
    expect(sharesAvailable(100, 40)).toBe(60);
    expect(sharesAvailable(100, 120)).toBe(0);
  });
  it('price change percent is rounded to 2 decimals and 0 without a previous price', () => {
    expect(priceChangePercent(110, 80)).toBe(37.5);
    expect(priceChangePercent(100, 300)).toBe(-66.67);
    expect(priceChangePercent(100, null)).toBe(0);
    expect(priceChangePercent(100, 0)).toBe(0);
  });
});
