/**
 * Building detail (spec section 2): header, efficiency warning, quick-nav tiles, tabs (Overview,
 * Financial Report, Operations, Trade Hall for stores, Factory for factories, Efficiency), the
 * footer buttons and the management dialogs.
 */
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { Alert, Badge, Button, Card, Center, Group, Modal, SimpleGrid, Stack, Tabs, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconBolt,
  IconBuildingStore,
  IconCash,
  IconChartBar,
  IconFlask,
  IconSettings,
  IconSpeakerphone,
  IconTruck,
  IconUsers,
} from '@tabler/icons-react';
import {
  BUILDING_CATEGORY_LABELS,
  HIRE_COST_PER_EMPLOYEE,
  MAX_EQUIPMENT_LEVEL,
  type BuildingCategory,
} from '@marketcraft/shared';
import { PageLoader } from '../../components/FullScreenLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { useCompany } from '../../hooks/useGameData';
import { usePageMeta } from '../../hooks/usePageMeta';
import { isNotFound } from '../../lib/errors';
import { checkRecipeSelection } from '../../lib/formChecks';
import { formatMoney, formatWholeDollars, underscoresToSpaces } from '../../lib/format';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { researchEffectsText } from '../../lib/researchEffects';
import { trpc, type RouterOutputs } from '../../trpc';
import { CategoryDialog, HireDialog, ProductionRateDialog, RecipeDialog, UpgradeDialog } from './dialogs';
import { EfficiencyPanel } from './EfficiencyPanel';
import { FactoryPanel } from './FactoryPanel';
import { FinancialReport } from './FinancialReport';
import { TradeHall } from './TradeHall';
import { useBuildingEconomics, type BuildingEconomics } from './useBuildingEconomics';
import classes from './building.module.css';

type Building = RouterOutputs['buildings']['get'];
type Dialog = 'hire' | 'upgrade' | 'rate' | 'recipe' | 'category' | 'sell' | null;

function Info({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </div>
  );
}

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

function Overview({ building, economics }: { building: Building; economics: BuildingEconomics }) {
  const upgrades = trpc.research.upgrades.useQuery();
  const active = (upgrades.data ?? []).filter((upgrade) => upgrade.researched && (!upgrade.building_type || upgrade.building_type === building.type));
  return (
    <Stack gap="md">
      <Card withBorder padding="lg">
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md">
          <Info label="Location" value={building.city_name || 'Unknown City'} />
          <Info label="Size (base capacity)" value={`${building.base_capacity} units/week`} />
          <Info label="Operating costs" value={`${formatWholeDollars(building.weekly_operating_cost)}/week`} />
          <Info label="Popularity" value={building.popularity.toLocaleString('en-US')} />
          <Info label="Base production" value={`${building.production_rate} units/week`} />
          <Info
            label="City bonus"
            value={building.city_bonus_applies ? `+${building.city_bonus_value}% ${underscoresToSpaces(building.city_bonus_type)}` : `None (${underscoresToSpaces(building.city_bonus_type)} city)`}
          />
          <Info label="Research bonus" value={`+${building.research_bonus}%`} />
          {building.efficiency_bonus !== 0 && <Info label="Building bonus" value={`+${building.efficiency_bonus}%`} />}
          <Info label="Effective output" value={`${building.bonused_output} units/week`} />
          {building.is_store ? (
            <Info label="Next turn's sales" value={economics.isPending ? '...' : `${economics.nextWeek.units.toLocaleString('en-US')} units`} />
          ) : (
            <Info
              label="Next turn's output"
              value={
                !building.recipe
                  ? 'No recipe selected'
                  : economics.isPending || !economics.forecast
                    ? '...'
                    : `${economics.forecast.units.toLocaleString('en-US')} ${building.recipe.output_product_name}`
              }
            />
          )}
        </SimpleGrid>
        {building.recipe && (
          <Group gap={4} mt="md">
            <Badge variant="light">{building.recipe.output_product_name}</Badge>
            {building.recipe.inputs.map((input) => (
              <Badge key={input.product_id} variant="outline" color="gray" tt="none">
                needs {input.quantity} {input.product_name}
              </Badge>
            ))}
          </Group>
        )}
      </Card>
      <Card withBorder padding="lg">
        <Title order={3} fz="md" mb="xs">
          Active Research Bonuses
        </Title>
        {active.length === 0 ? (
          <Text size="sm" c="dimmed">
            None yet. Research upgrades to boost this building.
          </Text>
        ) : (
          <Stack gap={4}>
            {active.map((upgrade) => (
              <Text key={upgrade.id} size="sm">
                <b>{upgrade.name}</b>: {researchEffectsText(upgrade.effects).join(', ')}
              </Text>
            ))}
          </Stack>
        )}
      </Card>
    </Stack>
  );
}

