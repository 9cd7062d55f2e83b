/**
 * /worlds (docs/worlds.md): the public world and the worlds you play in or run, joining a private
 * world by its code, and creating a classroom world. The forms check input with the same shared
 * schemas the API uses, so a teacher reads the same message either way.
 */
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useMediaQuery } from '@mantine/hooks';
import { Badge, Button, Card, Group, NumberInput, SegmentedControl, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconDoor, IconFlask, IconPlus, IconSettings } from '@tabler/icons-react';
import { PUBLIC_WORLD_ID, createWorldSchema, forkWorldSchema, joinWorldSchema } from '@marketcraft/shared';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { SectionCard } from '../../components/SectionCard';
import { TableScroll } from '../../components/TableScroll';
import { FormAlert } from '../../components/FormAlert';
import { WeekField } from '../../components/WeekField';
import { usePageMeta } from '../../hooks/usePageMeta';
import { formatDate, formatWholeDollars } from '../../lib/format';
import { notifySuccess } from '../../lib/notify';
import { trpc } from '../../trpc';
import { useSwitchWorld } from '../../hooks/useSwitchWorld';

const STATUS_COLORS: Record<string, string> = { active: 'green', paused: 'yellow', ended: 'gray' };
const ROLE_LABELS: Record<string, string> = { instructor: 'Instructor', co_instructor: 'Co-instructor', admin: 'Admin', player: 'Player', visitor: 'Visitor' };

/** The first message of a failed shared-schema check, as the API would answer it. */
function firstIssue(result: { success: boolean; error?: { issues: Array<{ message: string }> } }): string | null {
  return result.success ? null : (result.error?.issues[0]?.message ?? 'Check the form');
}

