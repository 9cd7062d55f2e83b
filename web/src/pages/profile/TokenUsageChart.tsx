/** A token's requests per day over the last 30 days (its own chunk: the charts library is large). */
import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Text } from '@mantine/core';
import { PageLoader } from '../../components/FullScreenLoader';
import { QueryError } from '../../components/QueryError';
import { trpc } from '../../trpc';

export default function TokenUsageChart({ tokenId }: { tokenId: number }) {
  const usage = trpc.tokens.usage.useQuery({ id: tokenId });
  if (usage.isPending) return <PageLoader />;
  if (usage.isError) return <QueryError error={usage.error} onRetry={() => void usage.refetch()} />;
  const total = usage.data.reduce((sum, day) => sum + day.requests, 0);
  const limited = usage.data.reduce((sum, day) => sum + day.limited, 0);
  const data = usage.data.map((day) => ({ ...day, label: day.day.slice(5) }));
  return (
    <>
      <Text size="sm" c="dimmed" mb="sm">
        {total.toLocaleString('en-US')} requests in 30 days{limited > 0 ? `, ${limited.toLocaleString('en-US')} refused by the rate limit` : ''}. Days are UTC.
      </Text>
      <BarChart
        h={240}
        data={data}
        dataKey="label"
        type="stacked"
        series={[
          { name: 'reads', label: 'Reads', color: 'blue.5' },
          { name: 'mutations', label: 'Actions', color: 'grape.5' },
          { name: 'limited', label: 'Rate limited', color: 'red.5' },
        ]}
        withLegend
        aria-label="Requests per day"
      />
    </>
  );
}
