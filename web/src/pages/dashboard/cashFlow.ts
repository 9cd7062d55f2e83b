export interface CashPoint {
  label: string;
  cash: number;
}

/**
 * The last 12 history entries labelled T1..T12, the cash line reconstructed backwards from the
 * current cash (spec section 9): the cash after entry i is the current cash minus every later change.
 */
export function cashFlowPoints(amounts: readonly number[], currentCash: number, entries = 12): CashPoint[] {
  const recent = amounts.slice(-entries);
  const points: CashPoint[] = [];
  let cash = currentCash;
  for (let index = recent.length - 1; index >= 0; index -= 1) {
    points.unshift({ label: `T${index + 1}`, cash: Math.round(cash * 100) / 100 });
    cash -= recent[index] ?? 0;
  }
  return points;
}