function Operations({ building, open }: { building: Building; open: (dialog: Dialog) => void }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      <Card withBorder padding="md">
        <Info label="Employees" value={building.employees} />
        <Button mt="sm" size="xs" onClick={() => open('hire')} leftSection={<IconUsers size={14} aria-hidden />}>
          Hire Employees
        </Button>
        <Text size="xs" c="dimmed" mt={4}>
          {formatWholeDollars(HIRE_COST_PER_EMPLOYEE)} each
        </Text>
      </Card>
      <Card withBorder padding="md">
        <Info label="Equipment level" value={`${building.equipment_level} / ${MAX_EQUIPMENT_LEVEL}`} />
        <Button mt="sm" size="xs" onClick={() => open('upgrade')} disabled={building.equipment_level >= MAX_EQUIPMENT_LEVEL} leftSection={<IconSettings size={14} aria-hidden />}>
          Upgrade Equipment
        </Button>
      </Card>
      <Card withBorder padding="md">
        <Info label="Production rate" value={`${building.production_rate} units/week`} />
        <Button mt="sm" size="xs" onClick={() => open('rate')} leftSection={<IconBolt size={14} aria-hidden />}>
          Adjust Production
        </Button>
      </Card>
      <Card withBorder padding="md" style={{ gridColumn: '1 / -1' }}>
        {building.is_store ? (
          <Group justify="space-between">
            <Info label="Product category" value={building.selected_category ?? 'None selected'} />
            <Button size="xs" variant="light" onClick={() => open('category')}>
              Select Category
            </Button>
          </Group>
        ) : (
          <Group justify="space-between">
            <Info label="Producing" value={building.recipe ? building.recipe.output_product_name : 'Nothing selected'} />
            <Button size="xs" variant="light" onClick={() => open('recipe')}>
              Select What to Produce
            </Button>
          </Group>
        )}
        <Button component={Link} to="/research" variant="subtle" size="xs" mt="sm" leftSection={<IconFlask size={14} aria-hidden />}>
          Research upgrades for this building
        </Button>
      </Card>
    </SimpleGrid>
  );
}

type Recipe = RouterOutputs['catalog']['recipes'][number];

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

