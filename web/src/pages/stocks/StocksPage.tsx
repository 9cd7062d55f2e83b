/** Stock Exchange (spec sections 2, 4, 5, 8): company list, detail, price history, trade form. */
import { lazy, Suspense, useRef, useState } from 'react';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { Badge, Button, Card, Center, Group, NumberInput, SimpleGrid, Stack, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { IconChartLine, IconRobot, IconSearch, IconUser } from '@tabler/icons-react';
import { CashBadge } from '../../components/CashBadge';
import { ScrollBox } from '../../components/ScrollBox';
import { PageLoader } from '../../components/FullScreenLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { useCompany, useCompanyShares } from '../../hooks/useGameData';
import { usePageMeta } from '../../hooks/usePageMeta';
import { formatMoney, formatPercentChange, formatWholeDollars } from '../../lib/format';
import { notifyError, notifyFailure, notifySuccess } from '../../lib/notify';
import { checkStockTrade } from '../../lib/formChecks';
import { parseWholeQuantity } from '../../lib/quantity';
import { trpc, type RouterOutputs } from '../../trpc';

const PriceHistoryChart = lazy(() => import('./PriceHistoryChart').then((module) => ({ default: module.PriceHistoryChart })));

type ShareRecord = RouterOutputs['stocks']['companyShares'][number];

function CompanyDetail({ record, owned, cash, isYours }: { record: ShareRecord; owned: number; cash: number; isYours: boolean }) {
  const queryClient = useQueryClient();
  const history = trpc.stocks.history.useQuery({ company_id: record.company_id });
  const [shares, setShares] = useState(0);
  const trade = trpc.stocks.trade.useMutation({
    onSuccess: (result) => {
      const count = `${result.shares.toLocaleString('en-US')} ${result.shares === 1 ? 'share' : 'shares'} of ${result.company_name}`;
      notifySuccess(result.action === 'buy' ? 'Purchased!' : 'Sold!', count);
      setShares(0);
      void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.stocks) });
      void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.company) });
    },
    onError: (error) => notifyFailure('Trade failed', error, 'Insufficient funds or shares'),
  });

  const submit = (action: 'buy' | 'sell') => {
    const checked = checkStockTrade({ company_id: record.company_id, shares, action });
    if (!checked.ok) return notifyError(checked.error.title, checked.error.message);
    trade.mutate(checked.request);
  };

  // What the order would cost now: the company's own quote (its price curve walked, the spread).
  const quote = trpc.stocks.quote.useQuery({ company_id: record.company_id, shares, action: 'buy' }, { enabled: shares > 0 && !isYours });
  const cost = quote.data?.total ?? shares * record.buy_price;
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
            <PriceHistoryChart history={history.data} />
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
        <Group gap="xs" align="flex-end" wrap="wrap">
          <NumberInput
            label="Shares"
            value={shares}
            onChange={(value) => setShares(parseWholeQuantity(value))}
            min={0}
            allowDecimal={false}
            allowNegative={false}
            w={140}
            disabled={trade.isPending || isYours}
          />
          <Button onClick={() => submit('buy')} disabled={isYours || trade.isPending || cost > cash}>
            {trade.isPending && trade.variables?.action === 'buy' ? 'Buying...' : 'Buy'}
          </Button>
          <Button variant="light" color="orange" onClick={() => submit('sell')} disabled={isYours || trade.isPending || owned < shares || owned === 0}>
            {trade.isPending && trade.variables?.action === 'sell' ? 'Selling...' : 'Sell'}
          </Button>
        </Group>
        {shares > 0 && !isYours && (
          <Text size="sm" c={cost > cash ? 'red' : 'dimmed'} mt="xs" data-testid="trade-total">
            Total: {quote.data ? formatMoney(cost) : '...'}
          </Text>
        )}
      </Card>
    </Stack>
  );
}

