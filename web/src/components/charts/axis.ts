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

/** About this many ticks on a dollar axis. */
const AXIS_TICK_INTERVALS = 4;

/** The nice step for a range: 1, 2, 2.5 or 5 times a power of ten, at least range / 4. */
function axisTickStep(range: number): number {
  const rough = range / AXIS_TICK_INTERVALS;
  const power = 10 ** Math.floor(Math.log10(rough));
  const nice = [1, 2, 2.5, 5, 10].find((candidate) => candidate * power >= rough - 1e-9) ?? 10;
  return nice * power;
}

/** Decimals that write every multiple of `step` exactly (at most 2). */
function decimalsOf(step: number): number {
  for (let decimals = 0; decimals < 2; decimals += 1) {
    const scaled = step * 10 ** decimals;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-6) return decimals;
  }
  return 2;
}

export interface DollarAxis {
  domain: [number, number] | ['auto', 'auto'];
  /** The ticks, multiples of one nice step (absent: recharts picks them). */
  ticks?: number[];
  tickFormatter: (value: number) => string;
}

/**
 * The y axis of a chart of dollars: its range (dollarDomain's), its ticks, chosen here on
 * multiples of one nice step, and their labels, all in one format. Left to recharts, the ticks
 * fell on steps like $5,500 and axisDollars formatted each label by its own size: a cash line read
 * '$363K' under '$368.5K', a share price '$98.00' under '$100' and '$102'. Now: under $10,000
 * cents on every tick when the step is not whole dollars, else whole dollars; above, thousands or
 * millions with the decimals the step needs ('$352.5K', '$355.0K').
 */
export function dollarAxis(values: ReadonlyArray<number | null | undefined>): DollarAxis {
  const numbers = values.filter((value): value is number => typeof value === 'number' && Number.isFinite(value));
  const domain = dollarDomain(numbers);
  const [low, high] = domain[0] === 'auto' ? [Math.min(...numbers), Math.max(...numbers)] : (domain as [number, number]);
  if (numbers.length === 0 || !(high > low)) return { domain: ['auto', 'auto'], tickFormatter: axisDollars };
  const step = axisTickStep(high - low);
  const first = Math.floor(low / step + 1e-9);
  const last = Math.ceil(high / step - 1e-9);
  const ticks: number[] = [];
  // Multiples of the step, rounded back to the cent (0.1 + 0.2 is not 0.3).
  for (let index = first; index <= last; index += 1) ticks.push(Math.round(index * step * 100) / 100);
  const largest = Math.max(Math.abs(ticks[0]!), Math.abs(ticks[ticks.length - 1]!));
  const [unit, suffix] = largest >= 1_000_000 ? [1_000_000, 'M'] : largest >= 10_000 ? [1_000, 'K'] : [1, ''];
  const stepDecimals = decimalsOf(step / unit);
  const decimals = unit === 1 && stepDecimals > 0 ? 2 : stepDecimals;
  const format = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  const tickFormatter = (value: number) => {
    // The axis's zero reads "$0" beside "$400K" (not "$0.0K"); in cents it is "$0.00" like its neighbours.
    if (value === 0 && unit !== 1) return '$0';
    const sign = value < 0 ? '-' : '';
    return `${sign}$${format.format(Math.abs(value) / unit)}${suffix}`;
  };
  return { domain: [ticks[0]!, ticks[ticks.length - 1]!], ticks, tickFormatter };
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
