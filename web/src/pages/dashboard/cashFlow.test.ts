import { describe, expect, it } from 'vitest';
import { cashAfterPoints } from './cashFlow';

describe('cashAfterPoints', () => {
  it("uses each turn's recorded cash, labelled T1..Tn", () => {
    const history = [
      { week: 1, amount: 100, cash_after: 1100 },
      { week: 2, amount: -50, cash_after: 1050 },
    ];
    expect(cashAfterPoints(history)).toEqual([
      { label: 'T1', cash: 1100, week: 1 },
      { label: 'T2', cash: 1050, week: 2 },
    ]);
  });

  it('keeps only the last 12 turns, and is empty without history', () => {
    const history = Array.from({ length: 20 }, (_, index) => ({ week: index + 1, cash_after: 1000 + index }));
    const points = cashAfterPoints(history);
    expect(points).toHaveLength(12);
    expect(points[0]).toEqual({ label: 'T1', cash: 1008, week: 9 });
    expect(points[11]).toEqual({ label: 'T12', cash: 1019, week: 20 });
    expect(cashAfterPoints([])).toEqual([]);
  });
});
