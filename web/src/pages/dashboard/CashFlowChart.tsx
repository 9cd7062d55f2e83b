import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { Card, Text, Title } from '@mantine/core';
import { formatWholeDollars } from '../../lib/format';

import type { CashPoint } from './cashFlow';

/** Compact axis labels: "$1.2M", "$450K", "$900". */
function axisDollars(value: number): string {
  const abs = Math.abs(value);
  const sign = value < 0 ? '-' : '';
  if (abs >= 1_000_000) return `${sign}$${(abs / 1_000_000).toFixed(abs >= 10_000_000 ? 0 : 1)}M`;
  if (abs >= 10_000) return `${sign}$${Math.round(abs / 1_000)}K`;
  return formatWholeDollars(value);
}

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
        yAxisProps={{ width: 64, domain: ['auto', 'auto'], tickFormatter: axisDollars }}
        xAxisProps={{ padding: { left: 16, right: 16 } }}
        withLegend={false}
      />
      </div>
    </Card>
  );
}
