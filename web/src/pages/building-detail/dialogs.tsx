/** The building dialogs (spec sections 2 and 5): hire, upgrade equipment, production rate, recipe, category. */
import { useState } from 'react';
import { Button, Group, Modal, NumberInput, Radio, Select, Stack, Text } from '@mantine/core';
import {
  DEFAULT_PRODUCTION_RATE,
  EFFICIENCY_PER_EQUIPMENT_LEVEL,
  HIRE_COST_PER_EMPLOYEE,
  MAX_EQUIPMENT_LEVEL,
  MAX_HIRE_PER_ACTION,
  MAX_PRODUCTION_RATE,
  MIN_PRODUCTION_RATE,
  PRODUCT_CATEGORIES,
  equipmentUpgradeCost,
  type ProductCategory,
} from '@marketcraft/shared';
import { ScrollBox } from '../../components/ScrollBox';
import { checkCategorySelection, checkEquipmentUpgrade, checkHire, checkProductionRate, checkRecipeSelection } from '../../lib/formChecks';
import { formatWholeDollars } from '../../lib/format';
import { notifyError } from '../../lib/notify';
import type { RouterOutputs } from '../../trpc';

type Recipe = RouterOutputs['catalog']['recipes'][number];

/**
 * Each dialog checks the request it confirms with the API's own schema (lib/formChecks.ts, spec
 * section 5 messages) and hands the parsed request to `onConfirm`.
 */
interface DialogProps {
  opened: boolean;
  onClose: () => void;
  pending: boolean;
  /** The building the request is for. */
  buildingId: number;
}

