/**
 * Building detail (spec section 2): header, efficiency warning, quick-nav tiles, the tabs (one file
 * each: Overview, Financial Report, Operations, Trade Hall for stores, Factory for factories,
 * Efficiency), the footer buttons and the management dialogs.
 */
import { Suspense, lazy, useDeferredValue, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Alert, Anchor, Badge, Button, Center, Group, SimpleGrid, Stack, Tabs, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconBuildingStore,
  IconCash,
  IconChartBar,
  IconFlask,
  IconSettings,
  IconSpeakerphone,
  IconTruck,
  IconUsers,
} from '@tabler/icons-react';
import { BUILDING_CATEGORY_LABELS, EFFICIENCY_PER_EMPLOYEE, EFFICIENCY_PER_EQUIPMENT_LEVEL, type BuildingCategory } from '@marketcraft/shared';
import { PageLoader } from '../../components/FullScreenLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { useCompany } from '../../hooks/useGameData';
import { usePageMeta } from '../../hooks/usePageMeta';
import { isNotFound } from '../../lib/errors';
import { formatWholeDollars } from '../../lib/format';
import { shelfState } from '../../lib/shelf';
import { trpc, type RouterOutputs } from '../../trpc';
import { EfficiencyPanel } from './EfficiencyPanel';
import { FinancialReport } from './FinancialReport';
import { OperationsTab } from './OperationsTab';
import { OverviewTab } from './OverviewTab';
import { useBuildingActions, type BuildingActions } from './useBuildingActions';
import { useBuildingEconomics, type ProductionForecast } from './useBuildingEconomics';
import classes from './building.module.css';

/*
 * Loaded when first needed, not with the page: the management dialogs (when one is first opened)
 * and the Trade Hall and Factory tabs (when picked). Their forms check input with the API's
 * schemas, and zod with the form schemas (~34 kB gzip) held up a phone's first screen of every
 * building (docs/web.md, "First load").
 */
const BuildingDialogs = lazy(() => import('./dialogs').then((module) => ({ default: module.BuildingDialogs })));
const TradeHall = lazy(() => import('./TradeHall').then((module) => ({ default: module.TradeHall })));
const FactoryPanel = lazy(() => import('./FactoryPanel').then((module) => ({ default: module.FactoryPanel })));

type Building = RouterOutputs['buildings']['get'];
type Recipe = RouterOutputs['catalog']['recipes'][number];

function NotFound() {
  return (
    <Center py="xl">
      <Stack align="center" gap="sm">
        <Title order={1}>Building Not Found</Title>
        <Text c="dimmed">This building does not exist or is not yours.</Text>
        <Button component={Link} to="/build" leftSection={<IconArrowLeft size={16} aria-hidden />}>
          Back to Buildings
        </Button>
      </Stack>
    </Center>
  );
}

const QUICK_NAV = [
  { label: 'Management', icon: IconSettings, tab: 'operations' },
  { label: 'Employees', icon: IconUsers, tab: 'operations' },
  { label: 'Finance', icon: IconCash, tab: 'financial' },
  { label: 'Boosters', icon: IconFlask, to: '/research' },
  { label: 'Marketing', icon: IconSpeakerphone, tab: 'operations' },
  { label: 'Supply', icon: IconTruck, tab: 'operations' },
  { label: 'Advertising', icon: IconChartBar, tab: 'efficiency' },
  { label: 'Trade hall', icon: IconBuildingStore, to: '/market' },
] as const;

/**
 * A recipe whose inputs the warehouse cannot cover makes less (or nothing) next turn: say so where
 * the player looks, with what is missing and where to buy it (the API's forecast, nothing recomputed).
 */
function ShortInputsAlert({ forecast, product }: { forecast: ProductionForecast; product: string }) {
  return (
    <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden />} title="Short of inputs" data-testid="short-inputs-warning">
      Next turn makes {forecast.units.toLocaleString('en-US')} of the {forecast.planned.toLocaleString('en-US')} {product} planned: your warehouse has{' '}
      {forecast.short.map((input) => `${input.have.toLocaleString('en-US')} of the ${input.need.toLocaleString('en-US')} ${input.name}`).join(', ')} it needs.
      <Group gap="md" mt={4}>
        {forecast.short.map((input) => (
          <Anchor key={input.productId} component={Link} to={`/market?product=${input.productId}`} fz="sm" c="inherit" fw={600} underline="always">
            Buy {input.name} on the Market
          </Anchor>
        ))}
      </Group>
    </Alert>
  );
}

