/**
 * The building dialogs (spec sections 2 and 5): hire, upgrade equipment, production rate, recipe,
 * category, purchase (trade hall products, factory raw materials) and sell. Each form checks the
 * request it would send with the API's own schema as the player types (lib/formChecks.ts, the
 * spec's section 5 messages under the field) and keeps its submit button disabled until it is valid.
 */
import { startTransition, useEffect, useState } from 'react';
import { Card, Group, Radio, Select, Stack, Table, Text } from '@mantine/core';
import {
  EFFICIENCY_PER_EQUIPMENT_LEVEL,
  HIRE_COST_PER_EMPLOYEE,
  MAX_EQUIPMENT_LEVEL,
  MAX_HIRE_PER_ACTION,
  MAX_PRODUCTION_RATE,
  MIN_PRODUCTION_RATE,
  OVERTIME_OUTPUT_LIMIT_POINTS,
  OVERTIME_WAGE_PREMIUM_PERCENT,
  OVERTIME_WEAR_PERCENT,
  CONSUMER_CATEGORIES,
  equipmentUpgradeCost,
  type ProductCategory,
} from '@marketcraft/shared';
import { DialogForm, FormDialog } from '../../components/FormDialog';
import { NumberField, useFieldText } from '../../components/NumberField';
import { OrderSummary } from '../../components/OrderSummary';
import { ScrollBox } from '../../components/ScrollBox';
import { fixedPriceQuote, useMarketQuote } from '../../hooks/useOrderQuote';
import {
  checkBuildingPurchase,
  checkCategorySelection,
  checkEquipmentUpgrade,
  checkHire,
  checkProductionRate,
  checkRecipeSelection,
} from '../../lib/formChecks';
import { formatMoney, formatWholeDollars } from '../../lib/format';
import type { RouterOutputs } from '../../trpc';
import { STORE_CATEGORY_NOTE } from './OperationsTab';
import type { BuildingActions } from './useBuildingActions';

type Recipe = RouterOutputs['catalog']['recipes'][number];
/** What each recipe would make and use in this building at its settings (the API's forecast, the turn's rules). */
type RecipeNeeds = RouterOutputs['buildings']['get']['forecast']['recipes'];
/** The week's profit at other rates and the best rate (the API's forecast; null for stores and buildings without a recipe). */
type OvertimeForecast = RouterOutputs['buildings']['get']['forecast']['overtime'];