export function HireDialog({ opened, onClose, pending, buildingId, cash, onConfirm }: DialogProps & { cash: number; onConfirm: (request: { id: number; count: number }) => void }) {
  const [count, setCount] = useState<number | string>(1);
  const value = typeof count === 'number' ? count : Number.parseInt(count, 10);
  const cost = (Number.isFinite(value) ? value : 0) * HIRE_COST_PER_EMPLOYEE;
  const confirm = () => {
    const checked = checkHire({ id: buildingId, count });
    if (!checked.ok) return notifyError(checked.error.title, checked.error.message);
    onConfirm(checked.request);
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Hire Employees" centered>
      <Stack gap="sm">
        <NumberInput label="Employees to hire" min={1} max={MAX_HIRE_PER_ACTION} allowDecimal={false} value={count} onChange={setCount} />
        <Text size="sm">
          Cost: <b>{formatWholeDollars(cost)}</b> ({formatWholeDollars(HIRE_COST_PER_EMPLOYEE)} per employee)
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={confirm} disabled={pending || cash < cost}>
            {pending ? 'Hiring...' : 'Hire'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function UpgradeDialog({
  opened,
  onClose,
  pending,
  buildingId,
  cash,
  current,
  onConfirm,
}: DialogProps & { cash: number; current: number; onConfirm: (request: { id: number; target_level: number }) => void }) {
  const [level, setLevel] = useState<string | null>(null);
  const target = level ? Number(level) : null;
  const cost = target && target > current ? equipmentUpgradeCost(current, target) : 0;
  // Levels at or below the current one are not offered (spec section 5).
  const options = Array.from({ length: MAX_EQUIPMENT_LEVEL - current }, (_, index) => current + 1 + index).map((candidate) => ({
    value: String(candidate),
    label: `Level ${candidate} (+${(candidate - current) * EFFICIENCY_PER_EQUIPMENT_LEVEL}% efficiency) - ${formatWholeDollars(equipmentUpgradeCost(current, candidate))}`,
  }));
  const confirm = () => {
    const checked = checkEquipmentUpgrade({ id: buildingId, target_level: level }, current);
    if (!checked.ok) return notifyError(checked.error.title, checked.error.message);
    onConfirm(checked.request);
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Upgrade Equipment" centered>
      <Stack gap="sm">
        <Text size="sm">
          Current level: {current}. Each level adds {EFFICIENCY_PER_EQUIPMENT_LEVEL}% production efficiency (100% at most).
        </Text>
        <Select label="Target level" placeholder="Choose a level" data={options} value={level} onChange={setLevel} comboboxProps={{ withinPortal: true }} />
        {target && (
          <Text size="sm">
            Cost: <b>{formatWholeDollars(cost)}</b>
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={confirm} disabled={pending || !target || cash < cost}>
            {pending ? 'Upgrading...' : 'Upgrade'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function ProductionRateDialog({
  opened,
  onClose,
  pending,
  buildingId,
  current,
  onConfirm,
}: DialogProps & { current: number; onConfirm: (request: { id: number; new_rate: number }) => void }) {
  const [rate, setRate] = useState<number>(current);
  const confirm = () => {
    const checked = checkProductionRate({ id: buildingId, new_rate: rate });
    if (!checked.ok) return notifyError(checked.error.title, checked.error.message);
    onConfirm(checked.request);
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Adjust Production Level" centered>
      <Stack gap="sm">
        <NumberInput
          label="Production rate (units per week)"
          description={`${MIN_PRODUCTION_RATE} to ${MAX_PRODUCTION_RATE}; takes effect next turn`}
          min={MIN_PRODUCTION_RATE}
          max={MAX_PRODUCTION_RATE}
          allowDecimal={false}
          value={rate}
          // Falls back to 100 on anything that is not a number (spec section 5).
          onChange={(value) => setRate(typeof value === 'number' ? value : Number.isFinite(Number.parseInt(value, 10)) ? Number.parseInt(value, 10) : DEFAULT_PRODUCTION_RATE)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={confirm} disabled={pending}>
            {pending ? 'Saving...' : 'Update Rate'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function RecipeDialog({
  opened,
  onClose,
  pending,
  buildingId,
  recipes,
  selectedId,
  onConfirm,
}: DialogProps & { recipes: Recipe[]; selectedId: number | null; onConfirm: (request: { id: number; recipe_id: number }) => void }) {
  const [choice, setChoice] = useState<string>(selectedId ? String(selectedId) : '');
  // Confirm stays disabled until the choice makes a valid request (spec section 5).
  const checked = checkRecipeSelection({ id: buildingId, recipe_id: choice });
  return (
    <Modal opened={opened} onClose={onClose} title="Select Production Recipe" centered size="lg">
      <Stack gap="sm">
        {recipes.length === 0 ? (
          <Text c="dimmed">No recipes for this building type.</Text>
        ) : (
          <ScrollBox maxHeight={400}>
            <Radio.Group value={choice} onChange={setChoice} aria-label="Recipe">
              <Stack gap="xs">
                {recipes.map((recipe) => (
                  <Radio.Card key={recipe.id} value={String(recipe.id)} p="sm">
                    <Group wrap="nowrap" align="flex-start">
                      <Radio.Indicator mt={2} />
                      <div>
                        <Text fw={600} size="sm">
                          {recipe.output_product_name} ({recipe.output_quantity}/week)
                        </Text>
                        <Text size="xs" c="dimmed">
                          {recipe.inputs.length === 0
                            ? 'No inputs: extracted from nature'
                            : `Needs ${recipe.inputs.map((input) => `${input.quantity} ${input.product_name}`).join(', ')}`}
                        </Text>
                      </div>
                    </Group>
                  </Radio.Card>
                ))}
              </Stack>
            </Radio.Group>
          </ScrollBox>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => checked.ok && onConfirm(checked.request)} disabled={pending || !checked.ok}>
            {pending ? 'Selecting...' : 'Select Recipe'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function CategoryDialog({
  opened,
  onClose,
  pending,
  buildingId,
  selected,
  onConfirm,
}: DialogProps & { selected: string | null; onConfirm: (request: { id: number; category: ProductCategory }) => void }) {
  const [choice, setChoice] = useState<string | null>(selected);
  // Confirm stays disabled until the choice makes a valid request (spec section 5).
  const checked = checkCategorySelection({ id: buildingId, category: choice });
  return (
    <Modal opened={opened} onClose={onClose} title="Select Product Category" centered>
      <Stack gap="sm">
        <Select label="Category" placeholder="Choose a category" data={[...PRODUCT_CATEGORIES]} value={choice} onChange={setChoice} comboboxProps={{ withinPortal: true }} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => checked.ok && onConfirm(checked.request)} disabled={pending || !checked.ok}>
            {pending ? 'Selecting...' : 'Select Category'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
