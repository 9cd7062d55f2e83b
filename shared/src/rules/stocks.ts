/** Share prices and dividends (docs/economy.md, phases 6 and 7). */
import { DIVIDEND_RATE, SHARE_PRICE_SMOOTHING } from '../constants.ts';

/** The new share price: old + round(30% x (net worth per share - old)), never negative. */
export function nextSharePriceCents(oldCents: number, netWorthCents: number, totalShares: number): number {
  const target = Math.max(0, netWorthCents / totalShares);
  return Math.max(0, oldCents + Math.round((target - oldCents) * SHARE_PRICE_SMOOTHING));
}

/** Dividend per share in cents: floor(20% of the positive profit / total shares); 0 without profit. */
export function dividendPerShareCents(profitCents: number, totalShares: number): number {
  if (profitCents <= 0 || totalShares <= 0) return 0;
  return Math.floor((profitCents * DIVIDEND_RATE) / totalShares);
}
