export interface CashPoint {
  label: string;
  cash: number;
  /** The game week the turn closed. */
  week: number;
}

export interface HistoryEntry {
  week: number;
  cash_after: number;
}

/**
 * The last 12 turns labelled T1..T12 (spec section 9) with the cash each turn ended with, as the API
 * recorded it (exact even when the player spent money between turns; nothing is reconstructed here).
 */
export function cashAfterPoints(history: readonly HistoryEntry[], entries = 12): CashPoint[] {
  return history.slice(-entries).map((entry, index) => ({ label: `T${index + 1}`, cash: entry.cash_after, week: entry.week }));
}
