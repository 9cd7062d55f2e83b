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

/** Below this range the ticks can fall between whole dollars (nice steps under $10: 0.5, 1, 2, 2.5, 5). */
const CENTS_AXIS_RANGE = 40;
/** Up to here an axis writes dollars out ("$9,500"); above, axisDollars abbreviates ("$97.5K"). */
const FULL_DOLLARS_AXIS_MAX = 10_000;

/**
 * The tick labels of one axis, all in the same format, chosen from the values it shows (and the
 * range dollarDomain gives them): a share price between $94 and $102 reads "$94.00" ... "$102.00"
 * (axisDollars alone wrote "$98.00" under "$100" and "$102": each label picked its own format by
 * its size); a range of $40 or more has whole-dollar steps and reads "$60" ... "$140"; larger
 * values keep axisDollars' "$97.5K", "$1.6M".
 */
export function dollarAxisLabels(values: ReadonlyArray<number | null | undefined>): (value: number) => string {
  const numbers = values.filter((value): value is number => typeof value === 'number' && Number.isFinite(value));
  if (numbers.length === 0) return axisDollars;
  const domain = dollarDomain(numbers);
  const [low, high] = domain[0] === 'auto' ? [Math.min(...numbers), Math.max(...numbers)] : (domain as [number, number]);
  if (Math.max(Math.abs(low), Math.abs(high)) >= FULL_DOLLARS_AXIS_MAX) return axisDollars;
  if (high - low < CENTS_AXIS_RANGE) return (value) => formatMoney(value);
  return (value) => formatWholeDollars(value);
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
