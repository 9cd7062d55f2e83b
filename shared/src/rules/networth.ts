/** Net worth (spec section 3): cash + total_shares x share_price, all in cents. */
import type { Cents } from '../money.ts';

export function netWorthCents(cashCents: Cents, totalShares: number, sharePriceCents: Cents): Cents {
  return cashCents + totalShares * sharePriceCents;
}

/** Shares nobody holds yet: what a buyer can still get from the market (never negative). */
export function sharesAvailable(totalShares: number, sharesHeld: number): number {
  return Math.max(0, totalShares - sharesHeld);
}

/** Percent change from `previous` to `current`, rounded to two decimals; 0 without a previous price. */
export function priceChangePercent(current: number, previous: number | null | undefined): number {
  if (previous === null || previous === undefined || previous <= 0) return 0;
  return Math.round(((current - previous) / previous) * 10_000) / 100;
}
