/** The building dialogs (spec sections 2 and 5): hire, upgrade equipment, production rate, recipe, category. */
import { useState } from 'react';
import { Button, Group, Modal, NumberInput, Radio, Select, Stack, Text } from '@mantine/core';
import {
  EFFICIENCY_PER_EQUIPMENT_LEVEL,
  HIRE_COST_PER_EMPLOYEE,
  MAX_EQUIPMENT_LEVEL,
  MAX_HIRE_PER_ACTION,
  MAX_PRODUCTION_RATE,
  MIN_PRODUCTION_RATE,
  PRODUCT_CATEGORIES,
  equipmentUpgradeCost,
} from '@marketcraft/shared';
import { ScrollBox } from '../../components/ScrollBox';
import { formatWholeDollars } from '../../lib/format';
import { notifyError } from '../../lib/notify';
import type { RouterOutputs } from '../../trpc';

type Recipe = RouterOutputs['catalog']['recipes'][number];

interface DialogProps {
  opened: boolean;
  onClose: () => void;
  pending: boolean;
}

export function HireDialog({ opened, onClose, pending, cash, onConfirm }: DialogProps & { cash: number; onConfirm: (count: number) => void }) {
  const [count, setCount] = useState<number | string>(1);
  const value = typeof count === 'number' ? count : Number.parseInt(count, 10);
  const cost = (Number.isFinite(value) ? value : 0) * HIRE_COST_PER_EMPLOYEE;
  const confirm = () => {
    if (!Number.isInteger(value) || value < 1 || value > MAX_HIRE_PER_ACTION) {
      notifyError('Invalid number', `Please enter a number between 1 and ${MAX_HIRE_PER_ACTION}`);
      return;
    }
    onConfirm(value);
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

export function UpgradeDialog({ opened, onClose, pending, cash, current, onConfirm }: DialogProps & { cash: number; current: number; onConfirm: (level: number) => void }) {
  const [level, setLevel] = useState<string | null>(null);
  const target = level ? Number(level) : null;
  const cost = target && target > current ? equipmentUpgradeCost(current, target) : 0;
  // Levels at or below the current one are not offered (spec section 5).
  const options = Array.from({ length: MAX_EQUIPMENT_LEVEL - current }, (_, index) => current + 1 + index).map((candidate) => ({
    value: String(candidate),
    label: `Level ${candidate} (+${(candidate - current) * EFFICIENCY_PER_EQUIPMENT_LEVEL}% efficiency) - ${formatWholeDollars(equipmentUpgradeCost(current, candidate))}`,
  }));
  const confirm = () => {
    if (!target || target < 2 || target > MAX_EQUIPMENT_LEVEL || target <= current) {
      notifyError('Invalid level', 'Please select a valid level (2-5)');
      return;
    }
    onConfirm(target);
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

export function ProductionRateDialog({ opened, onClose, pending, current, onConfirm }: DialogProps & { current: number; onConfirm: (rate: number) => void }) {
  const [rate, setRate] = useState<number>(current);
  const confirm = () => {
    if (!Number.isInteger(rate) || rate < MIN_PRODUCTION_RATE || rate > MAX_PRODUCTION_RATE) {
      notifyError('Invalid rate', `Production rate must be between ${MIN_PRODUCTION_RATE} and ${MAX_PRODUCTION_RATE}`);
      return;
    }
    onConfirm(rate);
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
          onChange={(value) => setRate(typeof value === 'number' ? value : Number.isFinite(Number.parseInt(value, 10)) ? Number.parseInt(value, 10) : 100)}
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

export function RecipeDialog({ opened, onClose, pending, recipes, selectedId, onConfirm }: DialogProps & { recipes: Recipe[]; selectedId: number | null; onConfirm: (recipeId: number) => void }) {
  const [choice, setChoice] = useState<string>(selectedId ? String(selectedId) : '');
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
          <Button onClick={() => onConfirm(Number(choice))} disabled={pending || !choice}>
            {pending ? 'Selecting...' : 'Select Recipe'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function CategoryDialog({ opened, onClose, pending, selected, onConfirm }: DialogProps & { selected: string | null; onConfirm: (category: (typeof PRODUCT_CATEGORIES)[number]) => void }) {
  const [choice, setChoice] = useState<string | null>(selected);
  const valid = PRODUCT_CATEGORIES.find((category) => category === choice);
  return (
    <Modal opened={opened} onClose={onClose} title="Select Product Category" centered>
      <Stack gap="sm">
        <Select label="Category" placeholder="Choose a category" data={[...PRODUCT_CATEGORIES]} value={choice} onChange={setChoice} comboboxProps={{ withinPortal: true }} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => valid && onConfirm(valid)} disabled={pending || !valid}>
            {pending ? 'Selecting...' : 'Select Category'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
