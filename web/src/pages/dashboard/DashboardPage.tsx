/**
 * Dashboard (spec section 2): welcome line, four summary cards, cash flow chart, news feed, stock
 * movers, your buildings, top inventory and quick actions.
 */
import { Suspense, lazy, startTransition, useDeferredValue, useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Alert, Anchor, Badge, Button, Card, Group, Loader, SimpleGrid, Stack, Text, ThemeIcon, Title, Tooltip, UnstyledButton } from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowDownRight,
  IconArrowUpRight,
  IconBuildingFactory2,
  IconCash,
  IconChartLine,
  IconGavel,
  IconNews,
  IconPackage,
  IconReceipt,
  IconReportAnalytics,
  IconShoppingCart,
  IconTrendingUp,
} from '@tabler/icons-react';
import { MOVERS_PANEL_SIZE, NEWS_MAX_ITEMS, TOP_INVENTORY_SIZE, cityBonusApplies } from '@marketcraft/shared';
import { AdSlot } from '../../components/AdSlot';
import { NearScreen } from '../../components/NearScreen';
import { StatCard } from '../../components/StatCard';
import { WhyThisNumber } from '../../components/WhyThisNumber';
import { ScrollBox } from '../../components/ScrollBox';
import { PageLoader } from '../../components/FullScreenLoader';
import { ShortOfInputsBadge } from '../../components/ShortOfInputsBadge';
import { EmptyShelfBadge } from '../../components/EmptyShelfBadge';
import { QueryError } from '../../components/QueryError';
import { useBuildings, useCities, useCompany, useRecentNews } from '../../hooks/useGameData';
import { usePageMeta } from '../../hooks/usePageMeta';
import { formatDateTime, formatMoney, formatPercentChange, formatWholeDollars, underscoresToSpaces } from '../../lib/format';
import { whereText } from '../../lib/holdings';
import { trpc, type RouterOutputs } from '../../trpc';
import { cashAfterPoints, type CashPoint } from './cashFlow';
import { debtWarning } from './debt';
import { FirstWeekChecklist } from './FirstWeekChecklist';
import { useGreeting } from './greeting';
import { OtherWorldsNotice } from './OtherWorldsNotice';
import { YourTeamCard, useYourTeams } from './YourTeamCard';
import { IncomingOffers } from '../../components/IncomingOffers';
import offScreen from '../../components/offScreen.module.css';

const CashFlowChart = lazy(() => import('./CashFlowChart'));
/** Only a player without a company sees it: its form's check brings zod, which the dashboard otherwise does without. */
const FoundCompanyCard = lazy(() => import('./FoundCompanyCard').then((module) => ({ default: module.FoundCompanyCard })));

/** The cash-flow chart's height: its card holds it from the start, so nothing moves when the chart comes. */
const CASH_FLOW_CHART_HEIGHT = 250;

type NewsItem = RouterOutputs['news']['recent'][number];
type StockPrice = RouterOutputs['stocks']['prices'][number];

function SummaryCard({
  label,
  value,
  icon,
  color,
  hint,
  testId,
}: {
  label: string;
  value: ReactNode;
  icon: ReactNode;
  color: string;
  hint?: ReactNode;
  testId?: string;
}) {
  const badge = (
    <ThemeIcon variant="light" color={color} size="lg" aria-hidden>
      {icon}
    </ThemeIcon>
  );
  return <StatCard label={label} value={value} hint={hint} icon={badge} testId={testId} />;
}

