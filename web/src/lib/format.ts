import { formatDollars } from '@marketcraft/shared';

const wholeDollars = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** "$500,000": whole dollars with thousands separators (the header's cash). */
export function formatWholeDollars(dollars: number | null | undefined): string {
  // Rounded first, so -$0.40 shows as "$0", never "-$0".
  const value = Math.round(dollars ?? 0) || 0;
  const sign = value < 0 ? '-' : '';
  return `${sign}$${wholeDollars.format(Math.abs(value))}`;
}

/** "$25,000.00" */
export function formatMoney(dollars: number | null | undefined): string {
  return formatDollars(dollars ?? 0);
}

/** "+3.25%" / "-1.00%" */
export function formatPercentChange(percent: number): string {
  return `${percent > 0 ? '+' : ''}${percent.toFixed(2)}%`;
}

/** "vertical_integration" -> "vertical integration" */
export function underscoresToSpaces(text: string): string {
  return text.replaceAll('_', ' ');
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return 'N/A';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return 'N/A';
  return date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return 'N/A';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return 'N/A';
  return date.toLocaleDateString('en-US', { dateStyle: 'medium' });
}
