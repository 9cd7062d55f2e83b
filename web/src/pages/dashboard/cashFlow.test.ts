import { describe, expect, it } from 'vitest';
import { cashFlowPoints } from './cashFlow';

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
