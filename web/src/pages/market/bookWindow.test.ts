import { describe, expect, it } from 'vitest';
import { bookWindow } from './bookWindow';

// A book around a posted price of $54: the maker's schedule and a few players' orders.
const market = [
  { price: 52, quantity: 1_200 },
  { price: 40, quantity: 5_000 },
  { price: 20, quantity: 9_000 },
  { price: 56, quantity: 1_300 },
  { price: 90, quantity: 6_000 },
  { price: 170, quantity: 11_000 },
];

describe("the auction chart's window", () => {
  it('shows the whole of a book whose orders are all near the posted price', () => {
    expect(bookWindow(54, null, market)).toEqual({ maxPrice: 200, maxUnits: 12_000, clipped: false, lowPrice: 13.5, highPrice: 216 });
  });

  it('is not stretched by a million units bid at $0.01 nor by an ask at $1,000,000: they are off the chart, and it says so', () => {
    const attacked = [...market, { price: 0.01, quantity: 1_009_000 }, { price: 1_000_000, quantity: 11_001 }];
    expect(bookWindow(54, null, attacked)).toMatchObject({ maxPrice: 200, maxUnits: 12_000, clipped: true });
  });

  it('always shows the crossing and around it, even far from the posted price', () => {
    expect(bookWindow(10, 55, market)).toEqual({ maxPrice: 200, maxUnits: 12_000, clipped: false, lowPrice: 2.5, highPrice: 220 });
    expect(bookWindow(200, 60, market)).toMatchObject({ maxPrice: 200, maxUnits: 12_000, lowPrice: 15, highPrice: 800, clipped: false });
    expect(bookWindow(300, 100, market)).toMatchObject({ lowPrice: 25, maxUnits: 12_000, clipped: true });
  });
});
