import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { Card, Text, Title } from '@mantine/core';
import { formatWholeDollars } from '../../lib/format';

import type { CashPoint } from './cashFlow';

export function CashFlowChart({ points }: { points: CashPoint[] }) {
  return (
    <Card withBorder padding="lg">
      <Title order={2} fz="lg" mb={4}>
        Cash Flow History
      </Title>
      <Text size="xs" c="dimmed" mb="md">
        Your cash after each of the last {points.length} turns
      </Text>
      <LineChart
        h={250}
        data={points}
        dataKey="label"
        series={[{ name: 'cash', label: 'Cash', color: 'teal.6' }]}
        curveType="monotone"
        valueFormatter={(value) => formatWholeDollars(value)}
        yAxisProps={{ width: 90 }}
        withLegend={false}
      />
    </Card>
  );
}