/**
 * A store sells only what is on its shelf: with nothing on sale it sells nothing next turn while its
 * wages and running costs are paid (the forecast's costs). A shelf that sold out in one week said
 * so nowhere but '0 in stock' inside the Trade Hall.
 */
function EmptyShelfAlert({ building, onTradeHall }: { building: Building; onTradeHall: () => void }) {
  const shelf = trpc.stores.products.useQuery({ id: building.id });
  if (!shelf.data) return null;
  const state = shelfState(shelf.data);
  if (!state.empty) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlertTriangle aria-hidden />}
      title={state.soldOut.length > 0 ? 'Sold out' : 'Nothing on the shelf'}
      data-testid="empty-shelf-warning"
    >
      {state.soldOut.length > 0 ? `${state.soldOut.join(', ')} sold out: this store sells nothing next turn.` : 'This store sells nothing next turn.'} It sells
      only the goods on its shelf, at your price; its wages and running costs ({formatWholeDollars(building.forecast.costs)} next turn) are paid anyway.
      <Group gap="md" mt={4}>
        <Anchor component={Link} to="/warehouse" fz="sm" c="inherit" fw={600} underline="always">
          Send goods from the Warehouse
        </Anchor>
        <Anchor component="button" type="button" fz="sm" c="inherit" fw={600} underline="always" onClick={onTradeHall}>
          Open the Trade Hall
        </Anchor>
      </Group>
    </Alert>
  );
}

/** The page once the building is loaded: its live economics feed the alert and the tabs. */
function BuildingScreen({ building, cash, recipes, actions }: { building: Building; cash: number; recipes: Recipe[]; actions: BuildingActions }) {
  const navigate = useNavigate();
  const [tab, setTab] = useState<string | null>('overview');
  const economics = useBuildingEconomics(building);
  const isStore = building.is_store;
  const isFactory = building.type === 'factory';
  const categoryLabel = BUILDING_CATEGORY_LABELS[building.category as BuildingCategory] ?? building.category;

  return (
    <>
      <PageHeader
        title={building.name}
        subtitle={
          <Group gap="xs" component="span">
            <span>{building.city_name || 'Unknown City'}</span>
            <Badge variant="light" component="span">
              {categoryLabel}
            </Badge>
          </Group>
        }
      />
      <Stack gap="md">
        {building.efficiency_warning && (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden />} title="Low efficiency" data-testid="efficiency-warning">
            {/* Efficiency comes from staff and equipment (the API's formula), so that is what the advice names. */}
            This building runs at {building.overall_efficiency}% efficiency: each employee adds {EFFICIENCY_PER_EMPLOYEE} points and each equipment level{' '}
            {EFFICIENCY_PER_EQUIPMENT_LEVEL}, up to 100%.{' '}
            <Anchor component="button" type="button" fz="sm" c="inherit" fw={600} underline="always" onClick={() => setTab('operations')}>
              Go to Operations
            </Anchor>
          </Alert>
        )}

        {economics.forecast && economics.forecast.short.length > 0 && building.recipe && (
          <ShortInputsAlert forecast={economics.forecast} product={building.recipe.output_product_name} />
        )}

        {isStore && <EmptyShelfAlert building={building} onTradeHall={() => setTab('trade-hall')} />}

        <SimpleGrid cols={{ base: 2, xs: 4, lg: 8 }} spacing="xs" aria-label="Quick navigation">
          {QUICK_NAV.map((tile) => (
            <UnstyledButton key={tile.label} onClick={() => ('to' in tile ? void navigate(tile.to) : setTab(tile.tab))} className={classes.tile}>
              <ThemeIcon variant="light" aria-hidden>
                <tile.icon size={18} />
              </ThemeIcon>
              <Text size="xs" fw={500}>
                {tile.label}
              </Text>
            </UnstyledButton>
          ))}
        </SimpleGrid>

        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List mb="md" className={classes.tabList}>
            <Tabs.Tab value="overview">Overview</Tabs.Tab>
            <Tabs.Tab value="financial">Financial Report</Tabs.Tab>
            <Tabs.Tab value="operations">Operations</Tabs.Tab>
            {isStore && <Tabs.Tab value="trade-hall">Trade Hall</Tabs.Tab>}
            {isFactory && <Tabs.Tab value="factory">Factory</Tabs.Tab>}
            <Tabs.Tab value="efficiency">Efficiency</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="overview">
            <OverviewTab building={building} economics={economics} />
          </Tabs.Panel>
          <Tabs.Panel value="financial">
            <FinancialReport building={building} economics={economics} />
          </Tabs.Panel>
          <Tabs.Panel value="operations">
            <OperationsTab building={building} open={actions.open} />
          </Tabs.Panel>
          {isStore && (
            <Tabs.Panel value="trade-hall">
              <Suspense fallback={<PageLoader />}>
                <TradeHall building={building} cash={cash} />
              </Suspense>
            </Tabs.Panel>
          )}
          {isFactory && (
            <Tabs.Panel value="factory">
              <Suspense fallback={<PageLoader />}>
                <FactoryPanel
                  building={building}
                  economics={economics}
                  recipes={recipes.filter((candidate) => candidate.building_type.toLowerCase() === 'factory')}
                  cash={cash}
                  open={actions.open}
                  onSelectRecipe={(request) => actions.recipe.mutate(request)}
                  selectingRecipe={actions.recipe.isPending}
                />
              </Suspense>
            </Tabs.Panel>
          )}
          <Tabs.Panel value="efficiency">
            <EfficiencyPanel building={building} economics={economics} />
          </Tabs.Panel>
        </Tabs>

        <Group gap="xs">
          <Button component={Link} to="/market" variant="light">
            Go to Market
          </Button>
          <Button component={Link} to="/research" variant="light">
            Research Upgrades
          </Button>
          <Button color="red" variant="outline" onClick={() => actions.open('sell')}>
            Sell Building
          </Button>
        </Group>
      </Stack>
    </>
  );
}

