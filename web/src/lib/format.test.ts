import { describe, expect, it } from 'vitest';
import { formatMoney, formatWholeDollars } from './format';

describe('money on screen', () => {
  it('whole dollars: thousands separators, a minus sign only below zero', () => {
    expect(formatWholeDollars(500000)).toBe('$500,000');
    expect(formatWholeDollars(-12912.4)).toBe('-$12,912');
    expect(formatWholeDollars(-0.4)).toBe('$0');
    expect(formatWholeDollars(-0)).toBe('$0');
    expect(formatWholeDollars(null)).toBe('$0');
  });

  it('cents: a zero cost shown negated reads $0.00, not -$0.00', () => {
    expect(formatMoney(-0)).toBe('$0.00');
    expect(formatMoney(-1300)).toBe('-$1,300.00');
  });
});
