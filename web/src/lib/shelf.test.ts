import { describe, expect, it } from 'vitest';
import { shelfState } from './shelf';

describe('shelfState', () => {
  it('a new store with nothing on its shelf is empty, with nothing sold out', () => {
    expect(shelfState([])).toEqual({ empty: true, soldOut: [] });
  });

  it('bread sold out and nothing else on sale: empty, and the bread named', () => {
    expect(shelfState([{ product_name: 'White Bread', quantity: 0, is_active: true }])).toEqual({ empty: true, soldOut: ['White Bread'] });
  });

  it('one product still in stock: not empty, the sold-out one still named', () => {
    const lines = [
      { product_name: 'White Bread', quantity: 0, is_active: true },
      { product_name: 'Milk', quantity: 12, is_active: true },
    ];
    expect(shelfState(lines)).toEqual({ empty: false, soldOut: ['White Bread'] });
  });

  it('stock taken off sale does not sell: empty, and an inactive product is not called sold out', () => {
    expect(shelfState([{ product_name: 'Milk', quantity: 40, is_active: false }])).toEqual({ empty: true, soldOut: [] });
    expect(shelfState([{ product_name: 'Milk', quantity: 0, is_active: false }])).toEqual({ empty: true, soldOut: [] });
  });
});