export default function StocksPage() {
  usePageMeta('Stock Exchange', 'Trade shares of player and bot companies.');
  const { company } = useCompany();
  const shares = useCompanyShares();
  const prices = trpc.stocks.prices.useQuery();
  const portfolio = trpc.stocks.portfolio.useQuery();
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [search, setSearch] = useState('');
  const detailRef = useRef<HTMLDivElement>(null);
  // Below 'md' the detail sits under the long company list: bring it into view when a company is picked.
  const sideBySide = useMediaQuery('(min-width: 62em)');
  const select = (companyId: number) => {
    setSelectedId(companyId);
    if (!sideBySide) window.requestAnimationFrame(() => detailRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }));
  };

  const changeOf = (id: number) => prices.data?.find((price) => price.company_id === id)?.change_percent ?? 0;
  const ownedOf = (id: number) => portfolio.data?.find((entry) => entry.company_id === id)?.shares_owned ?? 0;
  const needle = search.trim().toLowerCase();
  const listed = (shares.data ?? []).filter((record) => !needle || record.company_name.toLowerCase().includes(needle));
  const selected = shares.data?.find((record) => record.company_id === selectedId) ?? null;
  const portfolioValue = (portfolio.data ?? []).reduce((sum, entry) => sum + entry.value, 0);

  return (
    <>
      <PageHeader
        title="Stock Exchange"
        subtitle={`Portfolio value ${formatWholeDollars(portfolioValue)}`}
        actions={<CashBadge />}
      />
      {shares.isPending ? (
        <PageLoader />
      ) : shares.isError ? (
        <QueryError error={shares.error} onRetry={() => void shares.refetch()} />
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Card withBorder padding="sm">
            <TextInput
              placeholder="Search companies..."
              aria-label="Search companies"
              leftSection={<IconSearch size={16} aria-hidden />}
              value={search}
              onChange={(event) => setSearch(event.currentTarget.value)}
              mb="sm"
            />
            <ScrollBox maxHeight={600}>
              <Stack gap={4}>
                {listed.map((record) => {
                  const change = changeOf(record.company_id);
                  const owned = ownedOf(record.company_id);
                  return (
                    <UnstyledButton
                      key={record.company_id}
                      onClick={() => select(record.company_id)}
                      aria-pressed={record.company_id === selectedId}
                      p="xs"
                      style={{
                        borderRadius: 'var(--mantine-radius-sm)',
                        background: record.company_id === selectedId ? 'var(--mantine-color-blue-light)' : undefined,
                      }}
                    >
                      <Group justify="space-between" wrap="nowrap" gap="xs">
                        <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
                          {record.is_bot ? <IconRobot size={16} aria-label="AI bot" /> : <IconUser size={16} aria-label="Player" />}
                          <Text size="sm" fw={500} truncate>
                            {record.company_name}
                          </Text>
                          {record.company_id === company?.id && (
                            <Badge size="xs" variant="light" color="teal">
                              You
                            </Badge>
                          )}
                          {owned > 0 && (
                            <Badge size="xs" variant="light">
                              {owned} owned
                            </Badge>
                          )}
                        </Group>
                        <Group gap={8} wrap="nowrap">
                          <Text size="sm">{formatMoney(record.share_price)}</Text>
                          <Text size="sm" fw={600} c={change > 0 ? 'green' : change < 0 ? 'red' : 'dimmed'}>
                            {formatPercentChange(change)}
                          </Text>
                        </Group>
                      </Group>
                    </UnstyledButton>
                  );
                })}
              </Stack>
            </ScrollBox>
          </Card>
          <div ref={detailRef} style={{ scrollMarginTop: 72 }}>
          {selected ? (
            <CompanyDetail
              key={selected.company_id}
              record={selected}
              owned={ownedOf(selected.company_id)}
              cash={company?.cash ?? 0}
              isYours={selected.company_id === company?.id}
            />
          ) : (
            <Card withBorder padding="xl" h="100%">
              <Center h="100%">
                <Stack align="center" gap="xs">
                  <IconChartLine size={40} color="var(--mantine-color-gray-5)" aria-hidden />
                  <Text c="dimmed">Select a company to start trading</Text>
                </Stack>
              </Center>
            </Card>
          )}
          </div>
        </SimpleGrid>
      )}
    </>
  );
}
