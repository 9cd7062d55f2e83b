/** The dollar axis of every chart: its labels and its range. */
import { formatMoney, formatWholeDollars } from '../../lib/format';

/** Compact axis labels: "$1.6M", "$1.52M", "$450K", "$97.5K", "$900", "$4.50" (as precise as nice ticks need). */
export function axisDollars(value: number): string {
  const abs = Math.abs(value);
  // The axis's zero reads "$0", like its "$400K" neighbours (not "$0.00").
  if (abs === 0) return '$0';
  const sign = value < 0 ? '-' : '';
  if (abs >= 10_000_000) return `${sign}$${Number((abs / 1_000_000).toFixed(1))}M`;
  if (abs >= 1_000_000) return `${sign}$${Number((abs / 1_000_000).toFixed(2))}M`;
  if (abs >= 10_000) return `${sign}$${Number((abs / 1_000).toFixed(1))}K`;
  if (abs >= 100) return formatWholeDollars(value);
  return formatMoney(value);
}

/** The smallest range the axis spans, as a share of the largest value shown. */
const MIN_AXIS_SPREAD = 0.02;

/**
 * The y range: the data's own ('auto') unless the line is flat or nearly so; then at least 2% of the
 * largest value, around the data, on round numbers. A flat $100,000 otherwise got five ticks a dollar
 * apart that all read "$100K".
 */
export function dollarDomain(values: ReadonlyArray<number | null | undefined>): [number, number] | ['auto', 'auto'] {
  const numbers = values.filter((value): value is number => typeof value === 'number' && Number.isFinite(value));
  if (numbers.length === 0) return ['auto', 'auto'];
  const min = Math.min(...numbers);
  const max = Math.max(...numbers);
  const spread = Math.max(Math.abs(min), Math.abs(max)) * MIN_AXIS_SPREAD;
  if (spread === 0 || max - min >= spread) return ['auto', 'auto'];
  const unit = 10 ** Math.floor(Math.log10(spread));
  const middle = (min + max) / 2;
  return [Math.floor((middle - spread / 2) / unit) * unit, Math.ceil((middle + spread / 2) / unit) * unit];
}
