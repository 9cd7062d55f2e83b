/**
 * Build (spec sections 2, 4, 5, 8): building cost and current cash, a type picker grouped by
 * category, a city selector with its bonus, and the build button.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Alert, Anchor, Badge, Button, Card, Group, Radio, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconBuildingFactory2, IconCircleCheck, IconMapPin } from '@tabler/icons-react';
import {
  BUILDING_CATEGORIES,
  BUILDING_CATEGORY_LABELS,
  BUILDING_TYPES,
  BUILDING_TYPE_NAMES,
  cityBonusApplies,
  isBuildingType,
  type BuildingType,
} from '@marketcraft/shared';
import { PageHeader } from '../../components/PageHeader';
import { QueryError } from '../../components/QueryError';
import { useCities, useCompany } from '../../hooks/useGameData';
import { usePageMeta } from '../../hooks/usePageMeta';
import { checkBuild } from '../../lib/formChecks';
import { formatWholeDollars, underscoresToSpaces } from '../../lib/format';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { trpc } from '../../trpc';
import classes from './build.module.css';

/** What each type makes, for the picker (spec section 3). */
const TYPE_BLURBS: Record<BuildingType, string> = {
  farm: 'Grows wheat and crops',
  mine: 'Extracts iron ore and minerals',
  oil_well: 'Pumps crude oil',
  lumber_mill: 'Produces lumber',
  mill: 'Mills wheat into flour',
  steel_mill: 'Turns iron into steel',
  textile_mill: 'Spins fibres into textiles',
  chemical_plant: 'Makes industrial chemicals',
  refinery: 'Refines crude oil into fuel',
  factory: 'Manufactures industrial goods',
  food_processing_plant: 'Processes food products',
  furniture_workshop: 'Builds furniture from wood',
  bakery: 'Bakes flour into bread',
  brewery: 'Brews beer and beverages',
  winery: 'Makes wine',
  jewelry_workshop: 'Crafts luxury jewelry',
  store: 'Sells products to consumers',
};

