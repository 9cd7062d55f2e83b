/** Factory management (spec section 2): Raw Materials, Production, Output and Operations tabs. */
import { useState } from 'react';
import { Badge, Button, Card, Group, Progress, Select, SimpleGrid, Stack, Table, Tabs, Text } from '@mantine/core';
import { EFFICIENCY_PER_EMPLOYEE, EFFICIENCY_PER_EQUIPMENT_LEVEL, MAX_EQUIPMENT_LEVEL, PRODUCT_CATEGORIES } from '@marketcraft/shared';
import { QueryState } from '../../components/QueryState';
import { ScrollBox } from '../../components/ScrollBox';
import { checkRecipeSelection } from '../../lib/formChecks';
import { formatMoney } from '../../lib/format';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { trpc, type RouterOutputs } from '../../trpc';
import { PurchaseDialog, type PurchaseTarget } from './dialogs';
import type { BuildingEconomics } from './useBuildingEconomics';

/** The request picking a recipe sends (checked with the API's schema). */
type RecipeRequest = Extract<ReturnType<typeof checkRecipeSelection>, { ok: true }>['request'];
import { TableScroll } from '../../components/TableScroll';

type Building = RouterOutputs['buildings']['get'];
type Recipe = RouterOutputs['catalog']['recipes'][number];
type FactoryDialog = 'hire' | 'upgrade' | 'rate';

/** Raw material purchases default to 100 units (spec section 9). */
const DEFAULT_RAW_MATERIAL_QUANTITY = 100;