export default function BuildingDetailPage() {
  const params = useParams();
  const id = Number(params.id);
  const validId = Number.isInteger(id) && id > 0;
  const { company } = useCompany();
  const building = trpc.buildings.get.useQuery({ id }, { enabled: validId });
  const recipes = trpc.catalog.recipes.useQuery(building.data ? { building_type: building.data.type } : undefined, {
    enabled: Boolean(building.data && !building.data.is_store),
  });
  const actions = useBuildingActions();
  // The dialogs' file (their forms bring zod) loads when a dialog is first opened, and stays.
  const [dialogsWanted, setDialogsWanted] = useState(false);
  if (actions.dialog !== null && !dialogsWanted) setDialogsWanted(true);
  usePageMeta(
    building.data ? `${building.data.name} in ${building.data.city_name}` : 'Building',
    'Manage a building: employees, equipment, production and finances.',
  );

  // The screen is built once the building and (for a non-store) its recipes have answered, as a
  // deferred render that React splits into short tasks, under the page's spinner: built by the
  // answers' own (synchronous) updates, one task each, it blocked a phone's main thread for ~0.5 s.
  const answered = building.isSuccess && (building.data.is_store || !recipes.isPending);
  const show = useDeferredValue(answered);

  if (!validId || isNotFound(building.error)) return <NotFound />;
  if (building.isError) return <QueryError error={building.error} onRetry={() => void building.refetch()} />;
  if (building.isPending || !show) return <PageLoader />;

  const data = building.data;
  const cash = company?.cash ?? 0;

  return (
    <>
      <BuildingScreen building={data} cash={cash} recipes={recipes.data ?? []} actions={actions} />
      {dialogsWanted && (
        <Suspense fallback={null}>
          <BuildingDialogs building={data} cash={cash} recipes={recipes.data ?? []} actions={actions} />
        </Suspense>
      )}
    </>
  );
}
