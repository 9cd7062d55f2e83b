/**
 * The forked debrief (docs/replay.md, "The forked debrief"): this fork beside the world it was
 * forked from, from the week before the fork on. Net worth of a chosen company in both worlds and
 * the prices of chosen products in both (a product picker), plus a table of every company's net
 * worth at the last week both worlds reached. Every figure comes from GET
 * /api/worlds/{id}/fork-comparison; the page only draws them. Its own chunk: it pulls in the charts.
 */
import '@mantine/charts/styles.css';
import { useState } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import { LineChart } from '@mantine/charts';
import { Card, MultiSelect, Select, Stack, Table, Text, Title } from '@mantine/core';
import { MAX_FORK_COMPARISON_PRODUCTS, type ForkComparisonView } from '@marketcraft/shared';
import { QueryState } from '../../components/QueryState';
import { TableScroll } from '../../components/TableScroll';
import { dollarAxis } from '../../components/charts/axis';
import { formatMoney } from '../../lib/format';
import { trpc } from '../../trpc';

type Point = ForkComparisonView['companies'][number]['points'][number];

/** Rows of { week: 'W3', fork, original } for a chart of two lines. */
function pairRows(points: Point[]) {
  return points.map((point) => ({ week: `W${point.week}`, fork: point.fork, original: point.original }));
}

/** The two lines of a pair: the fork solid, the original dashed (told apart without colour too). */
function pairSeries(forkName: string, originalName: string, color: string) {
  return [
    { name: 'fork', label: `${forkName} (fork)`, color },
    { name: 'original', label: `${originalName} (original)`, color: 'gray.6', strokeDasharray: '5 4' },
  ];
}

export default function ForkComparisonCharts({ worldId }: { worldId: number }) {
  const [productIds, setProductIds] = useState<string[] | null>(null);
  const comparison = trpc.worlds.forkComparison.useQuery(
    { id: worldId, product_ids: productIds && productIds.length > 0 ? productIds.join(',') : undefined },
    { placeholderData: keepPreviousData },
  );
  const [companyId, setCompanyId] = useState<string | null>(null);
  return (
    <Card withBorder padding="lg" data-testid="fork-comparison">
      <Title order={2} fz="lg" mb="xs">
        This fork beside its original
      </Title>
      <QueryState
        query={comparison}
        isEmpty={(data) => data.weeks.length === 0}
        empty="The comparison fills in after the fork's first turn: advance it to see both worlds side by side."
      >
        {(data) => {
          const players = data.companies.filter((company) => !company.is_bot);
          const chosen = data.companies.find((company) => String(company.fork_company_id) === companyId) ?? players[0] ?? data.companies[0];
          const lastWeek = Math.max(
            ...data.companies.flatMap((company) => company.points.filter((point) => point.fork !== null && point.original !== null).map((point) => point.week)),
          );
          return (
            <Stack gap="lg">
              <Text size="sm" c="dimmed">
                {data.fork.name} starts at week {data.fork_week} of {data.original.name}; both lines leave from the week before. Solid: this fork; dashed: the
                original.
              </Text>
              <div>
                <Select
                  label="Company"
                  data={data.companies.map((company) => ({
                    value: String(company.fork_company_id),
                    label: `${company.name}${company.is_bot ? ' (bot)' : ''}`,
                  }))}
                  value={chosen ? String(chosen.fork_company_id) : null}
                  onChange={setCompanyId}
                  allowDeselect={false}
                  searchable
                  maw={360}
                  mb="xs"
                  data-testid="fork-comparison-company"
                />
                {chosen && (
                  <div
                    role="figure"
                    aria-label={`Net worth of ${chosen.name} by week, in this fork and in the original`}
                    data-testid="fork-comparison-net-worth"
                  >
                    <LineChart
                      h={260}
                      data={pairRows(chosen.points)}
                      dataKey="week"
                      series={pairSeries(data.fork.name, data.original.name, 'teal.6')}
                      valueFormatter={(value) => formatMoney(value)}
                      yAxisProps={{ width: 72, ...dollarAxis(chosen.points.flatMap((point) => [point.fork ?? 0, point.original ?? 0])) }}
                      withLegend
                      connectNulls
                    />
                  </div>
                )}
              </div>
              <div>
                <MultiSelect
                  label="Products"
                  description={`Up to ${MAX_FORK_COMPARISON_PRODUCTS}; none chosen: the fork's shocked products, else the most traded`}
                  data={data.product_choices.map((choice) => ({ value: String(choice.product_id), label: choice.name }))}
                  value={productIds ?? data.products.map((product) => String(product.product_id))}
                  onChange={setProductIds}
                  maxValues={MAX_FORK_COMPARISON_PRODUCTS}
                  searchable
                  maw={520}
                  mb="xs"
                  data-testid="fork-comparison-products"
                />
                {data.products.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    Choose products to compare their prices.
                  </Text>
                ) : (
                  data.products.map((product) => (
                    <div
                      key={product.product_id}
                      role="figure"
                      aria-label={`Price of ${product.name} by week, in this fork and in the original`}
                      data-testid="fork-comparison-price"
                    >
                      <Text fw={600} size="sm" mt="sm">
                        {product.name}
                      </Text>
                      <LineChart
                        h={200}
                        data={pairRows(product.points)}
                        dataKey="week"
                        series={pairSeries(data.fork.name, data.original.name, 'blue.6')}
                        valueFormatter={(value) => formatMoney(value)}
                        yAxisProps={{ width: 72, ...dollarAxis(product.points.flatMap((point) => [point.fork ?? 0, point.original ?? 0])) }}
                        withLegend
                        connectNulls
                      />
                    </div>
                  ))
                )}
              </div>
              {Number.isFinite(lastWeek) && (
                <TableScroll minWidth={360} label="Net worth of every company in this fork and in the original">
                  <Table striped data-testid="fork-comparison-table">
                    <Table.Caption>Net worth after week {lastWeek}, the last week both worlds have played</Table.Caption>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Company</Table.Th>
                        <Table.Th ta="right">This fork</Table.Th>
                        <Table.Th ta="right">Original</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {data.companies.map((company) => {
                        const point = company.points.find((candidate) => candidate.week === lastWeek);
                        return (
                          <Table.Tr key={company.fork_company_id}>
                            <Table.Td>
                              {company.name}
                              {company.is_bot ? ' (bot)' : ''}
                            </Table.Td>
                            <Table.Td ta="right">{point?.fork == null ? '-' : formatMoney(point.fork)}</Table.Td>
                            <Table.Td ta="right">{point?.original == null ? '-' : formatMoney(point.original)}</Table.Td>
                          </Table.Tr>
                        );
                      })}
                    </Table.Tbody>
                  </Table>
                </TableScroll>
              )}
            </Stack>
          );
        }}
      </QueryState>
    </Card>
  );
}
