/**
 * A line chart over game weeks (a product's price, a share price, cash and net worth). Lazy-load it
 * (`lazy(() => import(...))`): it pulls in recharts, which no first page needs.
 */
import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { formatMoney, formatWholeDollars } from '../../lib/format';
import { dollarAxis } from './axis';

export interface WeeklySeries {
  name: string;
  label: string;
  color: string;
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
  const values = points.flatMap((point) => series.map((line) => point[line.name]));
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
        yAxisProps={{ width: 72, ...dollarAxis(values) }}
        withLegend={series.length > 1}
        connectNulls
      />
    </div>
  );
}
