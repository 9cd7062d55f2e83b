import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { dollarAxis } from '../../components/charts/axis';
import { formatWholeDollars } from '../../lib/format';

import type { CashPoint } from './cashFlow';

/** The cash-flow card's line (lazy: it brings recharts; the card around it is in DashboardPage). */
export default function CashFlowChart({ points, height }: { points: CashPoint[]; height: number }) {
  return (
    <div role="figure" aria-label="Cash after each turn">
      <LineChart
        h={height}
        data={points}
        dataKey="label"
        series={[{ name: 'cash', label: 'Cash', color: 'teal.6' }]}
        curveType="monotone"
        valueFormatter={(value) => formatWholeDollars(value)}
        yAxisProps={{ width: 64, ...dollarAxis(points.map((point) => point.cash)) }}
        xAxisProps={{ padding: { left: 16, right: 16 } }}
        withLegend={false}
      />
    </div>
  );
}
