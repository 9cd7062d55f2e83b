/**
 * Building detail (spec section 2): header, efficiency warning, quick-nav tiles, tabs (Overview,
 * Financial Report, Operations, Trade Hall for stores, Factory for factories, Efficiency), the
 * footer buttons and the management dialogs.
 */
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { Alert, Badge, Button, Card, Center, Group, Modal, Progress, SimpleGrid, Stack, Tabs, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
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
import { BUILDING_CATEGORY_LABELS, HIRE_COST_PER_EMPLOYEE, MAX_EQUIPMENT_LEVEL, type BuildingCategory } from '@marketcraft/shared';
import { PageLoader } from '../../components/FullScreenLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { useCompany } from '../../hooks/useGameData';
import { usePageMeta } from '../../hooks/usePageMeta';
import { isNotFound } from '../../lib/errors';
import { formatWholeDollars, underscoresToSpaces } from '../../lib/format';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { researchEffectsText } from '../../lib/researchEffects';
import { trpc, type RouterOutputs } from '../../trpc';
import { CategoryDialog, HireDialog, ProductionRateDialog, RecipeDialog, UpgradeDialog } from './dialogs';
import { FactoryPanel } from './FactoryPanel';
import { TradeHall } from './TradeHall';

type Building = RouterOutputs['buildings']['get'];
type Dialog = 'hire' | 'upgrade' | 'rate' | 'recipe' | 'category' | 'sell' | null;

/** Spec section 2: fixed placeholder numbers, not live data. */
const FINANCIAL_PLACEHOLDER = { revenue: 45_000, operatingCosts: 10_000, netProfit: 35_000, roi: 12.5 };

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

function Overview({ building }: { building: Building }) {
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
          <Info label="Research bonus" value={`+${building.efficiency_bonus}%`} />
          <Info label="Effective output" value={`${building.bonused_output} units/week`} />
          <Info label="Recipe output" value={building.recipe ? `${building.effective_output} ${building.recipe.output_product_name}/week` : 'No recipe selected'} />
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

function FinancialReport() {
  const rows = [
    { label: 'Revenue', value: formatWholeDollars(FINANCIAL_PLACEHOLDER.revenue), color: 'green' },
    { label: 'Operating Costs', value: formatWholeDollars(FINANCIAL_PLACEHOLDER.operatingCosts), color: 'red' },
    { label: 'Net Profit', value: formatWholeDollars(FINANCIAL_PLACEHOLDER.netProfit), color: 'blue' },
    { label: 'ROI', value: `${FINANCIAL_PLACEHOLDER.roi}%`, color: 'grape' },
  ];
  return (
    <Stack gap="md">
      <Alert variant="light" color="gray">
        Sample figures: per-building financial reports arrive in a later release. Your real weekly results are on the Dashboard.
      </Alert>
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        {rows.map((row) => (
          <Card key={row.label} withBorder padding="md">
            <Text size="xs" c="dimmed">
              {row.label}
            </Text>
            <Text fw={800} fz="lg" c={row.color}>
              {row.value}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
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

function Efficiency({ building }: { building: Building }) {
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb={6}>
        <Text fw={600}>Overall efficiency</Text>
        <Text fw={700}>{building.overall_efficiency}%</Text>
      </Group>
      <Progress value={building.overall_efficiency} color={building.overall_efficiency < 90 ? 'orange' : 'green'} aria-label="Overall efficiency" />
      <Group gap="xs" mt="md">
        <Badge variant="light">Production 85%</Badge>
        <Badge variant="light">Cost 92%</Badge>
        <Badge variant="light">Quality 88%</Badge>
      </Group>
      <Text size="sm" c="dimmed" mt="sm">
        Staff efficiency (employees and equipment): {building.efficiency}%.
      </Text>
      <Group gap="xs" mt="md">
        <Button size="xs" variant="default">
          Now
        </Button>
        <Button size="xs" variant="default">
          Forecast
        </Button>
      </Group>
    </Card>
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
  const [tab, setTab] = useState<string | null>('overview');
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
      notifySuccess('Building sold', `You received ${formatWholeDollars(result.refund)}.`);
      refresh();
      void navigate('/my-buildings');
    },
    onError,
  });

  if (!validId || isNotFound(building.error)) return <NotFound />;
  if (building.isPending) return <PageLoader />;
  if (building.isError) return <QueryError error={building.error} onRetry={() => void building.refetch()} />;

  const data = building.data;
  const cash = company?.cash ?? 0;
  const isStore = data.is_store;
  const isFactory = data.type === 'factory';
  const categoryLabel = BUILDING_CATEGORY_LABELS[data.category as BuildingCategory] ?? data.category;
  const tiles = [
    { label: 'Management', icon: IconSettings, action: () => setTab('operations') },
    { label: 'Employees', icon: IconUsers, action: () => setTab('operations') },
    { label: 'Finance', icon: IconCash, action: () => setTab('financial') },
    { label: 'Boosters', icon: IconFlask, action: () => void navigate('/research') },
    { label: 'Marketing', icon: IconSpeakerphone, action: () => setTab('operations') },
    { label: 'Supply', icon: IconTruck, action: () => setTab('operations') },
    { label: 'Advertising', icon: IconChartBar, action: () => setTab('efficiency') },
    { label: 'Trade hall', icon: IconBuildingStore, action: () => void navigate('/market') },
  ];

  return (
    <>
      <PageHeader
        title={data.name}
        subtitle={
          <Group gap="xs" component="span">
            <span>{data.city_name || 'Unknown City'}</span>
            <Badge variant="light" component="span">
              {categoryLabel}
            </Badge>
          </Group>
        }
      />
      <Stack gap="md">
        {data.efficiency_warning && (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden />} title="Low efficiency">
            This building runs at {data.overall_efficiency}% efficiency. Build in a city whose bonus fits it, or research upgrades to raise it.
          </Alert>
        )}

        <SimpleGrid cols={{ base: 4, sm: 8 }} spacing="xs">
          {tiles.map((tile) => (
            <UnstyledButton key={tile.label} onClick={tile.action} aria-label={tile.label}>
              <Card withBorder padding="xs" ta="center">
                <Center>
                  <ThemeIcon variant="light" aria-hidden>
                    <tile.icon size={18} />
                  </ThemeIcon>
                </Center>
                <Text size="xs" mt={4} truncate>
                  {tile.label}
                </Text>
              </Card>
            </UnstyledButton>
          ))}
        </SimpleGrid>

        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List mb="md" style={{ flexWrap: 'nowrap', overflowX: 'auto' }}>
            <Tabs.Tab value="overview">Overview</Tabs.Tab>
            <Tabs.Tab value="financial">Financial Report</Tabs.Tab>
            <Tabs.Tab value="operations">Operations</Tabs.Tab>
            {isStore && <Tabs.Tab value="trade-hall">Trade Hall</Tabs.Tab>}
            {isFactory && <Tabs.Tab value="factory">Factory</Tabs.Tab>}
            <Tabs.Tab value="efficiency">Efficiency</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="overview">
            <Overview building={data} />
          </Tabs.Panel>
          <Tabs.Panel value="financial">
            <FinancialReport />
          </Tabs.Panel>
          <Tabs.Panel value="operations">
            <Operations building={data} open={setDialog} />
          </Tabs.Panel>
          {isStore && (
            <Tabs.Panel value="trade-hall">
              <TradeHall building={data} cash={cash} />
            </Tabs.Panel>
          )}
          {isFactory && (
            <Tabs.Panel value="factory">
              <FactoryPanel
                building={data}
                recipes={(recipes.data ?? []).filter((candidate) => candidate.building_type.toLowerCase() === 'factory')}
                cash={cash}
                open={setDialog}
                onSelectRecipe={(recipeId) => recipe.mutate({ id, recipe_id: recipeId })}
                selectingRecipe={recipe.isPending}
              />
            </Tabs.Panel>
          )}
          <Tabs.Panel value="efficiency">
            <Efficiency building={data} />
          </Tabs.Panel>
        </Tabs>

        <Group gap="xs">
          <Button component={Link} to="/market" variant="light">
            Go to Market
          </Button>
          <Button component={Link} to="/research" variant="light">
            Research Upgrades
          </Button>
          <Button color="red" variant="outline" onClick={() => setDialog('sell')}>
            Sell Building
          </Button>
        </Group>
      </Stack>

      {dialog === 'hire' && <HireDialog opened onClose={() => setDialog(null)} pending={hire.isPending} cash={cash} onConfirm={(count) => hire.mutate({ id, count })} />}
      {dialog === 'upgrade' && (
        <UpgradeDialog opened onClose={() => setDialog(null)} pending={upgrade.isPending} cash={cash} current={data.equipment_level} onConfirm={(level) => upgrade.mutate({ id, target_level: level })} />
      )}
      {dialog === 'rate' && <ProductionRateDialog opened onClose={() => setDialog(null)} pending={rate.isPending} current={data.production_rate} onConfirm={(value) => rate.mutate({ id, new_rate: value })} />}
      {dialog === 'recipe' && (
        <RecipeDialog
          opened
          onClose={() => setDialog(null)}
          pending={recipe.isPending}
          recipes={(recipes.data ?? []).filter((candidate) => candidate.building_type.toLowerCase() === data.type.toLowerCase())}
          selectedId={data.selected_recipe_id}
          onConfirm={(recipeId) => recipe.mutate({ id, recipe_id: recipeId })}
        />
      )}
      {dialog === 'category' && <CategoryDialog opened onClose={() => setDialog(null)} pending={category.isPending} selected={data.selected_category} onConfirm={(value) => category.mutate({ id, category: value })} />}
      {dialog === 'sell' && (
        <Modal opened onClose={() => setDialog(null)} title="Sell Building" centered>
          <Text size="sm">
            Sell this {data.name} in {data.city_name}? You get back {formatWholeDollars(data.sale_refund)} (half of what you invested); its stock moves to your warehouse.
          </Text>
          <Group justify="flex-end" mt="md">
            <Button variant="default" onClick={() => setDialog(null)}>
              Cancel
            </Button>
            <Button color="red" onClick={() => sell.mutate({ id })} disabled={sell.isPending}>
              {sell.isPending ? 'Selling...' : 'Sell Building'}
            </Button>
          </Group>
        </Modal>
      )}
    </>
  );
}