/** The page once the building is loaded: its live economics feed the alert and the tabs. */
function BuildingScreen({
  building,
  cash,
  recipes,
  openDialog,
  onSelectRecipe,
  selectingRecipe,
}: {
  building: Building;
  cash: number;
  recipes: Recipe[];
  openDialog: (dialog: Dialog) => void;
  onSelectRecipe: (recipeId: number) => void;
  selectingRecipe: boolean;
}) {
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
          <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden />} title="Low efficiency">
            This building runs at {building.overall_efficiency}% efficiency. Build in a city whose bonus fits it, or research upgrades to raise it.
          </Alert>
        )}

        <SimpleGrid cols={{ base: 2, xs: 4, lg: 8 }} spacing="xs" aria-label="Quick navigation">
          {QUICK_NAV.map((tile) => (
            <UnstyledButton
              key={tile.label}
              onClick={() => ('to' in tile ? void navigate(tile.to) : setTab(tile.tab))}
              className={classes.tile}
            >
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
            <Overview building={building} economics={economics} />
          </Tabs.Panel>
          <Tabs.Panel value="financial">
            <FinancialReport building={building} economics={economics} />
          </Tabs.Panel>
          <Tabs.Panel value="operations">
            <Operations building={building} open={openDialog} />
          </Tabs.Panel>
          {isStore && (
            <Tabs.Panel value="trade-hall">
              <TradeHall building={building} cash={cash} />
            </Tabs.Panel>
          )}
          {isFactory && (
            <Tabs.Panel value="factory">
              <FactoryPanel
                building={building}
                economics={economics}
                recipes={recipes.filter((candidate) => candidate.building_type.toLowerCase() === 'factory')}
                cash={cash}
                open={openDialog}
                onSelectRecipe={onSelectRecipe}
                selectingRecipe={selectingRecipe}
              />
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
          <Button color="red" variant="outline" onClick={() => openDialog('sell')}>
            Sell Building
          </Button>
        </Group>
      </Stack>
    </>
  );
}

function SellDialog({ building, pending, onClose, onConfirm }: { building: Building; pending: boolean; onClose: () => void; onConfirm: () => void }) {
  return (
    <Modal opened onClose={onClose} title="Sell Building" centered>
      <Stack gap="sm">
        <Text size="sm">
          Sell your {building.name} in {building.city_name || 'Unknown City'}? This cannot be undone.
        </Text>
        <Card withBorder padding="sm">
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              Invested (construction and equipment)
            </Text>
            <Text size="sm">{formatMoney(building.invested)}</Text>
          </Group>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              You get back (50%)
            </Text>
            <Text size="sm" fw={700} c="green" data-testid="sell-refund">
              {formatMoney(building.sale_refund)}
            </Text>
          </Group>
        </Card>
        <Text size="xs" c="dimmed">
          {building.is_store ? 'Its shelf and back-room stock moves to your company warehouse.' : 'Goods it made are already in your warehouse and stay there.'}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button color="red" onClick={onConfirm} disabled={pending} data-autofocus>
            {pending ? 'Selling...' : 'Sell Building'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export default function BuildingDetailPage() {
  const params = useParams();
  const id = Number(params.id);
  const validId = Number.isInteger(id) && id > 0;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { company } = useCompany();
  const building = trpc.buildings.get.useQuery({ id }, { enabled: validId });
  const recipes = trpc.catalog.recipes.useQuery(building.data ? { building_type: building.data.type } : undefined, { enabled: Boolean(building.data && !building.data.is_store) });
  const [dialog, setDialog] = useState<Dialog>(null);
  usePageMeta(building.data ? `${building.data.name} in ${building.data.city_name}` : 'Building', 'Manage a building: employees, equipment, production and finances.');

  const refresh = () => {
    setDialog(null);
    void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.buildings) });
    void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.company) });
  };
  const onError = (error: unknown) => notifyFailure('Error', error, 'Something went wrong. Please try again.');
  const hire = trpc.buildings.hireEmployees.useMutation({ onSuccess: () => (notifySuccess('Employees hired successfully!'), refresh()), onError });
  const upgrade = trpc.buildings.upgradeEquipment.useMutation({ onSuccess: () => (notifySuccess('Equipment upgraded successfully!'), refresh()), onError });
  const rate = trpc.buildings.productionRate.useMutation({ onSuccess: () => (notifySuccess('Production rate updated!', 'The new rate applies from the next turn.'), refresh()), onError });
  const recipe = trpc.buildings.selectRecipe.useMutation({ onSuccess: () => (notifySuccess('Production recipe selected!'), refresh()), onError });
  const category = trpc.buildings.selectCategory.useMutation({ onSuccess: () => (notifySuccess('Product category selected!'), refresh()), onError });
  const sell = trpc.buildings.sell.useMutation({
    onSuccess: (result) => {
      const moved = result.units_moved_to_warehouse > 0 ? ` ${result.units_moved_to_warehouse.toLocaleString('en-US')} units of stock moved to your warehouse.` : '';
      notifySuccess('Building sold!', `Your ${result.name} in ${result.city_name} was sold for ${formatMoney(result.refund)}.${moved}`);
      setDialog(null);
      // Leave the page first: this building no longer exists.
      void navigate('/my-buildings', { replace: true });
      queryClient.removeQueries({ queryKey: getQueryKey(trpc.buildings.get, { id: result.id }, 'query') });
      void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.buildings) });
      void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.company) });
      void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.catalog) });
      void queryClient.invalidateQueries({ queryKey: getQueryKey(trpc.news) });
    },
    onError: (error) => notifyFailure('Error', error, 'Could not sell the building. Please try again.'),
  });

  if (!validId || isNotFound(building.error)) return <NotFound />;
  if (building.isPending) return <PageLoader />;
  if (building.isError) return <QueryError error={building.error} onRetry={() => void building.refetch()} />;

  const data = building.data;
  const cash = company?.cash ?? 0;

  return (
    <>
      <BuildingScreen
        building={data}
        cash={cash}
        recipes={recipes.data ?? []}
        openDialog={setDialog}
        onSelectRecipe={(recipeId) => {
          const checked = checkRecipeSelection({ id, recipe_id: recipeId });
          if (checked.ok) recipe.mutate(checked.request);
        }}
        selectingRecipe={recipe.isPending}
      />

      {dialog === 'hire' && <HireDialog opened onClose={() => setDialog(null)} pending={hire.isPending} buildingId={id} cash={cash} onConfirm={(request) => hire.mutate(request)} />}
      {dialog === 'upgrade' && (
        <UpgradeDialog
          opened
          onClose={() => setDialog(null)}
          pending={upgrade.isPending}
          buildingId={id}
          cash={cash}
          current={data.equipment_level}
          onConfirm={(request) => upgrade.mutate(request)}
        />
      )}
      {dialog === 'rate' && (
        <ProductionRateDialog opened onClose={() => setDialog(null)} pending={rate.isPending} buildingId={id} current={data.production_rate} onConfirm={(request) => rate.mutate(request)} />
      )}
      {dialog === 'recipe' && (
        <RecipeDialog
          opened
          onClose={() => setDialog(null)}
          pending={recipe.isPending}
          buildingId={id}
          recipes={(recipes.data ?? []).filter((candidate) => candidate.building_type.toLowerCase() === data.type.toLowerCase())}
          selectedId={data.selected_recipe_id}
          onConfirm={(request) => recipe.mutate(request)}
        />
      )}
      {dialog === 'category' && (
        <CategoryDialog opened onClose={() => setDialog(null)} pending={category.isPending} buildingId={id} selected={data.selected_category} onConfirm={(request) => category.mutate(request)} />
      )}
      {dialog === 'sell' && <SellDialog building={data} pending={sell.isPending} onClose={() => setDialog(null)} onConfirm={() => sell.mutate({ id })} />}
    </>
  );
}
