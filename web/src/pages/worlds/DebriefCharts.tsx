/**
 * The debrief (docs/worlds.md): net worth of every company over the weeks, and the price history of
 * the products the shocks touched (or the most traded), with each shock's weeks marked. Its own
 * chunk: it pulls in the charts.
 */
import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { Card, Stack, Text, Title } from '@mantine/core';
import { QueryState } from '../../components/QueryState';
import { dollarAxis } from '../../components/charts/axis';
import { formatMoney } from '../../lib/format';
import { trpc } from '../../trpc';

const COLORS = ['teal.6', 'blue.6', 'grape.6', 'orange.6', 'red.6', 'indigo.6', 'lime.7', 'cyan.6', 'pink.6', 'yellow.7'];

/** Rows of { week: 'W3', <key>: value } from per-series points. */
function rows<Point extends { week: number }>(weeks: number[], series: Array<{ key: string; points: Point[] }>, value: (point: Point) => number) {
  return weeks.map((week) => {
    const row: Record<string, string | number | null> = { week: `W${week}` };
    for (const entry of series)
      row[entry.key] = (() => {
        const point = entry.points.find((candidate) => candidate.week === week);
        return point ? value(point) : null;
      })();
    return row;
  });
}

export default function DebriefCharts({ worldId }: { worldId: number }) {
  const debrief = trpc.worlds.debrief.useQuery({ id: worldId });
  return (
    <Card withBorder padding="lg" data-testid="debrief">
      <Title order={2} fz="lg" mb="sm">
        Debrief
      </Title>
      <QueryState query={debrief} isEmpty={(data) => data.weeks.length === 0} empty="The debrief fills in after the first turn.">
        {(data) => {
          const companies = data.companies.map((company, index) => ({ ...company, key: `c${company.id}`, color: COLORS[index % COLORS.length]! }));
          const priceWeeks = [...new Set(data.prices.flatMap((product) => product.points.map((point) => point.week)))].sort((a, b) => a - b);
          const products = data.prices.map((product, index) => ({ ...product, key: `p${product.product_id}`, color: COLORS[index % COLORS.length]! }));
          // A shock's label reads to the right of its line in the chart's first half and to the left in
          // its second half, so a shock of one of the last weeks is not cut off at the chart's edge.
          const lastWeek = data.weeks.at(-1) ?? 1;
          const firstWeek = data.weeks[0] ?? 1;
          const shockLines = data.shocks.flatMap((shock) => [
            {
              x: `W${shock.start_week}`,
              label: `${shock.percent > 0 ? '+' : ''}${shock.percent}% ${shock.product_name ?? shock.country_name ?? ''}`,
              color: 'red.6',
              labelPosition: shock.start_week - firstWeek > (lastWeek - firstWeek) / 2 ? ('insideTopRight' as const) : ('insideTopLeft' as const),
            },
          ]);
          return (
            <Stack gap="lg">
              <div role="figure" aria-label="Net worth by company and week" data-testid="debrief-net-worth">
                <Text fw={600} size="sm" mb="xs">
                  Net worth by company
                </Text>
                <LineChart
                  h={280}
                  data={rows(data.weeks, companies, (point) => point.net_worth)}
                  dataKey="week"
                  series={companies.map((company) => ({ name: company.key, label: `${company.name}${company.is_bot ? ' (bot)' : ''}`, color: company.color }))}
                  valueFormatter={(value) => formatMoney(value)}
                  yAxisProps={{ width: 72, ...dollarAxis(companies.flatMap((company) => company.points.map((point) => point.net_worth))) }}
                  referenceLines={shockLines}
                  withLegend
                  connectNulls
                />
              </div>
              {products.length > 0 && (
                <div role="figure" aria-label="Prices by week with the shocks marked" data-testid="debrief-prices">
                  <Text fw={600} size="sm" mb="xs">
                    Prices {data.shocks.length > 0 ? '(red lines: shocks)' : ''}
                  </Text>
                  <LineChart
                    h={240}
                    data={rows(priceWeeks, products, (point) => point.price)}
                    dataKey="week"
                    series={products.map((product) => ({ name: product.key, label: product.name, color: product.color }))}
                    valueFormatter={(value) => formatMoney(value)}
                    yAxisProps={{ width: 72, ...dollarAxis(products.flatMap((product) => product.points.map((point) => point.price))) }}
                    referenceLines={shockLines}
                    withLegend
                    connectNulls
                  />
                </div>
              )}
              {data.shocks.length > 0 && (
                <Stack gap={2} data-testid="debrief-shocks">
                  {data.shocks.map((shock) => (
                    <Text key={shock.id} size="sm">
                      Week {shock.start_week}
                      {shock.end_week > shock.start_week ? `-${shock.end_week}` : ''}: {shock.description}
                    </Text>
                  ))}
                </Stack>
              )}
            </Stack>
          );
        }}
      </QueryState>
    </Card>
  );
}