export function FactoryPanel({
  building,
  economics,
  recipes,
  cash,
  open,
  onSelectRecipe,
  selectingRecipe,
}: {
  building: Building;
  economics: BuildingEconomics;
  recipes: Recipe[];
  cash: number;
  open: (dialog: FactoryDialog) => void;
  onSelectRecipe: (request: RecipeRequest) => void;
  selectingRecipe: boolean;
}) {
  const [category, setCategory] = useState<string | null>('Raw Materials');
  const [target, setTarget] = useState<PurchaseTarget | null>(null);
  // Raw materials are bought on the exchange: its price for one unit now (a larger order walks the curve: the dialog quotes it).
  const market = trpc.catalog.goods.useQuery();
  // The whole company warehouse: production takes its inputs from there, whatever bought or made them.
  const materials = trpc.catalog.inventory.useQuery();
  const purchase = trpc.buildings.purchaseInventory.useMutation({
    onSuccess: () => {
      notifySuccess('Raw materials purchased successfully!');
      setTarget(null);
    },
    onError: (error) => notifyFailure('Error', error, 'Insufficient funds'),
  });

  // What one turn of each recipe needs at this building's settings: the API's figures (the turn's own rules).
  const forecastFor = (recipe: Recipe) => {
    const needs = economics.raw.recipes.find((entry) => entry.recipe_id === recipe.id);
    const inputs = (needs?.inputs ?? []).map((input) => ({
      productId: input.product_id,
      name: input.product_name,
      need: input.needed,
      have: input.in_stock,
      used: Math.min(input.needed, input.in_stock),
    }));
    return { planned: needs?.planned_output ?? 0, inputs, short: inputs.filter((input) => input.have < input.need) };
  };
  const isReady = (recipe: Recipe) => economics.raw.recipes.find((entry) => entry.recipe_id === recipe.id)?.ready ?? false;
  const selected = building.recipe ? (recipes.find((recipe) => recipe.id === building.recipe?.id) ?? null) : null;
  const inputIds = new Set((selected?.inputs ?? []).map((input) => input.product_id));
  const materialCount = (materials.data ?? []).filter((item) => inputIds.has(item.product_id)).reduce((sum, item) => sum + item.quantity, 0);
  const buy = (productId: number, productName: string, quantity: number) => setTarget({ productId, productName, quantity: Math.max(1, quantity) });

  return (
    <Stack gap="md">
      <Group gap="xs">
        <Badge size="lg" variant="light" tt="none">
          {building.employees} {building.employees === 1 ? 'worker' : 'workers'}
        </Badge>
        <Badge size="lg" variant="light" tt="none">
          Equipment level {building.equipment_level}
        </Badge>
        <Badge size="lg" variant="light" color={building.efficiency < 90 ? 'orange' : 'green'} tt="none">
          {building.efficiency}% efficiency
        </Badge>
        <Badge size="lg" variant="light" color="grape" tt="none">
          {materialCount.toLocaleString('en-US')} materials
        </Badge>
      </Group>
      {/* Without a recipe, Production first: pick what to make, then its shopping list says what to buy
          (a new factory opened on a list of every raw material, none of them needed yet). */}
      <Tabs defaultValue={building.selected_recipe_id === null ? 'production' : 'materials'} keepMounted={false} variant="pills">
        <Tabs.List mb="md">
          <Tabs.Tab value="materials">Raw Materials</Tabs.Tab>
          <Tabs.Tab value="production">Production</Tabs.Tab>
          <Tabs.Tab value="output">Output</Tabs.Tab>
          <Tabs.Tab value="operations">Operations</Tabs.Tab>
        </Tabs.List>

        <Tabs.Panel value="materials">
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Card withBorder padding="sm">
              <Select label="Category" data={[...PRODUCT_CATEGORIES]} value={category} onChange={setCategory} mb="sm" allowDeselect={false} />
              <QueryState query={market}>
                {(data) => (
                  <ScrollBox maxHeight={600} label="Products on the market">
                    <Stack gap={4}>
                      {data
                        .filter((product) => product.category === category)
                        .map((product) => (
                          <Group key={product.id} justify="space-between" wrap="nowrap" gap="xs">
                            <Text size="sm" truncate>
                              {product.name}
                            </Text>
                            <Group gap="xs" wrap="nowrap">
                              <Text size="sm">{formatMoney(product.buy_price)}</Text>
                              <Button
                                size="compact-xs"
                                variant="light"
                                aria-label={`Buy ${product.name}`}
                                onClick={() => buy(product.id, product.name, DEFAULT_RAW_MATERIAL_QUANTITY)}
                              >
                                Buy
                              </Button>
                            </Group>
                          </Group>
                        ))}
                    </Stack>
                  </ScrollBox>
                )}
              </QueryState>
            </Card>
            <Card withBorder padding="sm">
              <Text fw={600} mb="xs">
                Current Inventory (company warehouse)
              </Text>
              <QueryState query={materials} empty="Your warehouse is empty: buy materials here or on the market.">
                {(items) => (
                  <Stack gap={4}>
                    {items.map((item) => (
                      <Group key={item.product_id} justify="space-between" wrap="nowrap">
                        <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
                          <Text size="sm" truncate>
                            {item.product_name}
                          </Text>
                          {inputIds.has(item.product_id) && (
                            <Badge size="xs" variant="light" color="teal" style={{ flexShrink: 0 }}>
                              Used by this recipe
                            </Badge>
                          )}
                        </Group>
                        <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
                          {item.quantity.toLocaleString('en-US')} · avg {formatMoney(item.average_cost)}
                        </Text>
                      </Group>
                    ))}
                  </Stack>
                )}
              </QueryState>
            </Card>
          </SimpleGrid>
        </Tabs.Panel>

        <Tabs.Panel value="production">
          <Stack gap="md">
            <Card withBorder padding="sm">
              <Text fw={600} mb="xs">
                Shopping List {selected ? `for ${selected.output_product_name}` : ''}
              </Text>
              {!selected ? (
                <Text size="sm" c="dimmed">
                  Select a recipe below to see what it needs.
                </Text>
              ) : (
                <TableScroll minWidth={420} label="Shopping list">
                  <Table>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Material</Table.Th>
                        <Table.Th ta="right">Need / turn</Table.Th>
                        <Table.Th ta="right">Have</Table.Th>
                        <Table.Th />
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {forecastFor(selected).inputs.map((input) => {
                        const missing = Math.max(0, input.need - input.have);
                        return (
                          <Table.Tr key={input.productId}>
                            <Table.Td>{input.name}</Table.Td>
                            <Table.Td ta="right">{input.need}</Table.Td>
                            <Table.Td ta="right" c={missing > 0 ? 'red' : 'green'}>
                              {input.have.toLocaleString('en-US')}
                            </Table.Td>
                            <Table.Td ta="right">
                              <Button
                                size="compact-xs"
                                variant="light"
                                aria-label={`Quick Buy ${input.name}`}
                                onClick={() => buy(input.productId, input.name, missing || DEFAULT_RAW_MATERIAL_QUANTITY)}
                              >
                                Quick Buy
                              </Button>
                            </Table.Td>
                          </Table.Tr>
                        );
                      })}
                    </Table.Tbody>
                  </Table>
                </TableScroll>
              )}
            </Card>
            <Card withBorder padding="sm">
              <Text fw={600} mb="xs">
                Factory Recipes
              </Text>
              <ScrollBox maxHeight={600} label="Factory recipes">
                <Stack gap={6}>
                  {recipes.map((recipe) => {
                    const active = recipe.id === building.selected_recipe_id;
                    return (
                      <Group key={recipe.id} justify="space-between" wrap="nowrap" gap="xs">
                        <div style={{ minWidth: 0 }}>
                          <Text size="sm" fw={500} truncate>
                            {recipe.output_product_name} ({recipe.output_quantity}/week)
                          </Text>
                          {/* Wraps: on a phone a cut-off list hid what the recipe needs ("100 Steel Sheet, 50 Polypropylene Pellet..."). */}
                          <Text size="xs" c="dimmed" data-testid="factory-recipe-inputs">
                            {recipe.inputs.map((input) => `${input.quantity} ${input.product_name}`).join(', ') || 'No inputs'}
                          </Text>
                        </div>
                        <Group gap={4} wrap="nowrap">
                          {isReady(recipe) && (
                            <Badge size="xs" color="green" variant="light">
                              Ready
                            </Badge>
                          )}
                          <Button
                            size="compact-xs"
                            variant={active ? 'filled' : 'light'}
                            disabled={active || selectingRecipe}
                            onClick={() => {
                              const checked = checkRecipeSelection({ id: building.id, recipe_id: recipe.id });
                              if (checked.ok) onSelectRecipe(checked.request);
                            }}
                            aria-label={`${active ? 'Active' : 'Select'}: ${recipe.output_product_name}`}
                          >
                            {active ? 'Active' : 'Select'}
                          </Button>
                        </Group>
                      </Group>
                    );
                  })}
                </Stack>
              </ScrollBox>
            </Card>
            <Group>
              <Text size="sm">Production rate: {building.production_rate} units/week</Text>
              <Button size="xs" variant="light" onClick={() => open('rate')}>
                Change Rate
              </Button>
            </Group>
          </Stack>
        </Tabs.Panel>

        <Tabs.Panel value="output">
          <Card withBorder padding="md">
            <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
              <div>
                <Text size="xs" c="dimmed">
                  Current production
                </Text>
                <Text fw={700}>{building.recipe ? building.recipe.output_product_name : 'Nothing selected'}</Text>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  Recipe output at 100%
                </Text>
                <Text fw={700}>{building.recipe ? `${building.recipe.output_quantity} units/week` : '-'}</Text>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  Effective output
                </Text>
                <Text fw={700}>{building.effective_output} units/week</Text>
              </div>
              <div>
                <Text size="xs" c="dimmed">
                  Next turn, with bonuses and inputs
                </Text>
                <Text fw={700} data-testid="factory-next-turn">
                  {economics.forecast ? `${economics.forecast.units.toLocaleString('en-US')} units` : '-'}
                </Text>
              </div>
            </SimpleGrid>
            <Text size="xs" c="dimmed" mt="sm">
              Effective output = recipe output x production rate / 100 x efficiency / 100. Next turn adds the city bonus ({`+${economics.cityBonus}%`}) and
              research ({`+${building.research_bonus}%`}) and is limited by the inputs in your warehouse.
            </Text>
          </Card>
        </Tabs.Panel>

        <Tabs.Panel value="operations">
          <Card withBorder padding="md">
            <Group justify="space-between" mb={6}>
              <Text fw={600}>Efficiency</Text>
              <Text fw={700}>{building.efficiency}%</Text>
            </Group>
            <Progress value={building.efficiency} aria-label="Factory efficiency" />
            <Text size="sm" c="dimmed" mt="xs">
              {building.employees} employees x {EFFICIENCY_PER_EMPLOYEE} + level {building.equipment_level} x {EFFICIENCY_PER_EQUIPMENT_LEVEL} (max 100)
            </Text>
            <Group mt="md" gap="xs">
              <Button size="xs" onClick={() => open('hire')}>
                Hire Employees
              </Button>
              <Button size="xs" variant="light" onClick={() => open('upgrade')} disabled={building.equipment_level >= MAX_EQUIPMENT_LEVEL}>
                Upgrade Equipment
              </Button>
            </Group>
          </Card>
        </Tabs.Panel>
      </Tabs>

      <PurchaseDialog
        title="Purchase Raw Materials"
        buildingId={building.id}
        target={target}
        cash={cash}
        pending={purchase.isPending}
        onClose={() => setTarget(null)}
        onConfirm={(request) => purchase.mutate(request)}
      />
    </Stack>
  );
}
