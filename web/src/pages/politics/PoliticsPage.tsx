/** Politics (spec sections 2, 5, 8): countries, influence, active events and the invest panel. */
import { useRef, useState } from 'react';
import { useMediaQuery } from '@mantine/hooks';
import { Alert, Badge, Button, Card, Group, List, Progress, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { ELECTION_INTERVAL_WEEKS, INFLUENCE_POINTS_PER_UNIT, INFLUENCE_UNIT_COST, MAX_INFLUENCE_POINTS } from '@marketcraft/shared';
import { CashBadge } from '../../components/CashBadge';
import { NumberField, useFieldText } from '../../components/NumberField';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { POLITICAL_EVENTS_POLL_MS, useBuildings, useCities, useCompany } from '../../hooks/useGameData';
import { usePageMeta } from '../../hooks/usePageMeta';
import { checkPoliticsInvest } from '../../lib/formChecks';
import { formatWholeDollars } from '../../lib/format';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { trpc } from '../../trpc';

const BENEFITS = ['Shape tax policies', 'Trigger economic subsidies', 'Influence elections', 'Gain competitive advantage'];

export default function PoliticsPage() {
  usePageMeta('Politics', 'Invest in political influence to shape taxes and subsidies.');
  const { company } = useCompany();
  const countries = trpc.politics.countries.useQuery();
  const influence = trpc.politics.influence.useQuery();
  // Political events are polled every 60 s (spec section 9).
  const events = trpc.politics.events.useQuery(undefined, { refetchInterval: POLITICAL_EVENTS_POLL_MS });
  const [countryId, setCountryId] = useState<number | null>(null);
  // The field keeps what the player types; a text that is not a whole number of at least 1 gets a
  // message (the spec read it as 1: we never guess, docs/web.md).
  const units = useFieldText(1);
  const investRef = useRef<HTMLDivElement>(null);
  // Below 'md' the invest panel sits under the country list: bring it into view when a country is picked.
  const sideBySide = useMediaQuery('(min-width: 62em)');
  const selectCountry = (id: number) => {
    setCountryId(id);
    if (!sideBySide) window.requestAnimationFrame(() => investRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }));
  };

  const cash = company?.cash ?? 0;
  const selected = countries.data?.find((country) => country.id === countryId) ?? null;
  // The server's own request schema: a country first ('No country selected'), then the amount.
  const checked = checkPoliticsInvest({ country_id: selected?.id, units: units.text });
  const total = checked.ok ? checked.request.amount : null;
  // Where the player's buildings stand decides their tax rate (docs/economy.md, "Taxes"): each card
  // names them, so a player sees which countries' influence and events touch their profit.
  const buildings = useBuildings();
  const cities = useCities();
  const countryOfCity = new Map((cities.data ?? []).map((city) => [city.id, city.country_id]));
  const buildingsIn = (countryId: number) => (buildings.data ?? []).filter((building) => countryOfCity.get(building.city_id) === countryId);
  const hasBuildings = (buildings.data?.length ?? 0) > 0;
  const pointsOf = (id: number) => influence.data?.find((record) => record.country_id === id)?.influence_points ?? 0;

  const invest = trpc.politics.invest.useMutation({
    onSuccess: () => {
      notifySuccess('Investment successful!', 'Your political influence has increased.');
      units.reset(1);
    },
    onError: (error) => notifyFailure('Investment failed', error, 'Insufficient funds'),
  });

  return (
    <>
      <PageHeader title="Politics" subtitle="Build influence to shape the economy" actions={<CashBadge label="Available cash" />} />
      <QueryState query={countries}>
        {(countryList) => (
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <Stack gap="sm">
              <Title order={2} fz="lg">
                Countries
              </Title>
              <Text size="sm" c="dimmed" data-testid="politics-tax-rule">
                {hasBuildings
                  ? "Each week's profit is taxed at the average rate of the countries your buildings are in, with their active tax events."
                  : "Each week's profit is taxed at the average rate of the countries your buildings are in; with no buildings yet, the average of all countries."}
              </Text>
              {/* The cards are the choice of country: on a phone the Invest form and its 'Please select a
                country first' sat nine cards below, and nothing on the cards said they could be picked. */}
              <Text size="sm" fw={600} data-testid="politics-pick-hint">
                {selected ? `Investing in ${selected.name}: pick another country to change.` : 'Pick a country to invest in it.'}
              </Text>
              {countryList.map((country) => {
                const points = pointsOf(country.id);
                const active = (events.data ?? []).filter((event) => event.country_id === country.id);
                const isSelected = country.id === countryId;
                const here = buildingsIn(country.id);
                return (
                  <UnstyledButton key={country.id} onClick={() => selectCountry(country.id)} aria-pressed={isSelected}>
                    <Card withBorder padding="sm" style={isSelected ? { borderColor: 'var(--mantine-color-blue-5)', borderWidth: 2 } : undefined}>
                      <Group justify="space-between" wrap="nowrap">
                        <Text fw={700}>{country.name}</Text>
                        <Badge variant="light">Tax {country.tax_rate}%</Badge>
                      </Group>
                      <Group justify="space-between" mt={6}>
                        <Text size="xs" c="dimmed">
                          Your influence
                        </Text>
                        <Text size="xs" fw={600}>
                          {points.toLocaleString('en-US')} / {MAX_INFLUENCE_POINTS.toLocaleString('en-US')}
                        </Text>
                      </Group>
                      <Progress value={Math.min(100, (points / MAX_INFLUENCE_POINTS) * 100)} size="sm" mt={4} aria-label={`Influence in ${country.name}`} />
                      {here.length > 0 && (
                        <Text size="xs" mt={6} data-testid="politics-your-buildings">
                          <Text span fw={600}>
                            Your buildings here:
                          </Text>{' '}
                          {here.map((building) => `${building.name} (${building.city_name})`).join(', ')}
                        </Text>
                      )}
                      {active.map((event) => (
                        <Text key={event.id} size="xs" mt={6}>
                          {event.description}{' '}
                          <Text span c="dimmed">
                            (Until week {event.active_until_week})
                          </Text>
                        </Text>
                      ))}
                    </Card>
                  </UnstyledButton>
                );
              })}
            </Stack>

            <Stack gap="md" ref={investRef} style={{ alignSelf: 'flex-start', position: sideBySide ? 'sticky' : undefined, top: 76, scrollMarginTop: 72 }}>
              <Card withBorder padding="lg">
                <Title order={2} fz="lg" mb="sm">
                  {selected ? `Invest in ${selected.name}` : 'Invest'}
                </Title>
                {!selected && (
                  <Alert color="blue" variant="light" title="No country selected" mb="sm" data-testid="no-country">
                    Please select a country first
                  </Alert>
                )}
                <form
                  noValidate
                  onSubmit={(event) => {
                    event.preventDefault();
                    if (checked.ok && total !== null && total <= cash) invest.mutate(checked.request);
                  }}
                >
                  <NumberField
                    label="Units"
                    description={`${formatWholeDollars(INFLUENCE_UNIT_COST)} and ${INFLUENCE_POINTS_PER_UNIT} influence points per unit`}
                    field={units}
                    error={checked.errors.units}
                    disabled={invest.isPending}
                  />
                  <Group justify="space-between" my="sm">
                    <Text size="sm">Total cost</Text>
                    <Text fw={700} c={total !== null && cash < total ? 'red' : undefined} data-testid="invest-total">
                      {total === null ? '-' : formatWholeDollars(total)}
                    </Text>
                  </Group>
                  <Button type="submit" fullWidth disabled={!checked.ok || total === null || cash < total || invest.isPending}>
                    {invest.isPending ? 'Investing...' : 'Invest'}
                  </Button>
                </form>
                <Text size="sm" fw={600} mb={4} mt="md">
                  Benefits
                </Text>
                <List size="sm" spacing={2}>
                  {BENEFITS.map((benefit) => (
                    <List.Item key={benefit}>{benefit}</List.Item>
                  ))}
                </List>
              </Card>
              <Alert variant="light" icon={<IconInfoCircle aria-hidden />} title="How It Works">
                Elections happen every {ELECTION_INTERVAL_WEEKS} weeks. High influence can trigger favourable events such as tax cuts and subsidies.
              </Alert>
            </Stack>
          </SimpleGrid>
        )}
      </QueryState>
    </>
  );
}
