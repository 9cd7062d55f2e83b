/**
 * Financial Report tab (spec section 2). The spec's screen showed fixed placeholder numbers; these
 * are live, derived from the building, its city, the company's research, today's prices and the
 * warehouse or shelf (finance.ts, docs/web.md). Stores also show last turn's sales.
 */
import { lazy, Suspense } from 'react';
import { Alert, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { centsToDollars } from '@marketcraft/shared';
import { PageLoader } from '../../components/FullScreenLoader';
import { QueryError } from '../../components/QueryError';
import { formatMoney } from '../../lib/format';
import type { RouterOutputs } from '../../trpc';
import type { BuildingEconomics, WeekFinance } from './useBuildingEconomics';
import { StatCard } from '../../components/StatCard';
import { TableScroll } from '../../components/TableScroll';

const FinanceChart = lazy(() => import('./FinanceChart').then((module) => ({ default: module.FinanceChart })));

type Building = RouterOutputs['buildings']['get'];

const money = (cents: number) => formatMoney(centsToDollars(cents));
/** A cost shown as a deduction: "-$50.00", or "$0.00" when there is none. */
const cost = (cents: number) => (cents > 0 ? `-${money(cents)}` : money(0));

function formatRoi(percent: number | null): string {
  if (percent === null) return 'N/A';
  return `${percent > 0 ? '+' : ''}${percent.toFixed(2)}%`;
}

function BreakdownTable({ periods, isStore }: { periods: Array<{ label: string; week: WeekFinance }>; isStore: boolean }) {
  const rows: Array<{ label: string; value: (week: WeekFinance) => string; strong?: boolean }> = [
    { label: isStore ? 'Units sold' : 'Units produced', value: (week) => week.units.toLocaleString('en-US') },
    { label: isStore ? 'Sales revenue' : 'Output value', value: (week) => money(week.revenueCents) },
    { label: isStore ? 'Cost of goods sold' : 'Materials used', value: (week) => cost(week.materialsCents) },
    { label: 'Wages', value: (week) => cost(week.wagesCents) },
    { label: 'Running costs', value: (week) => cost(week.operatingCents) },
    { label: 'Net profit', value: (week) => money(week.netCents), strong: true },
  ];
  return (
    <TableScroll minWidth={300} label="Weekly breakdown">
      <Table verticalSpacing={6}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th />
            {periods.map((period) => (
              <Table.Th key={period.label} ta="right">
                {period.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.label} fw={row.strong ? 700 : undefined}>
              <Table.Td>{row.label}</Table.Td>
              {periods.map((period) => (
                <Table.Td key={period.label} ta="right">
                  {row.value(period.week)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableScroll>
  );
}

export function FinancialReport({ building, economics }: { building: Building; economics: BuildingEconomics }) {
  if (economics.isPending) return <PageLoader />;
  if (economics.error) return <QueryError error={economics.error} onRetry={economics.refetch} />;

  const { nextWeek, lastWeek, forecast } = economics;
  // The headline figures: a store's last turn once it has sold something, else next turn's forecast.
  const headline = lastWeek && lastWeek.units > 0 ? lastWeek : nextWeek;
  const headlineLabel = headline === lastWeek ? 'last turn' : 'next turn (forecast)';
  const totalCosts = headline.costsCents;
  const roi = economics.raw.roi_percent;
  const payback = economics.raw.payback_weeks;
  const periods = lastWeek
    ? [
        { label: 'Last turn', week: lastWeek },
        { label: 'Next turn (forecast)', week: nextWeek },
      ]
    : [{ label: 'Next turn (forecast)', week: nextWeek }];
  const chartSeries = periods.map((period, index) => ({ name: period.label, label: period.label, color: index === periods.length - 1 ? 'blue.6' : 'gray.5' }));
  const chartRows = [
    { item: 'Revenue', ...Object.fromEntries(periods.map((period) => [period.label, centsToDollars(period.week.revenueCents)])) },
    { item: 'Costs', ...Object.fromEntries(periods.map((period) => [period.label, centsToDollars(period.week.costsCents)])) },
    { item: 'Net profit', ...Object.fromEntries(periods.map((period) => [period.label, centsToDollars(period.week.netCents)])) },
  ];

  let note = '';
  if (building.is_store) {
    if (nextWeek.units === 0) {
      note =
        (lastWeek?.units ?? 0) > 0
          ? 'Nothing left on sale for next turn: restock the shelf in the Trade Hall to keep selling.'
          : 'Nothing on sale yet: stock the shelf in the Trade Hall to earn revenue.';
    }
  } else if (!forecast) {
    note = 'No recipe selected: choose what to produce in Operations to earn revenue.';
  } else if (forecast.short.length > 0) {
    note = `Output is limited by missing inputs: ${forecast.short.map((input) => `${input.name} (${input.have.toLocaleString('en-US')} of ${input.need.toLocaleString('en-US')})`).join(', ')}.`;
  } else if (building.efficiency < 100) {
    note = `Staff efficiency is ${building.efficiency}%: more employees or better equipment raise output (see Efficiency, Forecast).`;
  }

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <StatCard label="Revenue" value={money(headline.revenueCents)} color="green" hint={`Per week, ${headlineLabel}`} testId="finance-revenue" />
        <StatCard label="Operating Costs" value={money(totalCosts)} color="red" hint="Materials, wages and running costs" testId="finance-costs" />
        <StatCard
          label="Net Profit"
          value={money(headline.netCents)}
          color={headline.netCents >= 0 ? 'blue' : 'red'}
          hint="Before taxes and subsidies"
          testId="finance-net"
        />
        <StatCard
          label="ROI"
          value={formatRoi(roi)}
          color="grape"
          hint={
            payback
              ? `Per week; pays back ${formatMoney(building.invested)} in ${payback.toLocaleString('en-US')} weeks`
              : `Per week on ${formatMoney(building.invested)} invested`
          }
          testId="finance-roi"
        />
      </SimpleGrid>
      {note && (
        <Alert variant="light" color="orange" icon={<IconInfoCircle aria-hidden />}>
          {note}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder p={{ base: 'sm', sm: 'lg' }}>
          <Title order={2} fz="md" mb="sm">
            Weekly Breakdown
          </Title>
          <BreakdownTable periods={periods} isStore={building.is_store} />
        </Card>
        <Card withBorder p={{ base: 'sm', sm: 'lg' }}>
          <Title order={2} fz="md" mb="sm">
            Revenue vs Costs
          </Title>
          <Suspense fallback={<PageLoader />}>
            <FinanceChart rows={chartRows} series={chartSeries} />
          </Suspense>
        </Card>
      </SimpleGrid>
      <Group gap={6} wrap="nowrap" align="flex-start">
        <IconInfoCircle size={16} color="var(--mantine-color-dimmed)" aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
        <Text size="xs" c="dimmed">
          {building.is_store
            ? "Live figures from your shelf: last turn uses the units each product sold at today's retail price; the forecast applies the turn's sales rules to the shelf as it is now."
            : "Live figures at today's market prices: the forecast applies the turn's production rules to this building's settings and the inputs in your warehouse (made goods go to your warehouse, not to cash)."}{' '}
          Wages are $50 per employee per week. Taxes and subsidies are charged per country, so they are not included.
        </Text>
      </Group>
    </Stack>
  );
}
