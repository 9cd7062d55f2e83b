/**
 * Operations tab (spec section 2): employees, equipment, production rate (production buildings),
 * what it makes or sells, and the buttons that open the management dialogs.
 */
import { Link } from 'react-router-dom';
import { Button, Card, Group, SimpleGrid, Text } from '@mantine/core';
import { IconBolt, IconFlask, IconSettings, IconUsers } from '@tabler/icons-react';
import { HIRE_COST_PER_EMPLOYEE, MAX_EQUIPMENT_LEVEL } from '@marketcraft/shared';
import { formatWholeDollars } from '../../lib/format';
import type { RouterOutputs } from '../../trpc';
import { Info } from './OverviewTab';
import type { BuildingDialog } from './useBuildingActions';

/**
 * What a store's category does (nothing else reads it): the Trade Hall's Purchase tab opens on it. A
 * new player read 'Product category: None selected' as a store that could not sell yet.
 */
export const STORE_CATEGORY_NOTE = "The goods the Trade Hall's Purchase tab opens on. A store sells whatever is on its shelf, whatever its category.";

type Building = RouterOutputs['buildings']['get'];

export function OperationsTab({ building, open }: { building: Building; open: (dialog: BuildingDialog) => void }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: building.is_store ? 2 : 3 }}>
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
        <Button
          mt="sm"
          size="xs"
          onClick={() => open('upgrade')}
          disabled={building.equipment_level >= MAX_EQUIPMENT_LEVEL}
          leftSection={<IconSettings size={14} aria-hidden />}
        >
          Upgrade Equipment
        </Button>
      </Card>
      {!building.is_store && (
        <Card withBorder padding="md">
          <Info label="Production rate" value={`${building.production_rate} units/week`} />
          <Button mt="sm" size="xs" onClick={() => open('rate')} leftSection={<IconBolt size={14} aria-hidden />}>
            Adjust Production
          </Button>
        </Card>
      )}
      <Card withBorder padding="md" style={{ gridColumn: '1 / -1' }}>
        {building.is_store ? (
          <Group justify="space-between">
            <Info label="Product category" value={building.selected_category ?? 'None selected'} />
            <Button size="xs" variant="light" onClick={() => open('category')}>
              Select Category
            </Button>
            <Text size="xs" c="dimmed" w="100%" data-testid="store-category-note">
              {STORE_CATEGORY_NOTE}
            </Text>
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
