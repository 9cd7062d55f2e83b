export interface CashPoint {
  label: string;
  cash: number;
  /** The game week the turn closed, when known. */
  week?: number;
}

/**
 * The last 12 history entries labelled T1..T12, the cash line reconstructed backwards from the
 * current cash (spec section 9): the cash after entry i is the current cash minus every later change.
 * (The dashboard uses `cashAfterPoints` when the API sends each turn's cash_after; this is the
 * fallback for entries without it.)
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

export interface HistoryEntry {
  week: number;
  amount: number;
  cash_after?: number | null;
}

/**
 * The last 12 turns labelled T1..T12 with the cash each turn ended with. The API records the cash
 * after every turn, which is exact even when the player spent money between turns (a backwards
 * reconstruction from today's cash would shift the whole line by what was spent since the last turn).
 */
export function cashAfterPoints(history: readonly HistoryEntry[], currentCash: number, entries = 12): CashPoint[] {
  if (history.some((entry) => typeof entry.cash_after !== 'number')) {
    return cashFlowPoints(history.map((entry) => entry.amount), currentCash, entries);
  }
  return history.slice(-entries).map((entry, index) => ({ label: `T${index + 1}`, cash: Math.round((entry.cash_after ?? 0) * 100) / 100, week: entry.week }));
}
