import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { formatWholeDollars } from '../../lib/format';

export interface FinanceChartRow {
  item: string;
  [period: string]: string | number;
}

/** Revenue, costs and net profit side by side (one bar per period shown). */
export function FinanceChart({ rows, series }: { rows: FinanceChartRow[]; series: Array<{ name: string; label: string; color: string }> }) {
  return (
    <BarChart
      h={250}
      data={rows}
      dataKey="item"
      series={series}
      valueFormatter={(value) => formatWholeDollars(value)}
      yAxisProps={{ width: 80 }}
      withLegend={series.length > 1}
      maxBarWidth={56}
      aria-label="Revenue, costs and net profit"
    />
  );
}