/** Profit at 100/125/150/175/200% and the best rate, as the server priced them (nothing recomputed here). */
function OvertimeTable({ overtime }: { overtime: NonNullable<OvertimeForecast> }) {
  return (
    <Stack gap={4} data-testid="overtime-table">
      <Table withTableBorder striped fz="sm" captionSide="top">
        <Table.Caption>Next week's profit by production rate, with every input bought at today's prices</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Rate</Table.Th>
            <Table.Th scope="col" ta="right">
              Output
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Costs
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Profit
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {overtime.rates.map((row) => (
            <Table.Tr key={row.rate} fw={row.rate === overtime.best_rate ? 700 : undefined}>
              <Table.Th scope="row">{row.rate}%</Table.Th>
              <Table.Td ta="right">{row.output_units.toLocaleString('en-US')}</Table.Td>
              <Table.Td ta="right">{formatWholeDollars(row.costs)}</Table.Td>
              <Table.Td ta="right">{formatWholeDollars(row.profit)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm" data-testid="best-rate">
        Best rate: <b>{overtime.best_rate}%</b> ({formatWholeDollars(overtime.best_profit)} a week). Above it the extra output costs more than it sells for.
      </Text>
    </Stack>
  );
}

/**
 * A recipe as the dialog offers it: what it would make here a week, and what that uses. The
 * recipe's own batch ('Wheat (660/week)') read as this farm's output, which makes 206 at 25%
 * efficiency; without the forecast, the batch is named as such.
 */
function recipeChoiceText(recipe: Recipe, needs: RecipeNeeds[number] | undefined): { label: string; description: string } {
  if (!needs) {
    return {
      label: `${recipe.output_product_name} (${recipe.output_quantity} per batch)`,
      description:
        recipe.inputs.length === 0
          ? 'No inputs: extracted from nature'
          : `Needs ${recipe.inputs.map((input) => `${input.quantity} ${input.product_name}`).join(', ')}`,
    };
  }
  return {
    label: `${recipe.output_product_name} (${needs.planned_output.toLocaleString('en-US')}/week here)`,
    description:
      needs.inputs.length === 0
        ? 'No inputs: extracted from nature'
        : `Needs ${needs.inputs.map((input) => `${input.needed.toLocaleString('en-US')} ${input.product_name}`).join(', ')} a week`,
  };
}
type Building = RouterOutputs['buildings']['get'];

interface DialogProps<Request> {
  opened: boolean;
  onClose: () => void;
  pending: boolean;
  /** The building the request is for. */
  buildingId: number;
  onConfirm: (request: Request) => void;
}

function HireForm({ onClose, pending, buildingId, cash, onConfirm }: Omit<DialogProps<{ id: number; count: number }>, 'opened'> & { cash: number }) {
  const count = useFieldText(1);
  const checked = checkHire({ id: buildingId, count: count.text });
  const quote = fixedPriceQuote(HIRE_COST_PER_EMPLOYEE, checked.ok ? checked.request.count : null);
  return (
    <DialogForm
      onClose={onClose}
      submitLabel="Hire"
      pendingLabel="Hiring..."
      pending={pending}
      canSubmit={checked.ok && quote !== null && quote.total <= cash}
      onSubmit={() => checked.ok && onConfirm(checked.request)}
      summary={<OrderSummary quote={quote} cash={cash} verb="Cost" testId="hire-cost" />}
    >
      <NumberField
        label="Employees to hire"
        description={`1 to ${MAX_HIRE_PER_ACTION}, ${formatWholeDollars(HIRE_COST_PER_EMPLOYEE)} per employee`}
        field={count}
        error={checked.errors.count}
        data-autofocus
      />
    </DialogForm>
  );
}

function HireDialog(props: DialogProps<{ id: number; count: number }> & { cash: number }) {
  return (
    <FormDialog opened={props.opened} onClose={props.onClose} title="Hire Employees">
      <HireForm {...props} />
    </FormDialog>
  );
}

function UpgradeForm({
  onClose,
  pending,
  buildingId,
  cash,
  current,
  onConfirm,
}: Omit<DialogProps<{ id: number; target_level: number }>, 'opened'> & { cash: number; current: number }) {
  const [level, setLevel] = useState<string | null>(null);
  const checked = checkEquipmentUpgrade({ id: buildingId, target_level: level }, current);
  const cost = checked.ok ? equipmentUpgradeCost(current, checked.request.target_level) : null;
  // Levels at or below the current one are not offered (spec section 5).
  const options = Array.from({ length: MAX_EQUIPMENT_LEVEL - current }, (_, index) => current + 1 + index).map((candidate) => ({
    value: String(candidate),
    label: `Level ${candidate} (+${(candidate - current) * EFFICIENCY_PER_EQUIPMENT_LEVEL}% efficiency) - ${formatWholeDollars(equipmentUpgradeCost(current, candidate))}`,
  }));
  return (
    <DialogForm
      onClose={onClose}
      submitLabel="Upgrade"
      pendingLabel="Upgrading..."
      pending={pending}
      canSubmit={checked.ok && cost !== null && cost <= cash}
      onSubmit={() => checked.ok && onConfirm(checked.request)}
      summary={
        cost !== null && (
          <Text size="sm" c={cost > cash ? 'red' : undefined} data-testid="upgrade-cost">
            Cost: <b>{formatWholeDollars(cost)}</b>
            {cost > cash && ` (more than your cash, ${formatWholeDollars(cash)})`}
          </Text>
        )
      }
    >
      <Text size="sm">
        Current level: {current}. Each level adds {EFFICIENCY_PER_EQUIPMENT_LEVEL}% production efficiency (100% at most).
      </Text>
      <Select
        label="Target level"
        placeholder="Choose a level"
        data={options}
        value={level}
        onChange={setLevel}
        comboboxProps={{ withinPortal: true }}
        data-autofocus
      />
    </DialogForm>
  );
}

function UpgradeDialog(props: DialogProps<{ id: number; target_level: number }> & { cash: number; current: number }) {
  return (
    <FormDialog opened={props.opened} onClose={props.onClose} title="Upgrade Equipment">
      <UpgradeForm {...props} />
    </FormDialog>
  );
}

type RateProps = { current: number; isStore: boolean; overtime: OvertimeForecast };

function ProductionRateForm({
  onClose,
  pending,
  buildingId,
  current,
  isStore,
  overtime,
  onConfirm,
}: Omit<DialogProps<{ id: number; new_rate: number }>, 'opened'> & RateProps) {
  // The text is kept as typed: '50' then '100' reads '50100' and is refused, never snapped back.
  const rate = useFieldText(current);
  const checked = checkProductionRate({ id: buildingId, new_rate: rate.text });
  return (
    <DialogForm
      onClose={onClose}
      submitLabel="Update Rate"
      pendingLabel="Saving..."
      pending={pending}
      canSubmit={checked.ok}
      onSubmit={() => checked.ok && onConfirm(checked.request)}
    >
      <NumberField
        label="Production rate (units per week)"
        description={`${MIN_PRODUCTION_RATE} to ${MAX_PRODUCTION_RATE}; takes effect next turn`}
        field={rate}
        error={checked.errors.new_rate}
        data-autofocus
      />
      {/* The rate scales the recipe's batch (100 = its normal pace), not a number of units, and
          overtime costs: a player set 200 expecting 200 loaves and paid more for twice the batch. */}
      <Text size="xs" c="dimmed" data-testid="rate-rule">
        {isStore
          ? "100 is the store's normal pace: 200 lets it sell up to twice as much a week, 50 half."
          : `100 is the recipe's normal pace, 50 half; above 100 tired crews add less each point, and ${100 + OVERTIME_OUTPUT_LIMIT_POINTS} or more makes ${100 + OVERTIME_OUTPUT_LIMIT_POINTS / 2}% of it.`}{' '}
        Above 100, each point adds {OVERTIME_WAGE_PREMIUM_PERCENT / 100}% to the wages (overtime) and {OVERTIME_WEAR_PERCENT / 100}% to the running cost.
      </Text>
      {overtime && <OvertimeTable overtime={overtime} />}
    </DialogForm>
  );
}

function ProductionRateDialog(props: DialogProps<{ id: number; new_rate: number }> & RateProps) {
  return (
    <FormDialog opened={props.opened} onClose={props.onClose} title="Adjust Production Level">
      <ProductionRateForm {...props} />
    </FormDialog>
  );
}

function RecipeForm({
  onClose,
  pending,
  buildingId,
  recipes,
  needs,
  selectedId,
  onConfirm,
}: Omit<DialogProps<{ id: number; recipe_id: number }>, 'opened'> & { recipes: Recipe[]; needs?: RecipeNeeds; selectedId: number | null }) {
  const [choice, setChoice] = useState<string>(selectedId ? String(selectedId) : '');
  // Confirm stays disabled until the choice makes a valid request (spec section 5).
  const checked = checkRecipeSelection({ id: buildingId, recipe_id: choice });
  return (
    <DialogForm
      onClose={onClose}
      submitLabel="Select Recipe"
      pendingLabel="Selecting..."
      pending={pending}
      canSubmit={checked.ok}
      onSubmit={() => checked.ok && onConfirm(checked.request)}
    >
      {recipes.length === 0 ? (
        <Text c="dimmed">No recipes for this building type.</Text>
      ) : (
        <ScrollBox maxHeight={400} label="Recipes">
          <Radio.Group value={choice} onChange={setChoice} label="Recipe" name="recipe">
            <Stack gap="xs" mt="xs">
              {recipes.map((recipe) => {
                const text = recipeChoiceText(
                  recipe,
                  needs?.find((entry) => entry.recipe_id === recipe.id),
                );
                return <Radio key={recipe.id} value={String(recipe.id)} label={text.label} description={text.description} />;
              })}
            </Stack>
          </Radio.Group>
        </ScrollBox>
      )}
    </DialogForm>
  );
}

function RecipeDialog(props: DialogProps<{ id: number; recipe_id: number }> & { recipes: Recipe[]; needs?: RecipeNeeds; selectedId: number | null }) {
  return (
    <FormDialog opened={props.opened} onClose={props.onClose} title="Select Production Recipe" size="lg">
      <RecipeForm {...props} />
    </FormDialog>
  );
}

function CategoryForm({
  onClose,
  pending,
  buildingId,
  selected,
  onConfirm,
}: Omit<DialogProps<{ id: number; category: ProductCategory }>, 'opened'> & { selected: string | null }) {
  const [choice, setChoice] = useState<string | null>(selected);
  // Confirm stays disabled until the choice makes a valid request (spec section 5).
  const checked = checkCategorySelection({ id: buildingId, category: choice });
  return (
    <DialogForm
      onClose={onClose}
      submitLabel="Select Category"
      pendingLabel="Selecting..."
      pending={pending}
      canSubmit={checked.ok}
      onSubmit={() => checked.ok && onConfirm(checked.request)}
    >
      <Select
        label="Category"
        description={STORE_CATEGORY_NOTE}
        placeholder="Choose a category"
        data={[...CONSUMER_CATEGORIES]}
        value={choice}
        onChange={setChoice}
        comboboxProps={{ withinPortal: true }}
        data-autofocus
      />
    </DialogForm>
  );
}

function CategoryDialog(props: DialogProps<{ id: number; category: ProductCategory }> & { selected: string | null }) {
  return (
    <FormDialog opened={props.opened} onClose={props.onClose} title="Select Product Category">
      <CategoryForm {...props} />
    </FormDialog>
  );
}

export interface PurchaseTarget {
  productId: number;
  productName: string;
  /** The quantity the field starts with (spec section 9: 10 in the trade hall, 100 for raw materials). */
  quantity: number;
}

function PurchaseForm({
  onClose,
  pending,
  buildingId,
  target,
  cash,
  onConfirm,
}: Omit<DialogProps<{ id: number; product_id: number; quantity: number }>, 'opened'> & { target: PurchaseTarget; cash: number }) {
  const quantity = useFieldText(target.quantity);
  const checked = checkBuildingPurchase({ id: buildingId, product_id: target.productId, quantity: quantity.text });
  // Bought on the exchange like any purchase: the market's quote for the whole order.
  const quote = useMarketQuote(target.productId, checked.ok ? checked.request.quantity : null, 'buy');
  return (
    <DialogForm
      onClose={onClose}
      submitLabel="Purchase"
      pendingLabel="Purchasing..."
      pending={pending}
      canSubmit={checked.ok && quote.quote !== null && quote.quote.total <= cash}
      onSubmit={() => checked.ok && onConfirm(checked.request)}
      summary={<OrderSummary quote={quote} cash={cash} />}
    >
      <Text fw={600}>{target.productName}</Text>
      <Text size="sm" c="dimmed">
        Bought on the market: a large order raises the price as it goes.
      </Text>
      <NumberField label="Quantity" field={quantity} error={checked.errors.quantity} data-autofocus />
    </DialogForm>
  );
}

/** 'Purchase Product' (trade hall) and 'Purchase Raw Materials' (factory). Mounted always; `target` opens it. */
export function PurchaseDialog({
  target,
  title,
  ...props
}: Omit<DialogProps<{ id: number; product_id: number; quantity: number }>, 'opened'> & { target: PurchaseTarget | null; title: string; cash: number }) {
  return (
    <FormDialog opened={target !== null} onClose={props.onClose} title={title}>
      {target && <PurchaseForm {...props} target={target} />}
    </FormDialog>
  );
}

function SellDialog({
  opened,
  building,
  pending,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  building: Building;
  pending: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  return (
    <FormDialog opened={opened} onClose={onClose} title="Sell Building">
      <DialogForm onClose={onClose} submitLabel="Sell Building" pendingLabel="Selling..." pending={pending} canSubmit submitColor="red" onSubmit={onConfirm}>
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
      </DialogForm>
    </FormDialog>
  );
}

/**
 * The building page's management dialogs (hire, equipment, rate, recipe, category, sell), one
 * open at a time (`actions.dialog`). The page loads this file when a dialog is first opened: its
 * forms' checks bring zod and the form schemas, which the page's first screen does without.
 */
export function BuildingDialogs({ building, cash, recipes, actions }: { building: Building; cash: number; recipes: Recipe[]; actions: BuildingActions }) {
  // Mounted closed, then opened: Mantine notes the element to give focus back to on close only when
  // `opened` changes after mount, so a dialog mounted open (its file just loaded) left a keyboard
  // player at the page's start.
  const [mounted, setMounted] = useState(false);
  useEffect(() => startTransition(() => setMounted(true)), []);
  const dialog = mounted ? actions.dialog : null;
  const { close } = actions;
  const id = building.id;
  const ownRecipes = recipes.filter((candidate) => candidate.building_type.toLowerCase() === building.type.toLowerCase());
  return (
    <>
      <HireDialog
        opened={dialog === 'hire'}
        onClose={close}
        pending={actions.hire.isPending}
        buildingId={id}
        cash={cash}
        onConfirm={(request) => actions.hire.mutate(request)}
      />
      <UpgradeDialog
        opened={dialog === 'upgrade'}
        onClose={close}
        pending={actions.upgrade.isPending}
        buildingId={id}
        cash={cash}
        current={building.equipment_level}
        onConfirm={(request) => actions.upgrade.mutate(request)}
      />
      <ProductionRateDialog
        opened={dialog === 'rate'}
        onClose={close}
        pending={actions.rate.isPending}
        buildingId={id}
        current={building.production_rate}
        isStore={building.is_store}
        overtime={building.forecast.overtime}
        onConfirm={(request) => actions.rate.mutate(request)}
      />
      <RecipeDialog
        opened={dialog === 'recipe'}
        onClose={close}
        pending={actions.recipe.isPending}
        buildingId={id}
        recipes={ownRecipes}
        needs={building.forecast.recipes}
        selectedId={building.selected_recipe_id}
        onConfirm={(request) => actions.recipe.mutate(request)}
      />
      <CategoryDialog
        opened={dialog === 'category'}
        onClose={close}
        pending={actions.category.isPending}
        buildingId={id}
        selected={building.selected_category}
        onConfirm={(request) => actions.category.mutate(request)}
      />
      <SellDialog
        opened={dialog === 'sell'}
        building={building}
        pending={actions.sell.isPending}
        onClose={close}
        onConfirm={() => actions.sell.mutate({ id })}
      />
    </>
  );
}