function JoinCard() {
  const [code, setCode] = useState('');
  const [companyName, setCompanyName] = useState('');
  const [teamCode, setTeamCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const switchTo = useSwitchWorld();
  const join = trpc.worlds.join.useMutation({
    onSuccess: (world) => {
      notifySuccess('Joined', teamCode.trim() ? `You joined your team in ${world.name}.` : `You joined ${world.name}.`);
      switchTo.mutate({ world_id: world.id });
    },
    onError: (failure) => setError(failure.message),
  });
  const submit = () => {
    const joiningTeam = teamCode.trim() !== '';
    const input = { code, team_code: joiningTeam ? teamCode : undefined, company_name: joiningTeam ? undefined : companyName.trim() || undefined };
    const problem = firstIssue(joinWorldSchema.safeParse(input));
    setError(problem);
    if (!problem) join.mutate(input);
  };
  return (
    <SectionCard title="Join a class world" icon={IconDoor} headerMb="sm">
      <Text size="sm" c="dimmed" mb="md">
        Your instructor gives you a join code. You start a new company there, or with a teammate&apos;s team code you join their company&apos;s team; your other
        companies stay as they are.
      </Text>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label="Join code"
            placeholder="ABCD-2345"
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            error={error}
            data-testid="join-code"
            autoComplete="off"
          />
          <TextInput
            label="Team code (optional)"
            description="From a teammate's team card: you join their company instead of starting one"
            placeholder="ABC234"
            value={teamCode}
            onChange={(event) => setTeamCode(event.currentTarget.value)}
            data-testid="join-team-code"
            autoComplete="off"
          />
          <TextInput
            label="Company name (optional)"
            value={companyName}
            onChange={(event) => setCompanyName(event.currentTarget.value)}
            maxLength={80}
            disabled={teamCode.trim() !== ''}
            data-testid="join-company-name"
          />
          <Button type="submit" loading={join.isPending || switchTo.isPending} data-testid="join-world">
            Join world
          </Button>
        </Stack>
      </form>
    </SectionCard>
  );
}

function CreateCard() {
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [clock, setClock] = useState<'manual' | 'interval'>('manual');
  const [interval, setInterval] = useState<number | string>(5);
  const [startingCash, setStartingCash] = useState<number | string>(100_000);
  const [bots, setBots] = useState<number | string>(10);
  const [seed, setSeed] = useState<number | string>('');
  const [teamSize, setTeamSize] = useState<number | string>(1);
  const [error, setError] = useState<string | null>(null);
  const create = trpc.worlds.create.useMutation({
    onSuccess: (world) => {
      notifySuccess('World created', `${world.name}: share the join code ${world.join_code} with your class.`);
      void navigate(`/worlds/${world.id}/manage`);
    },
    onError: (failure) => setError(failure.message),
  });
  const submit = () => {
    const input = {
      name,
      turn_interval_minutes: clock === 'manual' ? null : interval === '' ? Number.NaN : Number(interval),
      starting_cash: startingCash === '' ? Number.NaN : Number(startingCash),
      bots: bots === '' ? Number.NaN : Number(bots),
      seed: seed === '' ? undefined : Number(seed),
      team_size: teamSize === '' ? Number.NaN : Number(teamSize),
    };
    const problem = firstIssue(createWorldSchema.safeParse(input));
    setError(problem);
    if (!problem) create.mutate(input);
  };
  return (
    <SectionCard title="Create a class world" icon={IconPlus} headerMb="sm">
      <Text size="sm" c="dimmed" mb="md">
        A private world for your class: its own market, clock and leaderboard. You run it as its instructor.
      </Text>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label="World name"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            maxLength={60}
            data-testid="world-name"
            required
          />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Turns
            </Text>
            <SegmentedControl
              value={clock}
              onChange={(value) => setClock(value as 'manual' | 'interval')}
              data={[
                { value: 'manual', label: 'When I advance them' },
                { value: 'interval', label: 'On a timer' },
              ]}
              aria-label="Turns"
            />
          </Stack>
          {clock === 'interval' && (
            <NumberInput
              clampBehavior="none"
              label="Minutes between turns (1-1440)"
              value={interval}
              onChange={setInterval}
              min={1}
              max={1440}
              allowDecimal={false}
              data-testid="world-interval"
            />
          )}
          <SimpleGrid cols={{ base: 1, xs: 3 }}>
            <NumberInput
              clampBehavior="none"
              label="Starting cash ($)"
              value={startingCash}
              onChange={setStartingCash}
              min={1000}
              max={10_000_000}
              thousandSeparator=","
              allowDecimal={false}
              data-testid="world-cash"
            />
            <NumberInput
              clampBehavior="none"
              label="Bots (0-25)"
              value={bots}
              onChange={setBots}
              min={0}
              max={25}
              allowDecimal={false}
              data-testid="world-bots"
            />
            <NumberInput clampBehavior="none" label="Seed (optional)" value={seed} onChange={setSeed} min={0} allowDecimal={false} data-testid="world-seed" />
          </SimpleGrid>
          <NumberInput
            clampBehavior="none"
            label="Team size (1-6)"
            description="Students per company: 1 plays alone; more join a classmate's company by its team code"
            value={teamSize}
            onChange={setTeamSize}
            min={1}
            max={6}
            allowDecimal={false}
            data-testid="world-team-size"
          />
          <FormAlert message={error} testId="create-world-error" />
          <Button type="submit" loading={create.isPending} data-testid="create-world">
            Create world
          </Button>
        </Stack>
      </form>
    </SectionCard>
  );
}

/**
 * A sandbox (docs/replay.md, "Sandbox backtests"): the public world as it was at the start of a past
 * week, for its players only, to try other moves; deleted after 7 days. Scripts make them with a
 * manage token (docs/scripting.md); this is the same request from the browser.
 */
function SandboxCard({ publicWeek }: { publicWeek: number }) {
  const navigate = useNavigate();
  const [week, setWeek] = useState<number | string>(Math.max(1, publicWeek - 1));
  const [error, setError] = useState<string | null>(null);
  const fork = trpc.worlds.fork.useMutation({
    onSuccess: (sandbox) => {
      notifySuccess('Sandbox ready', `${sandbox.name}: only you see it; it is deleted on ${formatDate(sandbox.deletes_at)}.`);
      void navigate(`/worlds/${sandbox.id}/manage`);
    },
    onError: (failure) => setError(failure.message),
  });
  const submit = () => {
    const input = { id: PUBLIC_WORLD_ID, week: week === '' ? Number.NaN : Number(week), private: true };
    const problem = firstIssue(forkWorldSchema.safeParse(input));
    setError(problem);
    if (!problem) fork.mutate(input);
  };
  return (
    <SectionCard title="Backtest in a sandbox" icon={IconFlask} headerMb="sm">
      <Text size="sm" c="dimmed" mb="md">
        Your own copy of the public world as it was at the start of a past week, with your company as it was then. Only you see it; you advance its turns and
        try other moves. Up to 3 at a time, each deleted 7 days after you make it.
      </Text>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <WeekField value={week} onChange={setWeek} currentWeek={publicWeek} testId="sandbox-week" />
          <FormAlert message={error} />
          <Button type="submit" loading={fork.isPending} data-testid="make-sandbox">
            Make a sandbox
          </Button>
          {fork.isPending && (
            <Text size="sm" c="dimmed" role="status">
              Replaying the public world up to week {String(week)}…
            </Text>
          )}
        </Stack>
      </form>
    </SectionCard>
  );
}

export default function WorldsPage() {
  usePageMeta('Worlds');
  const worlds = trpc.worlds.list.useQuery();
  const current = trpc.worlds.current.useQuery();
  const switchTo = useSwitchWorld();
  // Phones: status, week, players, turns and role go under the world's name, so the Play / Manage
  // buttons are in view (the 720 px table put them off screen, behind five columns).
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  const publicWorld = worlds.data?.find((world) => world.id === PUBLIC_WORLD_ID);
  return (
    <>
      <PageHeader title="Worlds" subtitle="The public world, your class worlds, and the worlds you run." />
      <Card withBorder padding="lg" mb="lg">
        <QueryState query={worlds} empty="No worlds yet.">
          {(list) => (
            <TableScroll minWidth={wide ? 720 : 0} label="Worlds">
              <Table striped highlightOnHover data-testid="worlds-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>World</Table.Th>
                    {wide && (
                      <>
                        <Table.Th>Status</Table.Th>
                        <Table.Th ta="right">Week</Table.Th>
                        <Table.Th ta="right">Players</Table.Th>
                        <Table.Th>Turns</Table.Th>
                        <Table.Th>You</Table.Th>
                      </>
                    )}
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.map((world) => {
                    const manages = world.role === 'instructor' || world.role === 'co_instructor' || world.role === 'admin';
                    return (
                      <Table.Tr key={world.id} data-testid={`world-row-${world.id}`}>
                        <Table.Td>
                          <Text fw={600} size="sm">
                            {world.name}
                          </Text>
                          <Text size="xs" c="dimmed">
                            {world.kind === 'public'
                              ? 'Public'
                              : world.sandbox
                                ? `Your sandbox from week ${world.forked_at_week} · deleted ${formatDate(world.deletes_at)}`
                                : `Private${world.starting_cash !== null ? ` · starts with ${formatWholeDollars(world.starting_cash)}` : ''}${world.team_size > 1 ? ` · teams of ${world.team_size}` : ''}${world.forked_at_week !== null ? ` · forked at week ${world.forked_at_week}` : ''}`}
                          </Text>
                          {!wide && (
                            <Text component="div" size="xs" c="dimmed" data-testid={`world-details-${world.id}`}>
                              <Badge color={STATUS_COLORS[world.status] ?? 'gray'} variant="light" size="xs" mr={4}>
                                {world.status}
                              </Badge>
                              Week {world.current_week} · {world.players} {world.players === 1 ? 'player' : 'players'} ·{' '}
                              <span data-testid={`world-turns-${world.id}`}>{world.turns}</span>
                              {world.role ? ` · You: ${ROLE_LABELS[world.role]}` : ''}
                            </Text>
                          )}
                        </Table.Td>
                        {wide && (
                          <>
                            <Table.Td>
                              <Badge color={STATUS_COLORS[world.status] ?? 'gray'} variant="light">
                                {world.status}
                              </Badge>
                            </Table.Td>
                            <Table.Td ta="right">{world.current_week}</Table.Td>
                            <Table.Td ta="right">{world.players}</Table.Td>
                            <Table.Td data-testid={`world-turns-${world.id}`}>{world.turns}</Table.Td>
                            <Table.Td>{world.role ? ROLE_LABELS[world.role] : '—'}</Table.Td>
                          </>
                        )}
                        <Table.Td>
                          <Group gap="xs" justify="flex-end" wrap={wide ? 'nowrap' : 'wrap'}>
                            {current.data?.id === world.id ? (
                              // Never narrower than its word: on a phone the column squeezed it to 'PL...'.
                              <Badge variant="outline" miw="max-content">
                                Playing
                              </Badge>
                            ) : (
                              (world.joined || world.kind === 'public') && (
                                <Button
                                  size="compact-sm"
                                  variant="light"
                                  onClick={() => switchTo.mutate({ world_id: world.id })}
                                  loading={switchTo.isPending && switchTo.variables?.world_id === world.id}
                                >
                                  Play
                                </Button>
                              )
                            )}
                            {manages && world.kind === 'private' && (
                              <Button
                                size="compact-sm"
                                variant="default"
                                component={Link}
                                to={`/worlds/${world.id}/manage`}
                                leftSection={<IconSettings size={14} aria-hidden />}
                              >
                                Manage
                              </Button>
                            )}
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </TableScroll>
          )}
        </QueryState>
      </Card>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <JoinCard />
        <CreateCard />
        {publicWorld?.joined && <SandboxCard publicWeek={publicWorld.current_week} />}
      </SimpleGrid>
    </>
  );
}
