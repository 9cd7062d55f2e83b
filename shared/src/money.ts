/**
 * Money is stored and computed in integer cents. The API speaks dollars (numbers with at most two
 * decimals), so conversion happens only at the edges, here.
 */
export type Cents = number;

export function dollarsToCents(dollars: number): Cents {
  return Math.round(dollars * 100);
}

export function centsToDollars(cents: Cents): number {
  return Math.round(cents) / 100;
}

const dollarFormat = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

const NEGATIVE_ZERO = dollarFormat.format(-0);

/** "$25,000.00" from cents. */
export function formatCents(cents: Cents): string {
  return formatDollars(cents / 100);
}

/** "$25,000.00" from dollars. Never "-$0.00" (a cost of 0 shown negated, or less than half a cent below zero). */
export function formatDollars(dollars: number): string {
  const text = dollarFormat.format(dollars);
  return text === NEGATIVE_ZERO ? dollarFormat.format(0) : text;
}
