import { describe, expect, it } from 'vitest';
import { nextSort, sortRows } from './sortTable';

const rows = [
  { name: 'Wheat', price: 2, change: 1.5 },
  { name: 'Bread', price: 4, change: null },
  { name: 'Apples', price: 2, change: -3 },
  { name: 'Steel', price: 40, change: 0 },
];
const valueOf = (row: (typeof rows)[number], key: 'name' | 'price' | 'change') => row[key];
const nameOf = (row: (typeof rows)[number]) => row.name;

describe('sorting a table by one column', () => {
  it('sorts numbers and names both ways, ties by name', () => {
    expect(sortRows(rows, { key: 'price', direction: 'ascending' }, valueOf, nameOf).map(nameOf)).toEqual(['Apples', 'Wheat', 'Bread', 'Steel']);
    expect(sortRows(rows, { key: 'price', direction: 'descending' }, valueOf, nameOf).map(nameOf)).toEqual(['Steel', 'Bread', 'Apples', 'Wheat']);
    expect(sortRows(rows, { key: 'name', direction: 'descending' }, valueOf, nameOf).map(nameOf)).toEqual(['Wheat', 'Steel', 'Bread', 'Apples']);
  });
  it('puts rows without a value last, whichever the direction', () => {
    expect(sortRows(rows, { key: 'change', direction: 'ascending' }, valueOf, nameOf).map(nameOf)).toEqual(['Apples', 'Steel', 'Wheat', 'Bread']);
    expect(sortRows(rows, { key: 'change', direction: 'descending' }, valueOf, nameOf).map(nameOf)).toEqual(['Wheat', 'Steel', 'Apples', 'Bread']);
  });
  it('flips the direction on the same column, starts a new column with the given direction', () => {
    expect(nextSort({ key: 'price', direction: 'ascending' }, 'price')).toEqual({ key: 'price', direction: 'descending' });
    expect(nextSort({ key: 'price', direction: 'descending' }, 'price')).toEqual({ key: 'price', direction: 'ascending' });
    expect(nextSort<'price' | 'change'>({ key: 'price', direction: 'ascending' }, 'change', 'descending')).toEqual({ key: 'change', direction: 'descending' });
  });
});
