import { describe, expect, it } from 'vitest';
import { axisDollars } from './WeeklyLineChart';

describe('chart axis dollars', () => {
  it('reads like its neighbours: $0, $400K, $1.6M', () => {
    expect(axisDollars(0)).toBe('$0');
    expect(axisDollars(-0)).toBe('$0');
    expect(axisDollars(400_000)).toBe('$400K');
    expect(axisDollars(1_600_000)).toBe('$1.6M');
    expect(axisDollars(-25_000)).toBe('-$25K');
    expect(axisDollars(47.5)).toBe('$47.50');
  });
});
