/**
 * Efficiency tab (spec section 2): the overall efficiency bar, live efficiency figures where the
 * spec's screen had placeholder badges, and working 'Now' / 'Forecast' buttons: Now shows the
 * figures as they are, Forecast what the next equipment level or more staff would give.
 */
import { useState } from 'react';
import { Badge, Button, Card, Group, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { EFFICIENCY_PER_EMPLOYEE, EFFICIENCY_PER_EQUIPMENT_LEVEL, MAX_EFFICIENCY, type Figure } from '@marketcraft/shared';
import { WhyThisNumber, formatFigureValue } from '../../components/WhyThisNumber';
import { PageLoader } from '../../components/FullScreenLoader';
import { formatMoney, formatWholeDollars } from '../../lib/format';
import type { RouterOutputs } from '../../trpc';
import type { BuildingEconomics } from './useBuildingEconomics';
import { TableScroll } from '../../components/TableScroll';

type Building = RouterOutputs['buildings']['get'];
type View = 'now' | 'forecast';

const signed = (value: number) => `${value >= 0 ? '+' : ''}${value}%`;

/** The forecast's figures with their terms ("why this number"), as the API explains them. */
function ExplainedFigures({ economics, isStore }: { economics: BuildingEconomics; isStore: boolean }) {
  const raw = economics.raw;
  const figures: Array<[string, Figure | null]> = isStore
    ? [
        ['Sales capacity', raw.capacity],
        ['Wages', raw.wages],
        ['Operating cost', raw.operating_cost],
      ]
    : [
        ['Efficiency', raw.efficiency],
        ['Planned output', raw.planned_output],
        ['Wages', raw.wages],
        ['Operating cost', raw.operating_cost],
      ];
  return (
    <Group gap="md" wrap="wrap" data-testid="explained-figures">
      {figures.map(([label, figure]) =>
        figure ? (
          <Group key={label} gap={2} wrap="nowrap">
            <Text size="sm">
              {label} <b>{formatFigureValue(figure.value, figure.unit)}</b>
            </Text>
            <WhyThisNumber figure={figure} label={label} />
          </Group>
        ) : null,
      )}
    </Group>
  );
}

function NowView({ building, economics }: { building: Building; economics: BuildingEconomics }) {
  const costReduction = economics.raw.operating_cost.terms.find((term) => term.name === 'cost_reduction')?.value ?? 0;
  if (building.is_store) {
    return (
      <Stack gap="xs">
        <Group gap="xs">
          <Badge variant="light" tt="none">
            Sales bonus {signed(economics.cityBonus + (economics.research.store_bonus ?? 0))}
          </Badge>
          <Badge variant="light" tt="none">
            Price bonus {signed(economics.research.price_bonus ?? 0)}
          </Badge>
          <Badge variant="light" tt="none">
            Cost reduction {costReduction}%
          </Badge>
        </Group>
        <ExplainedFigures economics={economics} isStore />
        <Text size="sm" data-testid="efficiency-now">
          Next turn this store sells about <b>{economics.nextWeek.units.toLocaleString('en-US')}</b> units with the shelf as it is.
        </Text>
        {economics.raw.sales.length > 0 && (
          <TableScroll minWidth={420} label="Next turn's sales by product">
            <Table verticalSpacing={4} data-testid="forecast-sales">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Product</Table.Th>
                  <Table.Th ta="right">Shelf price</Table.Th>
                  <Table.Th ta="right">Units</Table.Th>
                  <Table.Th ta="right">Revenue</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {economics.raw.sales.map((sale) => (
                  <Table.Tr key={sale.product_id}>
                    <Table.Td>{sale.product_name}</Table.Td>
                    <Table.Td ta="right">{formatMoney(sale.price)}</Table.Td>
                    <Table.Td ta="right">
                      <Group gap={2} justify="flex-end" wrap="nowrap">
                        {sale.units.toLocaleString('en-US')}
                        <WhyThisNumber figure={sale.units_why} label={`Units of ${sale.product_name} sold`} />
                      </Group>
                    </Table.Td>
                    <Table.Td ta="right">
                      <Group gap={2} justify="flex-end" wrap="nowrap">
                        {formatMoney(sale.revenue)}
                        <WhyThisNumber figure={sale.revenue_why} label={`Revenue from ${sale.product_name}`} />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        )}
      </Stack>
    );
  }
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Badge variant="light" tt="none">
          Production {building.efficiency}%
        </Badge>
        <Badge variant="light" tt="none">
          Output bonus {signed(economics.outputBonus)}
        </Badge>
        <Badge variant="light" tt="none">
          Cost reduction {costReduction}%
        </Badge>
      </Group>
      <ExplainedFigures economics={economics} isStore={false} />
      <Text size="sm" c="dimmed">
        Production efficiency is employees x {EFFICIENCY_PER_EMPLOYEE}% + equipment level x {EFFICIENCY_PER_EQUIPMENT_LEVEL}%, 100% at most. With{' '}
        {building.employees} {building.employees === 1 ? 'employee' : 'employees'} at equipment level {building.equipment_level}, this building has{' '}
        {building.efficiency}%.
      </Text>
      <Text size="sm" data-testid="efficiency-now">
        {economics.forecast && building.recipe ? (
          <>
            Next turn: <b>{economics.forecast.units.toLocaleString('en-US')}</b> {building.recipe.output_product_name}
            {economics.forecast.units < economics.forecast.planned && ` (of ${economics.forecast.planned.toLocaleString('en-US')} planned; inputs are short)`}.
          </>
        ) : (
          'No recipe selected: this building produces nothing next turn.'
        )}
      </Text>
    </Stack>
  );
}

function ForecastView({ building, economics }: { building: Building; economics: BuildingEconomics }) {
  if (building.is_store) {
    return (
      <Text size="sm" data-testid="efficiency-forecast">
        Store sales do not depend on staff or equipment: they follow your price against the city's market price, demand and the city's retail bonus. Forecast
        for next turn: <b>{economics.nextWeek.units.toLocaleString('en-US')}</b> units sold.
      </Text>
    );
  }
  const steps = economics.raw.improvements;
  if (steps.length === 0) {
    return (
      <Text size="sm" data-testid="efficiency-forecast">
        Staff and equipment are at their best: production efficiency stays at {building.efficiency}%.
      </Text>
    );
  }
  const now = building.recipe ? building.effective_output : null;
  return (
    <Stack gap="xs" data-testid="efficiency-forecast">
      <TableScroll minWidth={320} label="Efficiency forecast">
        <Table verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Change</Table.Th>
              <Table.Th ta="right">Cost</Table.Th>
              <Table.Th ta="right">Production</Table.Th>
              {building.recipe && <Table.Th ta="right">Planned output</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <Table.Tr>
              <Table.Td>As it is now</Table.Td>
              <Table.Td ta="right">-</Table.Td>
              <Table.Td ta="right">{building.efficiency}%</Table.Td>
              {building.recipe && <Table.Td ta="right">{now?.toLocaleString('en-US')}</Table.Td>}
            </Table.Tr>
            {steps.map((step) => (
              <Table.Tr key={step.kind}>
                <Table.Td>{step.label}</Table.Td>
                <Table.Td ta="right">{formatWholeDollars(step.cost)}</Table.Td>
                <Table.Td ta="right">{step.efficiency}%</Table.Td>
                {building.recipe && <Table.Td ta="right">{step.planned_output?.toLocaleString('en-US')}</Table.Td>}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
      <Text size="xs" c="dimmed">
        Planned output per turn at the current production rate and bonuses, before any shortage of inputs.
      </Text>
    </Stack>
  );
}

export function EfficiencyPanel({ building, economics }: { building: Building; economics: BuildingEconomics }) {
  const [view, setView] = useState<View>('now');
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb={6}>
        <Text fw={600}>Overall efficiency</Text>
        <Text fw={700} data-testid="overall-efficiency">
          {building.overall_efficiency}%
        </Text>
      </Group>
      <Progress value={building.overall_efficiency} color={building.efficiency_warning ? 'orange' : 'green'} aria-label="Overall efficiency" />
      {/* What the bar is: the staff and equipment efficiency the turn uses (the spec's '70% plus the
          bonuses' read 95% under a 35% bar; the bonuses raise the output instead). */}
      <Text size="xs" c="dimmed" mt={4} data-testid="efficiency-why">
        {building.employees} {building.employees === 1 ? 'employee' : 'employees'} x {EFFICIENCY_PER_EMPLOYEE} + equipment level {building.equipment_level} x{' '}
        {EFFICIENCY_PER_EQUIPMENT_LEVEL}, {MAX_EFFICIENCY}% at most
        {building.is_store
          ? ': the share of its full weekly sales capacity the store can sell.'
          : `: the share of its planned output the building makes. The city bonus (${building.city_bonus_applies ? `+${building.city_bonus_value}%` : 'none for this type'}) and research (${signed(building.research_bonus)}) raise the output itself.`}
      </Text>
      <Group justify="space-between" mt="md" mb="sm" wrap="wrap" gap="xs">
        <Title order={2} fz="md">
          {view === 'now' ? 'Now' : 'Forecast'}
        </Title>
        <Group gap="xs" role="group" aria-label="Efficiency view">
          <Button size="xs" variant={view === 'now' ? 'filled' : 'default'} aria-pressed={view === 'now'} onClick={() => setView('now')}>
            Now
          </Button>
          <Button size="xs" variant={view === 'forecast' ? 'filled' : 'default'} aria-pressed={view === 'forecast'} onClick={() => setView('forecast')}>
            Forecast
          </Button>
        </Group>
      </Group>
      {economics.isPending ? (
        <PageLoader />
      ) : view === 'now' ? (
        <NowView building={building} economics={economics} />
      ) : (
        <ForecastView building={building} economics={economics} />
      )}
    </Card>
  );
}