export default function BuildPage() {
  usePageMeta('Build', 'Build farms, mines, mills, factories and stores in 50 cities.');
  const { company, isPending: companyPending } = useCompany();
  const cities = useCities();
  const [type, setType] = useState<BuildingType | null>(null);
  const [cityId, setCityId] = useState<string | null>(null);

  const cash = company?.cash ?? 0;
  const spec = type ? BUILDING_TYPES[type] : null;
  const cost = spec?.constructionCost ?? null;
  const insufficient = company !== null && cost !== null && cash < cost;
  const city = cities.data?.find((candidate) => String(candidate.id) === cityId) ?? null;
  const bonusFits = type && city ? cityBonusApplies(type, city.bonus_type) : false;

  const cityOptions = useMemo(() => {
    const all = [...(cities.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));
    const option = (c: (typeof all)[number]) => ({
      value: String(c.id),
      label: `${c.name}, ${c.country_name} (+${c.bonus_value}% ${underscoresToSpaces(c.bonus_type)})`,
    });
    if (!type) return all.map(option);
    const fitting = all.filter((c) => cityBonusApplies(type, c.bonus_type)).sort((a, b) => b.bonus_value - a.bonus_value);
    const others = all.filter((c) => !cityBonusApplies(type, c.bonus_type));
    return [
      ...(fitting.length ? [{ group: `Bonus for a ${BUILDING_TYPES[type].name}`, items: fitting.map(option) }] : []),
      { group: 'Other cities', items: others.map(option) },
    ];
  }, [cities.data, type]);

  // The building just built: the page says where to go next (a new player was left on an empty form).
  const [built, setBuilt] = useState<{ id: number; type: string; name: string; city_name: string } | null>(null);
  // On a phone the Build button is at the foot of a long page: the note is brought into view there.
  const builtNote = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (built) builtNote.current?.scrollIntoView({ block: 'nearest' });
  }, [built]);
  const build = trpc.buildings.build.useMutation({
    onSuccess: (building) => {
      notifySuccess('Building constructed!', `Your new ${building.name} is now operational.`);
      setBuilt(building);
      setType(null);
      setCityId(null);
    },
    onError: (error) => notifyFailure('Failed to build', error, 'Not enough cash or invalid selection'),
  });

  // The server's own request schema ('Missing selection' without a type or a city).
  const checked = checkBuild({ type, city_id: city?.id });
  const onBuild = () => {
    if (checked.ok) build.mutate(checked.request);
  };

  return (
    <>
      <PageHeader title="Build" subtitle="Choose a building type and a city, then build" />
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Card withBorder padding="md">
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Building Cost
            </Text>
            <Text fw={800} fz={24} data-testid="build-cost">
              {cost === null ? 'Select a type' : formatWholeDollars(cost)}
            </Text>
            {spec && (
              <Text size="xs" c="dimmed">
                {spec.name}: {spec.baseCapacity} units/week base capacity, {formatWholeDollars(spec.weeklyOperatingCost)}/week operating cost
              </Text>
            )}
          </Card>
          <Card withBorder padding="md">
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Current Cash
            </Text>
            <Text fw={800} fz={24} c={insufficient ? 'red' : undefined} data-testid="build-cash">
              {companyPending ? '...' : formatWholeDollars(cash)}
            </Text>
            {cost !== null && !insufficient && (
              <Text size="xs" c="dimmed">
                After building: {formatWholeDollars(cash - cost)}
              </Text>
            )}
          </Card>
        </SimpleGrid>

        <Card withBorder padding="lg">
          <Group gap="xs" mb="md">
            <IconBuildingFactory2 size={20} aria-hidden />
            <Title order={2} fz="lg">
              1. Building Type
            </Title>
          </Group>
          {/* Native radios in one group: one tab stop, arrow keys move between the types. */}
          <Radio.Group
            value={type ?? ''}
            onChange={(value) => setType(isBuildingType(value) ? value : null)}
            name="building-type"
            label="Building type"
            labelProps={{ className: classes.srOnly }}
          >
            <Stack gap="md">
              {BUILDING_CATEGORIES.map((category) => {
                const types = BUILDING_TYPE_NAMES.filter((name) => BUILDING_TYPES[name].category === category);
                return (
                  <div key={category}>
                    <Text fw={700} size="sm" mb={6}>
                      {BUILDING_CATEGORY_LABELS[category]}
                    </Text>
                    <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="xs">
                      {types.map((name) => {
                        const typeSpec = BUILDING_TYPES[name];
                        return (
                          <Radio
                            key={name}
                            value={name}
                            classNames={{ root: classes.option, body: classes.optionBody, label: classes.optionLabelText }}
                            label={typeSpec.name}
                            description={
                              <>
                                {TYPE_BLURBS[name]}
                                <Text
                                  component="span"
                                  display="block"
                                  size="xs"
                                  fw={600}
                                  mt={4}
                                  c={company && cash < typeSpec.constructionCost ? 'red' : undefined}
                                >
                                  {formatWholeDollars(typeSpec.constructionCost)}
                                </Text>
                              </>
                            }
                          />
                        );
                      })}
                    </SimpleGrid>
                  </div>
                );
              })}
            </Stack>
          </Radio.Group>
        </Card>

        <Card withBorder padding="lg">
          <Group gap="xs" mb="md">
            <IconMapPin size={20} aria-hidden />
            <Title order={2} fz="lg">
              2. City
            </Title>
          </Group>
          {cities.isError ? (
            <QueryError error={cities.error} onRetry={() => void cities.refetch()} />
          ) : (
            <Select
              label="City"
              placeholder={cities.isPending ? 'Loading cities...' : 'Choose a city'}
              data={cityOptions}
              value={cityId}
              onChange={setCityId}
              searchable
              nothingFoundMessage="No city matches"
              disabled={cities.isPending}
              maxDropdownHeight={320}
              comboboxProps={{ withinPortal: true }}
            />
          )}
          {city && (
            <Group gap="xs" mt="sm">
              <Badge variant="light" color={bonusFits ? 'teal' : 'gray'}>
                +{city.bonus_value}% {underscoresToSpaces(city.bonus_type)} bonus
              </Badge>
              {type && (
                <Text size="sm" c={bonusFits ? 'teal' : 'dimmed'}>
                  {bonusFits ? `Applies to a ${BUILDING_TYPES[type].name}: +${city.bonus_value}% output.` : `Does not apply to a ${BUILDING_TYPES[type].name}.`}
                </Text>
              )}
            </Group>
          )}
        </Card>

        {insufficient && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />}>
            Insufficient funds. Sell goods or earn dividends to raise capital.
          </Alert>
        )}

        {/* Above the Build button, where the player is looking (below it, a phone showed it under the fold). */}
        {built && (
          <Alert
            ref={builtNote}
            color="teal"
            variant="light"
            icon={<IconCircleCheck aria-hidden />}
            title={`${built.name} built in ${built.city_name}`}
            data-testid="just-built"
          >
            {built.type === 'store' ? 'Next: put goods on its shelf at a price, and hire staff.' : 'Next: hire staff and choose what it produces.'}{' '}
            <Anchor component={Link} to={`/buildings/${built.id}`} fz="sm" fw={600}>
              Open your {built.name}
            </Anchor>
          </Alert>
        )}

        <Group>
          <Button
            size="md"
            onClick={onBuild}
            disabled={!checked.ok || !company || insufficient || build.isPending}
            leftSection={<IconBuildingFactory2 size={18} aria-hidden />}
          >
            {build.isPending ? 'Building...' : spec && city ? `Build ${spec.name} in ${city.name}` : 'Build'}
          </Button>
          {/* Right after a build the emptied form is no mistake: no 'Missing selection' under the note. */}
          {!checked.ok && !(built && !type && !cityId) && (
            <Text size="sm" c="dimmed" data-testid="build-missing">
              <b>{checked.error.title}</b>: {checked.error.message}
            </Text>
          )}
        </Group>
      </Stack>
    </>
  );
}