function Panel({ title, icon, action, children }: { title: string; icon: ReactNode; action?: ReactNode; children: ReactNode }) {
  return (
    <Card withBorder padding="lg" h="100%">
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          {icon}
          <Title order={2} fz="lg">
            {title}
          </Title>
        </Group>
        {action}
      </Group>
      {children}
    </Card>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return (
    <Text c="dimmed" size="sm" ta="center" py="lg">
      {children}
    </Text>
  );
}

const EVENT_TYPE_LABELS: Record<string, { label: string; color: string }> = {
  tax_cut: { label: 'Tax Cut', color: 'green' },
  tax_increase: { label: 'Tax Increase', color: 'red' },
  subsidy: { label: 'Subsidy', color: 'blue' },
};

function newsBadge(item: NewsItem): { label: string; color: string } {
  if (item.kind === 'political') return EVENT_TYPE_LABELS[item.event_type ?? ''] ?? { label: 'Election Results', color: 'grape' };
  if (item.kind === 'transaction') return { label: 'Large Transaction', color: 'orange' };
  if (item.kind === 'shock') return { label: 'Shock', color: 'red' };
  if (item.kind === 'announcement') return { label: 'Instructor', color: 'indigo' };
  return { label: 'Stock Update', color: 'teal' };
}

function NewsFeed() {
  const news = useRecentNews();
  const items = (news.data ?? []).slice(0, NEWS_MAX_ITEMS);
  return (
    <Panel title="News Feed" icon={<IconNews size={20} aria-hidden />}>
      {news.isPending ? (
        <PageLoader />
      ) : news.isError ? (
        <QueryError error={news.error} onRetry={() => void news.refetch()} />
      ) : items.length === 0 ? (
        <Empty>No recent news. Check back after the next turn!</Empty>
      ) : (
        <ScrollBox maxHeight={420} label="News">
          <Stack gap="xs">
            {items.map((item) => {
              const badge = newsBadge(item);
              return (
                <Card key={item.id} withBorder padding="xs" radius="sm" data-testid="news-item">
                  {/* Wraps on a phone: the week and time go under the badge rather than cut it. */}
                  <Group justify="space-between" gap={4} align="flex-start">
                    <Badge size="xs" color={badge.color} variant="light">
                      {badge.label}
                    </Badge>
                    {/* The game week first: several weeks pass in one lesson, at the same minute. */}
                    <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="news-when">
                      Week {item.week} · {formatDateTime(item.created_at)}
                    </Text>
                  </Group>
                  <Text size="sm" mt={4}>
                    {item.description}
                  </Text>
                </Card>
              );
            })}
          </Stack>
        </ScrollBox>
      )}
    </Panel>
  );
}

/** The biggest movers by absolute percent change; companies without a previous price have not moved yet. */
function topMovers(prices: readonly StockPrice[], count = MOVERS_PANEL_SIZE): StockPrice[] {
  return prices
    .filter((price) => price.previous_price !== null)
    .sort((a, b) => Math.abs(b.change_percent) - Math.abs(a.change_percent))
    .slice(0, count);
}

function StockMovers() {
  // The server orders by the biggest move: the panel needs only the first page.
  const prices = trpc.stocks.prices.useQuery({ limit: MOVERS_PANEL_SIZE });
  const movers = topMovers(prices.data ?? []);
  return (
    <Panel
      title="Stock Market"
      icon={<IconChartLine size={20} aria-hidden />}
      action={
        <Anchor component={Link} to="/stocks" size="sm">
          View all
        </Anchor>
      }
    >
      {prices.isPending ? (
        <PageLoader />
      ) : prices.isError ? (
        <QueryError error={prices.error} onRetry={() => void prices.refetch()} />
      ) : movers.length === 0 ? (
        <Empty>No stock data yet. Market will activate soon!</Empty>
      ) : (
        <Stack gap={4}>
          {movers.map((mover) => {
            const up = mover.change_percent > 0;
            const color = mover.change_percent === 0 ? 'dimmed' : up ? 'green' : 'red';
            return (
              <UnstyledButton
                key={mover.company_id}
                component={Link}
                to="/stocks"
                p={6}
                style={{ borderRadius: 'var(--mantine-radius-sm)' }}
                aria-label={`${mover.company_name} ${formatMoney(mover.price)} ${formatPercentChange(mover.change_percent)}`}
              >
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text size="sm" fw={500} truncate>
                    {mover.company_name}
                  </Text>
                  <Group gap={8} wrap="nowrap">
                    <Text size="sm">{formatMoney(mover.price)}</Text>
                    <Group gap={2} wrap="nowrap" c={color}>
                      {mover.change_percent !== 0 && (up ? <IconArrowUpRight size={14} aria-hidden /> : <IconArrowDownRight size={14} aria-hidden />)}
                      <Text size="sm" fw={600} c={color}>
                        {formatPercentChange(mover.change_percent)}
                      </Text>
                    </Group>
                  </Group>
                </Group>
              </UnstyledButton>
            );
          })}
        </Stack>
      )}
    </Panel>
  );
}

function YourBuildings() {
  const buildings = useBuildings();
  const cities = useCities();
  const cityById = new Map((cities.data ?? []).map((city) => [city.id, city]));
  return (
    <Panel
      title="Your Buildings"
      icon={<IconBuildingFactory2 size={20} aria-hidden />}
      action={
        <Anchor component={Link} to="/my-buildings" size="sm">
          Manage
        </Anchor>
      }
    >
      {buildings.isPending ? (
        <PageLoader />
      ) : buildings.isError ? (
        <QueryError error={buildings.error} onRetry={() => void buildings.refetch()} />
      ) : buildings.data.length === 0 ? (
        <Empty>No buildings yet. Start building to grow your empire!</Empty>
      ) : (
        <ScrollBox maxHeight="24rem" label="Your buildings">
          <Stack gap={4}>
            {buildings.data.map((building) => {
              const city = cityById.get(building.city_id);
              return (
                <UnstyledButton key={building.id} component={Link} to={`/buildings/${building.id}`} p={6} style={{ borderRadius: 'var(--mantine-radius-sm)' }}>
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <div style={{ minWidth: 0 }}>
                      <Text size="sm" fw={600} truncate>
                        {building.name}
                      </Text>
                      <Text size="xs" c="dimmed" truncate>
                        {city ? city.name : building.city_name || 'Unknown City'}
                      </Text>
                      <ShortOfInputsBadge building={building} />
                      {building.type === 'store' && <EmptyShelfBadge storeId={building.id} />}
                    </div>
                    {city && (
                      <Tooltip
                        label={cityBonusApplies(building.type, city.bonus_type) ? `Applies to a ${building.name}` : `Does not apply to a ${building.name}`}
                      >
                        <Badge variant="light" color={cityBonusApplies(building.type, city.bonus_type) ? 'teal' : 'gray'} style={{ flexShrink: 0 }} tt="none">
                          +{city.bonus_value}% {underscoresToSpaces(city.bonus_type)}
                        </Badge>
                      </Tooltip>
                    )}
                  </Group>
                </UnstyledButton>
              );
            })}
          </Stack>
        </ScrollBox>
      )}
    </Panel>
  );
}

/**
 * The 5 largest holdings, each where it is and at what selling it would pay now: the Warehouse
 * page's figures and the value net worth counts (GET /api/warehouse), so no two screens disagree.
 */
function TopInventory() {
  const holdings = trpc.warehouse.holdings.useQuery();
  const top = [...(holdings.data?.items ?? [])].sort((a, b) => b.quantity - a.quantity).slice(0, TOP_INVENTORY_SIZE);
  return (
    <Panel
      title="Top Inventory"
      icon={<IconPackage size={20} aria-hidden />}
      action={
        <Anchor component={Link} to="/warehouse" size="sm">
          Warehouse
        </Anchor>
      }
    >
      {holdings.isPending ? (
        <PageLoader />
      ) : holdings.isError ? (
        <QueryError error={holdings.error} onRetry={() => void holdings.refetch()} />
      ) : top.length === 0 ? (
        <Empty>No inventory yet. Start producing goods!</Empty>
      ) : (
        <Stack gap={6} data-testid="top-inventory">
          {top.map((item) => (
            <Group key={`${item.product_id}-${item.location}-${item.store?.building_id ?? 0}`} justify="space-between" wrap="nowrap" gap="xs">
              <div style={{ minWidth: 0 }}>
                <Text size="sm" fw={500} truncate>
                  {item.product_name}
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  {whereText(item)}
                </Text>
              </div>
              <div style={{ textAlign: 'right', flexShrink: 0 }}>
                <Text size="sm" fw={600}>
                  {item.quantity.toLocaleString('en-US')} units
                </Text>
                <Text size="xs" c="dimmed" title="What selling them all on the market would pay now">
                  {formatMoney(item.market_value)}
                </Text>
              </div>
            </Group>
          ))}
        </Stack>
      )}
    </Panel>
  );
}

/** The last turn's story, one click away (issue 10, point 3). */
function LatestResults() {
  const reports = trpc.reports.list.useQuery();
  const latest = reports.data?.at(-1);
  if (!latest) return null;
  return (
    <Card withBorder padding="md" data-testid="latest-results">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <div>
          <Text fw={700}>Week {latest.week} results</Text>
          <Text size="sm" c="dimmed">
            Profit after tax {formatMoney(latest.profit)} · cash {formatWholeDollars(latest.cash_end)} · net worth {formatWholeDollars(latest.net_worth)}
            {latest.rank !== null && ` · rank #${latest.rank}`}
          </Text>
        </div>
        <Button component={Link} to={`/reports/${latest.week}`} variant="light" leftSection={<IconReportAnalytics size={18} aria-hidden />}>
          See week {latest.week} results
        </Button>
      </Group>
    </Card>
  );
}

const QUICK_ACTIONS = [
  { to: '/build', label: 'Build Factory', icon: IconBuildingFactory2, color: 'blue' },
  { to: '/market', label: 'Trade Goods', icon: IconShoppingCart, color: 'teal' },
  { to: '/stocks', label: 'Trade Stocks', icon: IconTrendingUp, color: 'grape' },
  { to: '/politics', label: 'Influence Politics', icon: IconGavel, color: 'orange' },
];

function QuickActions() {
  return (
    <Card withBorder padding="lg">
      <Title order={2} fz="lg" mb="sm">
        Quick Actions
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
        {QUICK_ACTIONS.map((action) => (
          <Button
            key={action.to}
            component={Link}
            to={action.to}
            variant="light"
            color={action.color}
            leftSection={<action.icon size={18} aria-hidden />}
            fullWidth
          >
            {action.label}
          </Button>
        ))}
      </SimpleGrid>
    </Card>
  );
}

/** The cash after each of the last turns; the line (recharts) is drawn when the card comes near the screen. */
function CashFlowCard({ points }: { points: CashPoint[] }) {
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
      <NearScreen height={CASH_FLOW_CHART_HEIGHT}>
        <CashFlowChart points={points} height={CASH_FLOW_CHART_HEIGHT} />
      </NearScreen>
    </Card>
  );
}

