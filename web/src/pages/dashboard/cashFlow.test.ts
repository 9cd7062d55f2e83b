import { describe, expect, it } from 'vitest';
import { cashAfterPoints, cashFlowPoints } from './cashFlow';

describe('cashFlowPoints', () => {
  it('reconstructs the cash line backwards from the current cash, labelled T1..Tn', () => {
    expect(cashFlowPoints([100, -50, 25], 1000)).toEqual([
      { label: 'T1', cash: 1025 },
      { label: 'T2', cash: 975 },
      { label: 'T3', cash: 1000 },
    ]);
  });

  it('keeps only the last 12 entries', () => {
    const points = cashFlowPoints(Array.from({ length: 20 }, () => 10), 500);
    expect(points).toHaveLength(12);
    expect(points[0]).toEqual({ label: 'T1', cash: 390 });
    expect(points[11]).toEqual({ label: 'T12', cash: 500 });
  });

  it('is empty without history', () => {
    expect(cashFlowPoints([], 500)).toEqual([]);
  });
});

describe('cashAfterPoints', () => {
  it("uses each turn's recorded cash, labelled T1..Tn", () => {
    const history = [
      { week: 1, amount: 100, cash_after: 1100 },
      { week: 2, amount: -50, cash_after: 1050 },
    ];
    // Spent 500 since the last turn: the line still shows what each turn ended with.
    expect(cashAfterPoints(history, 550)).toEqual([
      { label: 'T1', cash: 1100, week: 1 },
      { label: 'T2', cash: 1050, week: 2 },
    ]);
  });

  it('falls back to the backwards reconstruction without cash_after', () => {
    expect(cashAfterPoints([{ week: 1, amount: 100 }], 1000)).toEqual([{ label: 'T1', cash: 1000 }]);
  });
});
