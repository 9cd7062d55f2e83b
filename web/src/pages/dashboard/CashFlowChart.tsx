import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { Card, Text, Title } from '@mantine/core';
import { dollarAxis } from '../../components/charts/axis';
import { formatWholeDollars } from '../../lib/format';

import type { CashPoint } from './cashFlow';

export function CashFlowChart({ points }: { points: CashPoint[] }) {
  const first = points[0];
  const last = points[points.length - 1];
  const change = first && last ? last.cash - first.cash : 0;
  return (
    <Card withBorder padding="lg">
      <Title order={2} fz="lg" mb={4}>
        Cash Flow History
      </Title>
      <Text size="xs" c="dimmed" mb="md">
        Your cash after each of the last {points.length} {points.length === 1 ? 'turn' : 'turns'}
        {last?.week !== undefined && ` (T${points.length} = week ${last.week})`}
        {points.length > 1 && (
          <Text span size="xs" fw={600} c={change >= 0 ? 'green' : 'red'}>
            {' '}
            {change >= 0 ? '+' : '-'}
            {formatWholeDollars(Math.abs(change))} over the period
          </Text>
        )}
      </Text>
      <div role="figure" aria-label="Cash after each turn">
        <LineChart
          h={250}
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
    </Card>
  );
}