/** Phones: the header has no room for the world switcher (it is in the side menu), so the dashboard says which world this is. */
function CurrentWorldLine() {
  const world = trpc.worlds.current.useQuery();
  if (!world.data) return null;
  return (
    <Text size="sm" mt={4} hiddenFrom="sm" data-testid="dashboard-world">
      Playing in <b>{world.data.name}</b> ·{' '}
      <Anchor component={Link} to="/worlds" size="sm">
        Worlds
      </Anchor>
    </Text>
  );
}

/**
 * Every read the dashboard's sections make, asked at once (one or two batched requests rather than a
 * request per section as each mounts), and whether all have answered (or failed: a section shows
 * its own error).
 */
function useDashboardReads(): boolean {
  const reads = [
    useCompany(),
    useBuildings(),
    useCities(),
    useRecentNews(),
    trpc.stocks.overview.useQuery({ limit: 1 }),
    trpc.stocks.prices.useQuery({ limit: MOVERS_PANEL_SIZE }),
    trpc.warehouse.holdings.useQuery(),
    trpc.company.financialHistory.useQuery(),
    trpc.reports.list.useQuery(),
    trpc.worlds.current.useQuery(),
    trpc.worlds.list.useQuery(),
    trpc.contracts.list.useQuery({ direction: 'incoming', status: 'open' }),
  ];
  const teams = useYourTeams();
  return reads.every((read) => !read.isPending) && teams.answered;
}

