/**
 * Fork (docs/replay.md, "Forking a world"): a new class world at the start of a past week,
 * replayed from this world's log, with the same companies, players and teams. The instructor
 * chooses the week and the name, and may change the fork at once: a shock, a country's tax rate,
 * the bots stopped. The page then opens the fork's own manage page.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Checkbox, Fieldset, NumberInput, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconGitFork } from '@tabler/icons-react';
import { forkWorldSchema } from '@marketcraft/shared';
import { SectionCard } from '../../components/SectionCard';
import { FormAlert } from '../../components/FormAlert';
import { WeekField } from '../../components/WeekField';
import { notifySuccess } from '../../lib/notify';
import { trpc } from '../../trpc';
import { NEW_SHOCK, ShockFields, shockInput, type ShockDraft } from './ShockFields';

export function ForkCard({
  worldId,
  worldName,
  currentWeek,
  bots,
  botsActive,
}: {
  worldId: number;
  worldName: string;
  currentWeek: number;
  bots: number;
  botsActive: boolean;
}) {
  const navigate = useNavigate();
  const countries = trpc.politics.countries.useQuery();
  const [week, setWeek] = useState<number | string>(currentWeek);
  const [name, setName] = useState('');
  const [withShock, setWithShock] = useState(false);
  const [shock, setShock] = useState<ShockDraft>(NEW_SHOCK);
  const [taxCountry, setTaxCountry] = useState<string | null>(null);
  const [taxRate, setTaxRate] = useState<number | string>('');
  // Stop the bots (they play here now), or start them again (a fork that stopped them).
  const [switchBots, setSwitchBots] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fork = trpc.worlds.fork.useMutation({
    onSuccess: (created) => {
      notifySuccess('World forked', `${created.name} starts at week ${created.current_week} with the same companies, players and teams.`);
      void navigate(`/worlds/${created.id}/manage`);
    },
    onError: (failure) => setError(failure.message),
  });
  const defaultName = `${worldName} from week ${week === '' ? '?' : week}`.slice(0, 60);
  const submit = () => {
    const input = {
      id: worldId,
      week: week === '' ? Number.NaN : Number(week),
      name: name.trim() === '' ? defaultName : name,
      shock: withShock ? shockInput(shock) : undefined,
      // A tax rate typed without its country (or the other way round) is asked for, not dropped.
      tax_rates:
        taxCountry || taxRate !== ''
          ? [{ country_id: taxCountry ? Number(taxCountry) : Number.NaN, tax_rate: taxRate === '' ? Number.NaN : Number(taxRate) }]
          : undefined,
      bots: switchBots ? !botsActive : undefined,
    };
    if (input.tax_rates && !taxCountry) {
      setError('Choose the country whose tax rate the fork sets');
      return;
    }
    const parsed = forkWorldSchema.safeParse(input);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the fork');
      return;
    }
    setError(null);
    fork.mutate(parsed.data);
  };
  return (
    <SectionCard title="Fork this world" headerMb="sm">
      <Text size="sm" c="dimmed" mb="sm">
        A new class world as this one was at the start of a past week: the same companies, players, teams (with their team codes) and history up to then, and
        the assignments still due from that week on. Your students continue in it (it appears in their worlds, with a news item saying where it comes from), and
        you run its clock and shocks on their own. Its debrief compares it with this world.
      </Text>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <WeekField value={week} onChange={setWeek} currentWeek={currentWeek} testId="fork-week" />
          <TextInput
            label="Name"
            placeholder={defaultName}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            maxLength={60}
            data-testid="fork-name"
          />
        </SimpleGrid>
        <Fieldset legend="Changes at the fork (optional)" variant="unstyled">
          <Stack gap="sm">
            <Checkbox
              label="Apply a shock from the fork week on"
              checked={withShock}
              onChange={(event) => setWithShock(event.currentTarget.checked)}
              data-testid="fork-with-shock"
            />
            {withShock && <ShockFields draft={shock} onChange={setShock} testId="fork-shock" />}
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label="Set a country's tax rate"
                placeholder="No change"
                data={(countries.data ?? []).map((country) => ({ value: String(country.id), label: `${country.name} (now ${country.tax_rate}%)` }))}
                value={taxCountry}
                onChange={setTaxCountry}
                clearable
                searchable
                data-testid="fork-tax-country"
              />
              <NumberInput
                clampBehavior="none"
                label="Tax rate (%)"
                value={taxRate}
                onChange={setTaxRate}
                min={0}
                max={100}
                allowDecimal={false}
                disabled={!taxCountry}
                data-testid="fork-tax-rate"
              />
            </SimpleGrid>
            {bots > 0 && (
              <Switch
                label={botsActive ? 'Stop the bots: they make no more moves in the fork' : 'Start the bots again: they make moves in the fork'}
                checked={switchBots}
                onChange={(event) => setSwitchBots(event.currentTarget.checked)}
                data-testid="fork-stop-bots"
              />
            )}
          </Stack>
        </Fieldset>
        <FormAlert message={error} />
        <Button leftSection={<IconGitFork size={16} aria-hidden />} onClick={submit} loading={fork.isPending} data-testid="fork-world">
          Fork world
        </Button>
        {fork.isPending && (
          <Text size="sm" c="dimmed" role="status">
            Replaying this world week by week up to week {String(week)}…
          </Text>
        )}
      </Stack>
    </SectionCard>
  );
}
