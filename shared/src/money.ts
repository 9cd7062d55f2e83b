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

/** "$25,000.00" from cents. */
export function formatCents(cents: Cents): string {
  return dollarFormat.format(cents / 100);
}

/** "$25,000.00" from dollars. */
export function formatDollars(dollars: number): string {
  return dollarFormat.format(dollars);
}
