/**
 * A line chart over game weeks (a product's price, a share price, cash and net worth). Lazy-load it
 * (`lazy(() => import(...))`): it pulls in recharts, which no first page needs.
 */
import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { formatMoney, formatWholeDollars } from '../../lib/format';

export interface WeeklySeries {
  name: string;
  label: string;
  color: string;
}

/** Compact axis labels: "$1.2M", "$450K", "$900", "$4.50". */
export function axisDollars(value: number): string {
  const abs = Math.abs(value);
  // The axis's zero reads "$0", like its "$400K" neighbours (not "$0.00").
  if (abs === 0) return '$0';
  const sign = value < 0 ? '-' : '';
  if (abs >= 1_000_000) return `${sign}$${(abs / 1_000_000).toFixed(abs >= 10_000_000 ? 0 : 1)}M`;
  if (abs >= 10_000) return `${sign}$${Math.round(abs / 1_000)}K`;
  if (abs >= 100) return formatWholeDollars(value);
  return formatMoney(value);
}

export default function WeeklyLineChart({
  points,
  series,
  label,
  height = 256,
  wholeDollars = false,
}: {
  points: Array<{ week: number } & Record<string, number | null>>;
  series: WeeklySeries[];
  /** What the chart shows, for screen readers. */
  label: string;
  height?: number;
  wholeDollars?: boolean;
}) {
  return (
    // The chart is one figure for screen readers, named by what it shows.
    <div role="figure" aria-label={label}>
    <LineChart
      h={height}
      data={points.map((point) => ({ ...point, week: `W${point.week}` }))}
      dataKey="week"
      series={series}
      curveType="monotone"
      valueFormatter={(value) => (wholeDollars ? formatWholeDollars(value) : formatMoney(value))}
      yAxisProps={{ width: 72, domain: ['auto', 'auto'], tickFormatter: axisDollars }}
      withLegend={series.length > 1}
      connectNulls
    />
    </div>
  );
}
