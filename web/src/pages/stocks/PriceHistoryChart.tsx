import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { formatMoney } from '../../lib/format';

export function PriceHistoryChart({ history }: { history: Array<{ week: number; price: number }> }) {
  return (
    <LineChart
      h={256}
      data={history.map((point) => ({ week: `W${point.week}`, price: point.price }))}
      dataKey="week"
      series={[{ name: 'price', label: 'Share price', color: 'blue.6' }]}
      curveType="monotone"
      valueFormatter={(value) => formatMoney(value)}
      yAxisProps={{ width: 80 }}
      withLegend={false}
    />
  );
}
