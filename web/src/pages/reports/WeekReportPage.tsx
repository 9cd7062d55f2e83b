/**
 * "Week N results" (issue 10, point 3): what the turn that ended week N did to the company, as the
 * turn wrote it (GET /api/reports/{week}): cash at start and end, net worth, profit, rank, revenue
 * by store and product, production by building, the income statement, the week's cash flows by
 * reason, my fills in the exchange's call auction and the contracts accepted, dividends, research,
 * political events; and a chart of cash and net worth over all weeks
 * (GET /api/reports). /reports opens the latest week. Every figure is the API's.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { Link, Navigate, useParams } from 'react-router-dom';
import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconArrowRight } from '@tabler/icons-react';
import { PageHeader } from '../../components/PageHeader';
import { StatCard } from '../../components/StatCard';
import { PageLoader } from '../../components/FullScreenLoader';
import { EmptyState, QueryState } from '../../components/QueryState';
import { TableScroll } from '../../components/TableScroll';
import { usePageMeta } from '../../hooks/usePageMeta';
import { formatMoney } from '../../lib/format';
import { ledgerReasonLabel } from '../../lib/ledgerReasons';
import { trpc, type RouterOutputs } from '../../trpc';

const WeeklyLineChart = lazy(() => import('../../components/charts/WeeklyLineChart'));

type WeekReport = RouterOutputs['reports']['get'];
type WeekSummary = RouterOutputs['reports']['list'][number];

const NO_REPORTS = "No week results yet. Your first week's results appear here after the next turn.";

function Section({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={2} fz="lg">
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Card>
  );
}

/** Money with its sign and colour: income green, spending red. */
function Signed({ amount, testId }: { amount: number; testId?: string }) {
  return (
    <Text span size="sm" fw={600} c={amount > 0 ? 'green' : amount < 0 ? 'red' : undefined} data-testid={testId}>
      {amount > 0 ? '+' : ''}
      {formatMoney(amount)}
    </Text>
  );
}

function rankText(report: WeekSummary): string {
  return report.rank === null ? 'Out of the ranking' : `#${report.rank}`;
}

function rankHint(report: WeekReport): string {
  const of = `of ${report.companies_ranked.toLocaleString('en-US')} companies`;
  if (report.rank_before === null) return `${of}; your first ranked week`;
  if (report.rank === report.rank_before) return `${of}; unchanged`;
  return `${of}; was #${report.rank_before}`;
}

function CashAndNetWorthChart({ weeks }: { weeks: WeekSummary[] }) {
  if (weeks.length < 2) return <EmptyState>The chart of your cash and net worth starts after your second week.</EmptyState>;
  return (
    <Suspense fallback={<PageLoader />}>
      <WeeklyLineChart
        label="Cash and net worth after each week"
        points={weeks.map((week) => ({ week: week.week, cash: week.cash_end, net_worth: week.net_worth }))}
        series={[
          { name: 'cash', label: 'Cash', color: 'teal.6' },
          { name: 'net_worth', label: 'Net worth', color: 'blue.6' },
        ]}
        wholeDollars
      />
    </Suspense>
  );
}

