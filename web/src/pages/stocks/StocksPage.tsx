/**
 * Stock Exchange (spec sections 2, 4, 5, 8; issue 10): a sortable, searchable table of the listed
 * companies (price, change this week, a sparkline, market value, your position's gain), a page at a
 * time from the server, which also sorts and searches (GET /api/stocks/overview: a world can list
 * 100,000 companies); the selected company's detail with its price history and the trade form. The
 * selection lives in the address (?company=ID), so the ledger links here.
 */
import { lazy, Suspense, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { COMPANY_LIST_PAGE_SIZE } from '@marketcraft/shared';
import { Badge, Button, Card, Center, Grid, Group, SimpleGrid, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { IconChartLine, IconRobot, IconUser } from '@tabler/icons-react';
import { CashBadge } from '../../components/CashBadge';
import { ScrollBox } from '../../components/ScrollBox';
import { PageLoader } from '../../components/FullScreenLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { QueryError } from '../../components/QueryError';
import { useCompany, useCompanyShares } from '../../hooks/useGameData';
import { usePageMeta } from '../../hooks/usePageMeta';
import { useScrollAfterPick } from '../../hooks/useScrollAfterPick';
import { formatMoney, formatPercentChange, formatWholeDollars } from '../../lib/format';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { checkStockTrade } from '../../lib/formChecks';
import { NumberField, useFieldText } from '../../components/NumberField';
import { OrderSummary } from '../../components/OrderSummary';
import { useShareQuote } from '../../hooks/useOrderQuote';
import { SortableTh } from '../../components/SortableTh';
import { Sparkline, TrendTh } from '../../components/Sparkline';
import { ListPager } from '../../components/ListPager';
import { nextSort, type SortState } from '../../lib/sortTable';
import { pickOnRowClick } from '../../lib/rowClick';
import { trpc, type RouterOutputs } from '../../trpc';
import { CompanySearchInput } from '../../components/CompanySearchInput';

const WeeklyLineChart = lazy(() => import('../../components/charts/WeeklyLineChart'));

type ShareRecord = RouterOutputs['stocks']['companyShares'][number];

function CompanyDetail({ record, row, cash }: { record: ShareRecord; row: OverviewRow; cash: number }) {
  const owned = row.position?.shares_owned ?? 0;
  const isYours = row.is_you;
  const history = trpc.stocks.history.useQuery({ company_id: record.company_id });
  const shares = useFieldText(0);
  const trade = trpc.stocks.trade.useMutation({
    onSuccess: (result) => {
      const count = `${result.shares.toLocaleString('en-US')} ${result.shares === 1 ? 'share' : 'shares'} of ${result.company_name}`;
      notifySuccess(result.action === 'buy' ? 'Purchased!' : 'Sold!', count);
      shares.reset(0);
    },
    onError: (error) => notifyFailure('Trade failed', error, 'Insufficient funds or shares'),
  });

  // Checked as typed with the server's schema ('Please enter a quantity greater than 0'); the action does not change the check.
  const checked = checkStockTrade({ company_id: record.company_id, shares: shares.text, action: 'buy' });
  const count = checked.ok ? checked.request.shares : null;
  // What buying (or selling what you own) costs or pays now: the company's own quote (its curve walked, the spread).
  const buyQuote = useShareQuote(record.company_id, count, 'buy', !isYours);
  const sellQuote = useShareQuote(record.company_id, count !== null && count <= owned ? count : null, 'sell', !isYours && owned > 0);
  const submit = (action: 'buy' | 'sell') => {
    if (checked.ok) trade.mutate({ ...checked.request, action });
  };
  const canBuy = count !== null && buyQuote.quote !== null && buyQuote.quote.total <= cash;
  const canSell = count !== null && count <= owned;

  return (
    <Stack gap="md">
      <Card withBorder padding="lg">
        <Group justify="space-between" wrap="nowrap" mb="xs">
          <Title order={2} fz="xl">
            {record.company_name}
          </Title>
          <Badge variant="light" color={isYours ? 'teal' : record.is_bot ? 'gray' : 'blue'}>
            {isYours ? 'Your company' : record.is_bot ? 'AI bot' : 'Player'}
          </Badge>
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
          <div>
            <Text size="xs" c="dimmed">
              Share price
            </Text>
            <Text fw={700}>{formatMoney(record.share_price)}</Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              Total shares
            </Text>
            <Text fw={700}>{record.total_shares.toLocaleString('en-US')}</Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              Book value per share
            </Text>
            <Text fw={700}>{formatMoney(record.book_value_per_share)}</Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              Last dividend
            </Text>
            <Text fw={700}>{formatMoney(record.last_dividend)}</Text>
          </div>
        </SimpleGrid>
      </Card>
      <Card withBorder padding="lg">
        <Title order={3} fz="md" mb="sm">
          Price History
        </Title>
        {history.isPending ? (
          <PageLoader />
        ) : history.isError ? (
          <QueryError error={history.error} onRetry={() => void history.refetch()} />
        ) : history.data.length < 2 ? (
          <Text size="sm" c="dimmed">
            Not enough history yet: prices are recorded every turn.
          </Text>
        ) : (
          <Suspense fallback={<PageLoader />}>
            <WeeklyLineChart
              points={history.data}
              series={[{ name: 'price', label: 'Share price', color: 'blue.6' }]}
              label={`Weekly share price of ${record.company_name}`}
            />
          </Suspense>
        )}
      </Card>
      <Card withBorder padding="lg">
        <Title order={3} fz="md" mb="sm">
          Trade Shares
        </Title>
        {isYours ? (
          <Text size="sm" mb="xs" c="dimmed" data-testid="own-company-note">
            This is your company: you cannot trade your own company's shares.
          </Text>
        ) : (
          <Text size="sm" mb="xs">
            You own <b>{owned.toLocaleString('en-US')}</b> {owned === 1 ? 'share' : 'shares'}.
          </Text>
        )}
        <Group gap="xs" align="flex-start" wrap="wrap">
          {/* Narrower on a phone, so Buy and Sell stay on the field's row (Sell fell to a row of its own). */}
          <NumberField label="Shares" field={shares} error={checked.errors.shares} w={{ base: 120, xs: 160 }} disabled={trade.isPending || isYours} />
          <Button mt={25} onClick={() => submit('buy')} disabled={isYours || trade.isPending || !canBuy}>
            {trade.isPending && trade.variables?.action === 'buy' ? 'Buying...' : 'Buy'}
          </Button>
          <Button mt={25} variant="light" color="orange" onClick={() => submit('sell')} disabled={isYours || trade.isPending || !canSell}>
            {trade.isPending && trade.variables?.action === 'sell' ? 'Selling...' : 'Sell'}
          </Button>
        </Group>
        {!isYours && count !== null && count > 0 && (
          <Stack gap={2} mt="xs">
            <OrderSummary quote={buyQuote} cash={cash} verb="Buying costs" testId="trade-total" />
            {owned > 0 && count <= owned && <OrderSummary quote={sellQuote} verb="Selling pays" testId="sell-total" />}
            {count > owned && (
              <Text size="xs" c="dimmed">
                You own {owned.toLocaleString('en-US')}: selling needs at most that many.
              </Text>
            )}
          </Stack>
        )}
      </Card>
    </Stack>
  );
}

type OverviewRow = RouterOutputs['stocks']['overview']['companies'][number];
/** The columns the server sorts by (your gain is yours alone: the table does not sort by it). */
type Column = 'company_name' | 'share_price' | 'change_percent' | 'market_cap';

export default function StocksPage() {
  usePageMeta('Stock Exchange', 'Trade shares of player and bot companies.');
  const { company } = useCompany();
  const [params, setParams] = useSearchParams();
  const selectedId = Number(params.get('company')) || null;
  const [search, setSearch] = useState('');
  const [searched] = useDebouncedValue(search.trim(), 300);
  const [sort, setSort] = useState<SortState<Column>>({ key: 'company_name', direction: 'ascending' });
  const [offset, setOffset] = useState(0);
  // One page of the table, sorted and searched by the server; the previous page stays (dimmed) while the next loads.
  const overview = trpc.stocks.overview.useQuery(
    { limit: COMPANY_LIST_PAGE_SIZE, offset, search: searched || undefined, sort: sort.key, order: sort.direction === 'ascending' ? 'asc' : 'desc' },
    { placeholderData: (previous) => previous },
  );
  // The selected company, wherever it is in the list (the address may name one of another page).
  const shares = useCompanyShares(selectedId);
  const selected = trpc.stocks.overview.useQuery({ company_id: selectedId ?? undefined, limit: 1 }, { enabled: selectedId !== null });
  const detailRef = useRef<HTMLDivElement>(null);
  // Below 'md' the detail sits under the long company list: bring it into view when a company is picked.
  const sideBySide = useMediaQuery('(min-width: 62em)');
  const scrollAfterPick = useScrollAfterPick(detailRef, selectedId);
  const select = (companyId: number) => {
    const next = new URLSearchParams(params);
    next.set('company', String(companyId));
    setParams(next, { replace: true });
    if (!sideBySide) scrollAfterPick(companyId);
  };
  const onSort = (column: Column) => {
    setSort((current) => nextSort(current, column, column === 'company_name' ? 'ascending' : 'descending'));
    setOffset(0);
  };
  const onSearch = (text: string) => {
    setSearch(text);
    setOffset(0);
  };

  const listed = overview.data?.companies ?? [];
  const record = shares.data?.[0] ?? null;
  const row = selected.data?.companies[0] ?? null;
  const portfolio = overview.data?.portfolio;

  return (
    <>
      <PageHeader
        title="Stock Exchange"
        subtitle={
          portfolio
            ? `Your portfolio: ${formatWholeDollars(portfolio.value)} (${portfolio.gain >= 0 ? '+' : '-'}${formatWholeDollars(Math.abs(portfolio.gain))} on ${formatWholeDollars(portfolio.cost)} paid)`
            : 'Your portfolio: ...'
        }
        actions={<CashBadge />}
      />
      <QueryState query={overview}>
        {() => (
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, md: 7 }}>
              <Stack gap="sm">
                <CompanySearchInput value={search} onChange={onSearch} />
                <Card withBorder padding={0} aria-busy={overview.isPlaceholderData} style={overview.isPlaceholderData ? { opacity: 0.6 } : undefined}>
                  <ScrollBox maxHeight={620} label="Listed companies" scrollX>
                    <Table stickyHeader highlightOnHover verticalSpacing={6} miw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
                      <Table.Thead>
                        <Table.Tr>
                          <SortableTh column="company_name" sort={sort} onSort={onSort}>
                            Company
                          </SortableTh>
                          <SortableTh column="share_price" sort={sort} onSort={onSort} align="right">
                            Price
                          </SortableTh>
                          <SortableTh column="change_percent" sort={sort} onSort={onSort} align="right">
                            Week
                          </SortableTh>
                          <TrendTh />
                          <SortableTh column="market_cap" sort={sort} onSort={onSort} align="right">
                            Market value
                          </SortableTh>
                          <Table.Th ta="right">Your gain</Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {listed.map((entry) => (
                          <Table.Tr
                            key={entry.company_id}
                            data-testid="stock-row"
                            style={{ cursor: 'pointer', ...(entry.company_id === selectedId ? { background: 'var(--mantine-primary-color-light)' } : {}) }}
                            onClick={pickOnRowClick(() => select(entry.company_id))}
                          >
                            <Table.Td>
                              <UnstyledButton onClick={() => select(entry.company_id)} aria-pressed={entry.company_id === selectedId}>
                                <Group gap={6} wrap="nowrap">
                                  {entry.is_bot ? (
                                    <IconRobot size={16} role="img" aria-label="AI bot" style={{ flexShrink: 0 }} />
                                  ) : (
                                    <IconUser size={16} role="img" aria-label="Player" style={{ flexShrink: 0 }} />
                                  )}
                                  <Text size="sm" fw={600}>
                                    {entry.company_name}
                                  </Text>
                                  {entry.is_you && (
                                    <Badge size="xs" variant="light" color="teal">
                                      You
                                    </Badge>
                                  )}
                                </Group>
                              </UnstyledButton>
                            </Table.Td>
                            <Table.Td ta="right">{formatMoney(entry.share_price)}</Table.Td>
                            <Table.Td ta="right">
                              {entry.change_percent === null ? (
                                <Text span size="sm" c="dimmed">
                                  new
                                </Text>
                              ) : (
                                <Text span size="sm" fw={600} c={entry.change_percent > 0 ? 'green' : entry.change_percent < 0 ? 'red' : 'dimmed'}>
                                  {formatPercentChange(entry.change_percent)}
                                </Text>
                              )}
                            </Table.Td>
                            <Table.Td>
                              <Sparkline values={entry.sparkline} label={`${entry.company_name} share price`} />
                            </Table.Td>
                            <Table.Td ta="right">{formatWholeDollars(entry.market_cap)}</Table.Td>
                            <Table.Td ta="right">
                              {entry.position ? (
                                <>
                                  <Text span size="sm" fw={600} c={entry.position.gain > 0 ? 'green' : entry.position.gain < 0 ? 'red' : undefined}>
                                    {entry.position.gain >= 0 ? '+' : '-'}
                                    {formatMoney(Math.abs(entry.position.gain))}
                                  </Text>
                                  <Text size="xs" c="dimmed">
                                    {entry.position.shares_owned.toLocaleString('en-US')} owned
                                  </Text>
                                </>
                              ) : (
                                '-'
                              )}
                            </Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                    {listed.length === 0 && (
                      <Text c="dimmed" size="sm" ta="center" py="lg" data-testid="stocks-empty">
                        {searched ? `No listed company's name contains "${searched}".` : 'No listed companies yet.'}
                      </Text>
                    )}
                  </ScrollBox>
                </Card>
                {overview.data && (
                  <ListPager
                    total={overview.data.total}
                    limit={overview.data.limit}
                    offset={overview.data.offset}
                    noun={['listed company', 'listed companies']}
                    onPage={(page) => setOffset((page - 1) * COMPANY_LIST_PAGE_SIZE)}
                  />
                )}
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 5 }}>
              <div
                ref={detailRef}
                data-picked={selectedId !== null || undefined}
                // A screen tall once picked on a phone, so the scroll to it arrives before its figures load (as the Market's panel).
                style={{ scrollMarginTop: 72, minHeight: selectedId !== null && !sideBySide ? 'calc(100dvh - 72px)' : undefined }}
              >
                {record && row ? (
                  <CompanyDetail key={record.company_id} record={record} row={row} cash={company?.cash ?? 0} />
                ) : selectedId !== null && (shares.isPending || selected.isPending) ? (
                  <PageLoader />
                ) : (
                  <Card withBorder padding="xl">
                    <Center>
                      <Stack align="center" gap="xs">
                        <IconChartLine size={40} color="var(--mantine-color-dimmed)" aria-hidden />
                        <Text c="dimmed">Select a company to start trading</Text>
                      </Stack>
                    </Center>
                  </Card>
                )}
              </div>
            </Grid.Col>
          </Grid>
        )}
      </QueryState>
    </>
  );
}
