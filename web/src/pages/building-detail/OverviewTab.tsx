/**
 * Overview tab (spec section 2): location, size, operating costs, popularity, products, production
 * and bonuses, and the research that applies. Only the fields that apply to the building's type:
 * a store shows its sales, a production building its output.
 */
import type { ReactNode } from 'react';
import { Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { WhyThisNumber } from '../../components/WhyThisNumber';
import { formatWholeDollars, underscoresToSpaces } from '../../lib/format';
import { researchEffectsText } from '../../lib/researchEffects';
import { trpc, type RouterOutputs } from '../../trpc';
import type { BuildingEconomics } from './useBuildingEconomics';

type Building = RouterOutputs['buildings']['get'];

export function Info({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}

function cityBonusText(building: Building): string {
  const kind = underscoresToSpaces(building.city_bonus_type);
  return building.city_bonus_applies ? `+${building.city_bonus_value}% ${kind}` : `None (${kind} city)`;
}

export function OverviewTab({ building, economics }: { building: Building; economics: BuildingEconomics }) {
  const upgrades = trpc.research.upgrades.useQuery();
  const active = (upgrades.data ?? []).filter((upgrade) => upgrade.researched && (!upgrade.building_type || upgrade.building_type === building.type));
  const pending = economics.isPending;
  return (
    <Stack gap="md">
      <Card withBorder padding="lg">
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md">
          <Info label="Location" value={building.city_name || 'Unknown City'} />
          {/* What the turn charges (the forecast's figure, as the Financial Report and Efficiency tab show
              it: research and the company's building count change it), not the type's list price. */}
          <Info
            label="Operating costs"
            value={
              <>
                <span data-testid="overview-operating-costs">{formatWholeDollars(economics.raw.operating_cost.value)}/week</span>{' '}
                <WhyThisNumber figure={economics.raw.operating_cost} label="Operating costs" />
              </>
            }
          />
          <Info label="City bonus" value={cityBonusText(building)} />
          {building.is_store ? (
            <>
              <Info label="Size (base capacity)" value={`${building.base_capacity} units per product/week`} />
              <Info label="Product category" value={building.selected_category ?? 'None selected'} />
              <Info
                label="Next turn's sales"
                value={pending ? '...' : `${economics.nextWeek.units.toLocaleString('en-US')} units`}
                testId="overview-next-sales"
              />
            </>
          ) : (
            <>
              <Info label="Popularity" value={building.popularity.toLocaleString('en-US')} />
              <Info label="Base production" value={`${building.production_rate} units/week`} />
              <Info label="Research bonus" value={`+${building.research_bonus}%`} />
              <Info label="Effective output" value={`${building.bonused_output} units/week`} />
              <Info
                label="Next turn's output"
                testId="overview-next-output"
                value={
                  !building.recipe
                    ? 'No recipe selected'
                    : pending || !economics.forecast
                      ? '...'
                      : `${economics.forecast.units.toLocaleString('en-US')} ${building.recipe.output_product_name}`
                }
              />
            </>
          )}
        </SimpleGrid>
        {building.recipe && (
          <Group gap={4} mt="md">
            <Badge variant="light">{building.recipe.output_product_name}</Badge>
            {/* What next turn's planned output needs (the API's forecast, as the short-of-inputs alert
                says it), not the recipe's quantities for its full 100% batch: "needs 50 Milk" sat beside
                an alert saying 37. */}
            {(
              economics.forecast?.inputs ??
              building.recipe.inputs.map((input) => ({ productId: input.product_id, name: input.product_name, need: input.quantity }))
            ).map((input) => (
              <Badge key={input.productId} variant="outline" color="gray" tt="none" data-testid="overview-input-need">
                needs {input.need.toLocaleString('en-US')} {input.name}
              </Badge>
            ))}
          </Group>
        )}
      </Card>
      <Card withBorder padding="lg">
        <Title order={2} fz="md" mb="xs">
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