function SalesTable({ report }: { report: WeekReport }) {
  if (report.sales.length === 0) {
    return (
      <EmptyState>
        No store sales this week. A store sells only what is on its shelf, at your price: stock a shelf, or restock one that sold out, from the Warehouse.
      </EmptyState>
    );
  }
  // No minimum width: in the half-width card (and on a phone) 520 px put Units and Revenue out of view.
  return (
    <TableScroll minWidth={0} label="Revenue by store and product">
      <Table striped verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Store</Table.Th>
            <Table.Th>Product</Table.Th>
            <Table.Th ta="right">Units</Table.Th>
            <Table.Th ta="right">Revenue</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {report.sales.map((sale) => (
            <Table.Tr key={`${sale.building_id}-${sale.product_id}`} data-testid="report-sale">
              <Table.Td>
                <Anchor component={Link} to={`/buildings/${sale.building_id}`} size="sm">
                  {sale.building}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {sale.city}
                </Text>
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={`/market?product=${sale.product_id}`} size="sm">
                  {sale.product}
                </Anchor>
              </Table.Td>
              <Table.Td ta="right">{sale.units.toLocaleString('en-US')}</Table.Td>
              <Table.Td ta="right">{formatMoney(sale.revenue)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableScroll>
  );
}

function ProductionTable({ report }: { report: WeekReport }) {
  if (report.production.length === 0) {
    return <EmptyState>Nothing was produced this week. A production building needs a recipe, employees and its inputs in the warehouse.</EmptyState>;
  }
  return (
    <>
      <TableScroll minWidth={0} label="Production by building">
        <Table striped verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Building</Table.Th>
              <Table.Th>Product</Table.Th>
              <Table.Th>Made or used</Table.Th>
              <Table.Th ta="right">Units</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {report.production.map((line) => (
              <Table.Tr key={`${line.building_id}-${line.product_id}-${line.role}`} data-testid="report-production">
                <Table.Td>
                  <Anchor component={Link} to={`/buildings/${line.building_id}`} size="sm">
                    {line.building}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {line.city}
                  </Text>
                </Table.Td>
                <Table.Td>{line.product}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={line.role === 'output' ? 'teal' : 'gray'} size="sm">
                    {line.role === 'output' ? 'Made' : 'Used'}
                  </Badge>
                </Table.Td>
                <Table.Td ta="right">{line.units.toLocaleString('en-US')}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
      {/* A building that made nothing has no line: say where to look, or a new player hunts for the missing bakery. */}
      <Text size="xs" c="dimmed" mt="xs" data-testid="report-production-note">
        A building not listed made nothing this week: its page says what it lacks (a recipe, staff or inputs).
      </Text>
    </>
  );
}

/** My fills in the week's call auction and the contracts accepted in the week (GET /api/reports/{week}). */
function ExchangeTable({ report }: { report: WeekReport }) {
  if (report.exchange_fills.length === 0 && report.contracts_delivered.length === 0) {
    return (
      <EmptyState>
        No auction fills or contracts this week. Orders placed on a product&apos;s exchange panel in the Market clear at the turn; contracts offered to you are
        on the Dashboard.
      </EmptyState>
    );
  }
  return (
    <TableScroll minWidth={560} label="Auction fills and contracts">
      <Table striped verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Product</Table.Th>
            <Table.Th>Trade</Table.Th>
            <Table.Th ta="right">Units</Table.Th>
            <Table.Th ta="right">Price</Table.Th>
            <Table.Th ta="right">Fee</Table.Th>
            <Table.Th ta="right">Total</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {report.exchange_fills.map((fill) => (
            <Table.Tr key={`fill-${fill.order_id}`} data-testid="report-fill">
              <Table.Td>
                <Anchor component={Link} to={`/market?product=${fill.product_id}`} size="sm">
                  {fill.product}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Badge variant="light" color={fill.side === 'buy' ? 'blue' : 'teal'} size="sm">
                  {fill.side === 'buy' ? 'Bought' : 'Sold'}
                </Badge>
                <Text size="xs" c="dimmed">
                  Auction, order #{fill.order_id}
                </Text>
              </Table.Td>
              <Table.Td ta="right">{fill.quantity.toLocaleString('en-US')}</Table.Td>
              <Table.Td ta="right">{formatMoney(fill.price)}</Table.Td>
              <Table.Td ta="right">{formatMoney(fill.fee)}</Table.Td>
              <Table.Td ta="right">
                <Signed amount={fill.side === 'buy' ? -fill.total : fill.total} />
              </Table.Td>
            </Table.Tr>
          ))}
          {report.contracts_delivered.map((contract) => (
            <Table.Tr key={`contract-${contract.contract_id}`} data-testid="report-contract">
              <Table.Td>
                <Anchor component={Link} to={`/market?product=${contract.product_id}`} size="sm">
                  {contract.product}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Badge variant="light" color={contract.role === 'bought' ? 'blue' : 'teal'} size="sm">
                  {contract.role === 'bought' ? 'Bought' : 'Sold'}
                </Badge>
                <Text size="xs" c="dimmed">
                  Contract #{contract.contract_id} {contract.role === 'bought' ? 'from' : 'to'} {contract.counterparty}
                </Text>
              </Table.Td>
              <Table.Td ta="right">{contract.quantity.toLocaleString('en-US')}</Table.Td>
              <Table.Td ta="right">{formatMoney(contract.unit_price)}</Table.Td>
              <Table.Td ta="right">{formatMoney(0)}</Table.Td>
              <Table.Td ta="right">
                <Signed amount={contract.role === 'bought' ? -contract.total : contract.total} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableScroll>
  );
}

function IncomeStatement({ report }: { report: WeekReport }) {
  const rows: Array<[string, number]> = [
    ['Store revenue', report.store_revenue],
    ['Market sales', report.market_sales],
    ['Market purchases', -report.market_purchases],
    ['Wages', -report.wages],
    ['Operating costs', -report.operating_costs],
    ['Taxes', -report.taxes],
    ['Subsidies', report.subsidies],
  ];
  return (
    <Table verticalSpacing={4}>
      <Table.Tbody>
        {rows.map(([label, amount]) => (
          <Table.Tr key={label}>
            <Table.Td>{label}</Table.Td>
            <Table.Td ta="right">
              <Signed amount={amount} />
            </Table.Td>
          </Table.Tr>
        ))}
        <Table.Tr>
          <Table.Td fw={700}>Profit after tax</Table.Td>
          <Table.Td ta="right">
            <Signed amount={report.profit} testId="report-profit" />
          </Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Td>Dividends received</Table.Td>
          <Table.Td ta="right">
            <Signed amount={report.dividends_received} />
          </Table.Td>
        </Table.Tr>
        <Table.Tr>
          <Table.Td>Dividends paid</Table.Td>
          <Table.Td ta="right">
            <Signed amount={-report.dividends_paid} />
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}

function CashFlows({ report }: { report: WeekReport }) {
  if (report.cash_flows.length === 0) return <EmptyState>No cash moved this week.</EmptyState>;
  return (
    <Table verticalSpacing={4}>
      <Table.Tbody>
        {report.cash_flows.map((flow) => (
          <Table.Tr key={`${flow.type}-${flow.reason}`} data-testid="report-cash-flow">
            <Table.Td>
              {ledgerReasonLabel(flow.reason)}
              <Text span size="xs" c="dimmed">
                {' '}
                ({flow.lines} {flow.lines === 1 ? 'line' : 'lines'})
              </Text>
            </Table.Td>
            <Table.Td ta="right">
              <Signed amount={flow.amount} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** A link to another week's report, or a disabled button when there is none that way. */
function WeekLink({ week, label, icon }: { week: number | undefined; label: string; icon: 'left' | 'right' }) {
  const sides = icon === 'left' ? { leftSection: <IconArrowLeft size={14} aria-hidden /> } : { rightSection: <IconArrowRight size={14} aria-hidden /> };
  if (week === undefined) {
    return (
      <Button variant="default" size="xs" disabled {...sides}>
        {label}
      </Button>
    );
  }
  return (
    <Button component={Link} to={`/reports/${week}`} variant="default" size="xs" {...sides}>
      Week {week}
    </Button>
  );
}

function Report({ report, weeks }: { report: WeekReport; weeks: WeekSummary[] }) {
  const index = weeks.findIndex((entry) => entry.week === report.week);
  const previous = index > 0 ? weeks[index - 1] : undefined;
  const next = index >= 0 && index < weeks.length - 1 ? weeks[index + 1] : undefined;
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs">
          <WeekLink week={previous?.week} label="Earlier week" icon="left" />
          <WeekLink week={next?.week} label="Later week" icon="right" />
        </Group>
        <Anchor component={Link} to={`/transactions?week=${report.week}`} size="sm">
          Every transaction of week {report.week}
        </Anchor>
      </Group>

      <SimpleGrid cols={{ base: 2, md: 5 }} spacing={{ base: 'xs', sm: 'md' }}>
        <StatCard label="Cash at start" value={formatMoney(report.cash_start)} testId="report-cash-start" />
        <StatCard label="Cash at end" value={formatMoney(report.cash_end)} testId="report-cash-end" />
        <StatCard label="Net worth" value={formatMoney(report.net_worth)} testId="report-net-worth" />
        <StatCard label="Profit after tax" value={formatMoney(report.profit)} />
        <StatCard label="Rank" value={rankText(report)} hint={rankHint(report)} testId="report-rank" />
      </SimpleGrid>

      <Section title="Cash and net worth">
        <CashAndNetWorthChart weeks={weeks} />
      </Section>

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Section title="Revenue by store and product">
          <SalesTable report={report} />
        </Section>
        <Section title="Production by building">
          <ProductionTable report={report} />
        </Section>
      </SimpleGrid>

      <Section title="Auction fills and contracts">
        <ExchangeTable report={report} />
      </Section>

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Section title="Income statement">
          <IncomeStatement report={report} />
        </Section>
        <Section
          title="Cash flows"
          action={
            <Anchor component={Link} to={`/transactions?week=${report.week}`} size="sm">
              Lines
            </Anchor>
          }
        >
          <CashFlows report={report} />
        </Section>
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Section title="Dividends received">
          {report.dividends.length === 0 ? (
            <EmptyState>No dividends received this week.</EmptyState>
          ) : (
            <Stack gap={4}>
              {report.dividends.map((dividend) => (
                <Group key={dividend.company_id} justify="space-between" wrap="nowrap" gap="xs">
                  <Anchor component={Link} to={`/stocks?company=${dividend.company_id}`} size="sm">
                    {dividend.company} ({dividend.shares.toLocaleString('en-US')} shares)
                  </Anchor>
                  <Signed amount={dividend.amount} />
                </Group>
              ))}
            </Stack>
          )}
        </Section>
        <Section title="Research finished">
          {report.research.length === 0 ? (
            <EmptyState>No research finished this week.</EmptyState>
          ) : (
            <Stack gap={4}>
              {report.research.map((upgrade) => (
                <Anchor key={upgrade.upgrade_id} component={Link} to="/research" size="sm">
                  {upgrade.name}
                </Anchor>
              ))}
            </Stack>
          )}
        </Section>
        <Section title="Politics">
          {report.events.length === 0 ? (
            <EmptyState>No political events touched your company this week.</EmptyState>
          ) : (
            <Stack gap="xs">
              {report.events.map((event) => (
                <div key={event.id} data-testid="report-event">
                  <Group gap={6}>
                    <Badge size="xs" variant="light" color={event.event_type === 'election' ? 'grape' : event.event_type === 'tax_increase' ? 'red' : 'green'}>
                      {event.event_type === 'election'
                        ? 'Election'
                        : event.event_type === 'tax_cut'
                          ? 'Tax Cut'
                          : event.event_type === 'tax_increase'
                            ? 'Tax Increase'
                            : 'Subsidy'}
                    </Badge>
                    {event.yours && (
                      <Badge size="xs" variant="outline">
                        Your lobbying
                      </Badge>
                    )}
                  </Group>
                  <Text size="sm">{event.description}</Text>
                  <Text size="xs" c="dimmed">
                    {event.started_week === event.active_until_week ? `Week ${event.started_week}` : `Weeks ${event.started_week}-${event.active_until_week}`}
                  </Text>
                </div>
              ))}
            </Stack>
          )}
        </Section>
      </SimpleGrid>
    </Stack>
  );
}

/** /reports/:week, and /reports (the latest week). */
export default function WeekReportPage() {
  const params = useParams();
  const requested = Number(params.week);
  const week = Number.isInteger(requested) && requested > 0 ? requested : undefined;
  usePageMeta(week ? `Week ${week} results` : 'Week results', "What last week's turn did to your company: sales, production, costs, taxes, dividends, rank.");
  const weeks = trpc.reports.list.useQuery();
  const report = trpc.reports.get.useQuery({ week: week ?? 1 }, { enabled: week !== undefined });

  if (week === undefined) {
    const latest = weeks.data?.at(-1);
    if (latest) return <Navigate to={`/reports/${latest.week}`} replace />;
    return (
      <>
        <PageHeader title="Week results" subtitle="What each turn did to your company" />
        <QueryState query={weeks} empty={NO_REPORTS}>
          {() => null}
        </QueryState>
      </>
    );
  }
  return (
    <>
      <PageHeader title={`Week ${week} results`} subtitle="What the turn that ended the week did to your company" />
      <QueryState query={report} errorTitle={`No results for week ${week}`}>
        {(data) => <Report report={data} weeks={weeks.data ?? []} />}
      </QueryState>
    </>
  );
}
