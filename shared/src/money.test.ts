import { describe, expect, it } from 'vitest';
import { formatCents, formatDollars } from './money.ts';

describe('money formatting', () => {
  it('shows dollars with thousands separators and two decimals', () => {
    expect(formatDollars(25000)).toBe('$25,000.00');
    expect(formatDollars(-1300)).toBe('-$1,300.00');
    expect(formatCents(123456)).toBe('$1,234.56');
  });

  it('never shows "-$0.00": a zero cost negated, or less than half a cent below zero, is $0.00', () => {
    expect(formatDollars(-0)).toBe('$0.00');
    expect(formatDollars(-0.004)).toBe('$0.00');
    expect(formatCents(-0)).toBe('$0.00');
    expect(formatCents(-0.4)).toBe('$0.00');
    expect(formatDollars(-0.01)).toBe('-$0.01');
  });
});