/**
 * The dashboard shows once every section's first answer is in: sections appearing one by one above
 * each other pushed the page down as each came (a cumulative layout shift of 0.53 on a phone). The
 * page is then mounted as a deferred render, which React splits into short tasks, so a slow phone
 * stays responsive while it builds (one 3 s task before).
 */
export default function DashboardPage() {
  usePageMeta('Dashboard', 'Your company at a glance: cash, buildings, stocks, inventory and the latest news.');
  const answered = useDashboardReads();
  const show = useDeferredValue(answered);
  return show ? <Dashboard /> : <PageLoader />;
}

function Dashboard() {
  const { company, isPending: companyPending, noCompany } = useCompany();
  const buildings = useBuildings();
  // The exchange's overview totals the portfolio (shares held); the dashboard sums nothing itself
  // and shows no company of the list, so it asks for the smallest page.
  const stockOverview = trpc.stocks.overview.useQuery({ limit: 1 });
  // The holdings the Warehouse page lists (one per product and place), as Top Inventory lists them.
  const goods = trpc.warehouse.holdings.useQuery();
  const history = trpc.company.financialHistory.useQuery();

  const sharesOwned = stockOverview.data?.portfolio.shares ?? 0;
  // The portfolio at the value net worth counts it (the API's valuation: what selling the shares would pay),
  // not the spec's $100 a share, which no price in the game follows.
  const holdings = company?.net_worth_why.terms.find((term) => term.name === 'holdings');
  const debt = company ? debtWarning(company) : null;
  const greeting = useGreeting(company?.id);
  const points = company && history.data && history.data.length > 0 ? cashAfterPoints(history.data) : [];
  // The first screen (welcome, results, checklist, summary cards) is built and shown first; the
  // sections under it (chart, news, stock movers, buildings, inventory, quick actions) in a second
  // render right after: on a phone the page's largest paint, in the first screen, waited for the
  // whole page to be built (docs/benchmarks.md). They come below what is shown: nothing moves.
  const [restShown, setRestShown] = useState(false);
  useEffect(() => startTransition(() => setRestShown(true)), []);

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} fz={{ base: 24, sm: 30 }} data-testid="welcome">
          {greeting}, {company?.name ?? (companyPending ? '...' : 'Player')}!
        </Title>
        <Text c="dimmed">Here is how your company is doing this week.</Text>
        {company && (
          <Group gap={4} mt={4}>
            <Text size="sm">
              Net worth <b data-testid="dashboard-net-worth">{formatWholeDollars(company.net_worth)}</b>
            </Text>
            <WhyThisNumber figure={company.net_worth_why} label="Net worth" />
          </Group>
        )}
        <CurrentWorldLine />
      </div>

      <OtherWorldsNotice />
      <IncomingOffers />
      <LatestResults />
      {company && <FirstWeekChecklist companyId={company.id} />}
      {company && <YourTeamCard />}

      {noCompany && (
        <Suspense fallback={<PageLoader />}>
          <FoundCompanyCard />
        </Suspense>
      )}
      {debt && (
        <Alert color={debt.tone} variant="light" icon={<IconAlertTriangle aria-hidden />} title={debt.title} data-testid="debt-warning">
          <b data-testid="debt-turns">{debt.count}</b>: {debt.message}
        </Alert>
      )}

      <SimpleGrid cols={{ base: 2, lg: 4 }} spacing={{ base: 'xs', sm: 'md' }}>
        <SummaryCard
          label="Total Cash"
          value={companyPending ? <Loader size="xs" /> : formatWholeDollars(company?.cash ?? 0)}
          icon={<IconCash size={20} />}
          color="green"
          testId="summary-cash"
        />
        <SummaryCard
          label="Buildings"
          value={buildings.data?.length ?? (buildings.isPending ? <Loader size="xs" /> : 0)}
          icon={<IconBuildingFactory2 size={20} />}
          color="blue"
          testId="summary-buildings"
        />
        <SummaryCard
          label="Stock Portfolio"
          value={companyPending || stockOverview.isPending ? <Loader size="xs" /> : formatWholeDollars(holdings?.value ?? 0)}
          icon={<IconChartLine size={20} />}
          color="grape"
          hint={
            sharesOwned > 0
              ? `${sharesOwned.toLocaleString('en-US')} ${sharesOwned === 1 ? 'share, at what selling it would pay' : 'shares, at what selling them would pay'}`
              : 'No shares yet'
          }
          testId="summary-portfolio"
        />
        <SummaryCard
          label="Inventory Items"
          value={goods.data?.items.length ?? (goods.isPending ? <Loader size="xs" /> : 0)}
          icon={<IconReceipt size={20} />}
          color="orange"
          testId="summary-inventory"
        />
      </SimpleGrid>

      {/* Below a phone's first screen: laid out and painted only when they come near it (offScreen.module.css). */}
      {restShown && (
        <>
          {points.length > 0 && (
            <div className={offScreen.offScreen}>
              <CashFlowCard points={points} />
            </div>
          )}

          <AdSlot />

          <SimpleGrid cols={{ base: 1, md: 2 }} className={offScreen.offScreen}>
            <NewsFeed />
            <StockMovers />
          </SimpleGrid>

          <SimpleGrid cols={{ base: 1, md: 2 }} className={offScreen.offScreen}>
            <YourBuildings />
            <TopInventory />
          </SimpleGrid>

          <div className={offScreen.offScreen}>
            <QuickActions />
          </div>
        </>
      )}
    </Stack>
  );
}
