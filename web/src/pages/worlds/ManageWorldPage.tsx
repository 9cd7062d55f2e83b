/**
 * /worlds/{id}/manage (docs/worlds.md): an instructor runs a class world: the clock (pause, resume,
 * advance a turn now, end the world), the join code, co-instructors, shocks, a fork, announcements, every
 * company's figures, the teams, the CSV downloads and the debrief chart. The API decides who may (instructors,
 * co-instructors and site admins); others see its message.
 */
import { lazy, Suspense, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Alert, Badge, Button, Card, Code, Group, SimpleGrid, Stack, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import { IconDownload, IconPlayerPause, IconPlayerPlay, IconPlayerTrackNext, IconRefresh, IconSquareX } from '@tabler/icons-react';
import { shockSchema } from '@marketcraft/shared';
import { FormAlert } from '../../components/FormAlert';
import { PageLoader } from '../../components/FullScreenLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { SectionCard } from '../../components/SectionCard';
import { TableScroll } from '../../components/TableScroll';
import { usePageMeta } from '../../hooks/usePageMeta';
import { formatDateTime, formatMoney, formatWholeDollars } from '../../lib/format';
import { notifyFailure, notifyLatest, notifySuccess } from '../../lib/notify';
import { trpc } from '../../trpc';
import { CourseSystemCard } from './CourseSystemCard';
import { ForkCard } from './ForkCard';
import { NEW_SHOCK, ShockFields, shockInput, type ShockDraft } from './ShockFields';
import { TeamsCard } from './TeamsCard';
import { AssignmentsCard } from './AssignmentsCard';
import { GradebookCard } from './GradebookCard';

const DebriefCharts = lazy(() => import('./DebriefCharts'));
const ForkComparisonCharts = lazy(() => import('./ForkComparisonCharts'));

function ClockCard({ worldId }: { worldId: number }) {
  const world = trpc.worlds.get.useQuery({ id: worldId });
  const update = trpc.worlds.update.useMutation({
    onSuccess: (next) => notifySuccess(next.status === 'paused' ? 'Clock paused' : 'Clock running'),
    onError: (error) => notifyFailure('Error', error, 'Could not change the clock'),
  });
  // One turn at a time from this page: the button is disabled (loading) while one runs, and the ref
  // also stops a second click that lands before React has re-rendered the first one's state.
  const advancing = useRef(false);
  const advance = trpc.worlds.advance.useMutation({
    // The week the server answered; a newer answer replaces an older toast instead of queuing behind it.
    onSuccess: (result) => notifyLatest('world-turn', 'Turn complete', `The world is now in week ${result.current_week}.`),
    onError: (error) => notifyFailure('Error', error, 'The turn did not run'),
    onSettled: () => {
      advancing.current = false;
    },
  });
  const advanceNow = () => {
    if (advancing.current) return;
    advancing.current = true;
    advance.mutate({ id: worldId });
  };
  const end = trpc.worlds.end.useMutation({
    onSuccess: () => notifySuccess('World ended', 'Its data stays readable; nothing changes it any more.'),
    onError: (error) => notifyFailure('Error', error, 'Could not end the world'),
  });
  const rotate = trpc.worlds.rotateCode.useMutation({
    onSuccess: (next) => notifySuccess('New join code', `Students now join with ${next.join_code}.`),
    onError: (error) => notifyFailure('Error', error, 'Could not change the join code'),
  });
  return (
    <Card withBorder padding="lg">
      <QueryState query={world}>
        {(data) => {
          const ended = data.status === 'ended';
          return (
            <Stack gap="sm">
              <Group justify="space-between">
                <Title order={2} fz="lg">
                  Clock
                </Title>
                <Badge color={ended ? 'gray' : data.status === 'paused' ? 'yellow' : 'green'} data-testid="world-status">
                  {data.status}
                </Badge>
              </Group>
              <Text size="sm">
                Week <b data-testid="manage-week">{data.current_week}</b> · <span data-testid="manage-turns">{data.turns}</span>
                {data.next_turn_at && data.status === 'active' ? ` · next ${formatDateTime(data.next_turn_at)}` : ''}
              </Text>
              {/* A sandbox is its owner's alone: nobody joins it (the server refuses a code for it). */}
              {!data.sandbox && (
                <Text size="sm">
                  Join code: <Code data-testid="manage-join-code">{data.join_code ?? '—'}</Code> · {data.players} {data.players === 1 ? 'player' : 'players'}
                </Text>
              )}
              <Group gap="xs">
                <Button
                  leftSection={<IconPlayerTrackNext size={16} aria-hidden />}
                  onClick={advanceNow}
                  loading={advance.isPending}
                  disabled={ended}
                  data-testid="advance-turn"
                >
                  Advance turn now
                </Button>
                {data.status === 'paused' ? (
                  <Button
                    variant="light"
                    leftSection={<IconPlayerPlay size={16} aria-hidden />}
                    onClick={() => update.mutate({ id: worldId, status: 'active' })}
                    loading={update.isPending}
                    disabled={ended}
                  >
                    Resume
                  </Button>
                ) : (
                  <Button
                    variant="light"
                    leftSection={<IconPlayerPause size={16} aria-hidden />}
                    onClick={() => update.mutate({ id: worldId, status: 'paused' })}
                    loading={update.isPending}
                    disabled={ended}
                  >
                    Pause
                  </Button>
                )}
                {!data.sandbox && (
                  <Button
                    variant="default"
                    leftSection={<IconRefresh size={16} aria-hidden />}
                    onClick={() => rotate.mutate({ id: worldId })}
                    loading={rotate.isPending}
                    disabled={ended}
                  >
                    New join code
                  </Button>
                )}
                <Button
                  color="red"
                  variant="light"
                  leftSection={<IconSquareX size={16} aria-hidden />}
                  disabled={ended}
                  loading={end.isPending}
                  onClick={() => {
                    if (window.confirm('End this world? Players can still read everything, but nothing changes any more.')) end.mutate({ id: worldId });
                  }}
                >
                  End world
                </Button>
              </Group>
            </Stack>
          );
        }}
      </QueryState>
    </Card>
  );
}

function ShockCard({ worldId }: { worldId: number }) {
  const [draft, setDraft] = useState<ShockDraft>(NEW_SHOCK);
  const [error, setError] = useState<string | null>(null);
  const addShock = trpc.worlds.addShock.useMutation({
    onSuccess: (shock) => {
      notifySuccess('Shock applied', shock.description);
      setError(null);
    },
    onError: (failure) => setError(failure.message),
  });
  const submit = () => {
    const input = { id: worldId, ...shockInput(draft) };
    const parsed = shockSchema.safeParse(input);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the shock');
      return;
    }
    addShock.mutate(input);
  };
  return (
    <SectionCard title="Apply a shock" headerMb="sm">
      <Text size="sm" c="dimmed" mb="sm">
        The next turns use it for the weeks you choose; everyone sees it in the world's news.
      </Text>
      <Stack gap="sm">
        <ShockFields draft={draft} onChange={setDraft} testId="shock" />
        <FormAlert message={error} />
        <Button onClick={submit} loading={addShock.isPending} data-testid="apply-shock">
          Apply shock
        </Button>
      </Stack>
    </SectionCard>
  );
}

type Member = { user_id: number; email: string; role: string; is_you: boolean };

/**
 * The instructors, each co-instructor with Remove (for the world's instructor and site admins) or
 * Leave (for the co-instructor themself): anybody can be added by their email, so they can go.
 */
function InstructorList({ worldId, members, yourRole }: { worldId: number; members: Member[]; yourRole: string | null }) {
  const navigate = useNavigate();
  const remove = trpc.worlds.removeCoInstructor.useMutation({
    onSuccess: (_data, input) => {
      const left = members.find((member) => member.user_id === input.user_id)?.is_you;
      notifySuccess(left ? "You left this world's instructors" : 'Co-instructor removed');
      if (left) void navigate('/worlds');
    },
    onError: (error) => notifyFailure('Error', error, 'Could not remove the co-instructor'),
  });
  if (members.length === 0) return <Text size="sm">—</Text>;
  return (
    <Stack gap={4}>
      {members.map((member) => {
        const canRemove = member.role === 'co_instructor' && (member.is_you || yourRole === 'instructor' || yourRole === 'admin');
        return (
          <Group key={member.user_id} justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {member.email}
              {member.role === 'co_instructor' ? ' (co-instructor)' : ' (instructor)'}
              {member.is_you ? ' · you' : ''}
            </Text>
            {canRemove && (
              <Button
                size="compact-xs"
                variant="subtle"
                color="red"
                loading={remove.isPending && remove.variables?.user_id === member.user_id}
                onClick={() => {
                  const question = member.is_you
                    ? "Leave this world's instructors? You will no longer manage it."
                    : `Remove ${member.email} from this world's instructors?`;
                  if (window.confirm(question)) remove.mutate({ id: worldId, user_id: member.user_id });
                }}
              >
                {member.is_you ? 'Leave' : 'Remove'}
              </Button>
            )}
          </Group>
        );
      })}
    </Stack>
  );
}

function AnnouncementCard({ worldId, yourRole, sandbox }: { worldId: number; yourRole: string | null; sandbox: boolean }) {
  const [message, setMessage] = useState('');
  const announce = trpc.worlds.announce.useMutation({
    onSuccess: () => {
      notifySuccess('Announcement posted');
      setMessage('');
    },
    onError: (error) => notifyFailure('Error', error, 'Could not post the announcement'),
  });
  const [email, setEmail] = useState('');
  const instructors = trpc.worlds.instructors.useQuery({ id: worldId });
  const addCo = trpc.worlds.addCoInstructor.useMutation({
    onSuccess: () => {
      notifySuccess('Co-instructor added');
      setEmail('');
    },
    onError: (error) => notifyFailure('Error', error, 'Could not add the co-instructor'),
  });
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          Announce
        </Title>
        <Textarea
          label="Message to the class"
          value={message}
          onChange={(event) => setMessage(event.currentTarget.value)}
          maxLength={500}
          autosize
          minRows={2}
          data-testid="announcement"
        />
        <Button onClick={() => announce.mutate({ id: worldId, message })} loading={announce.isPending} disabled={message.trim() === ''}>
          Post announcement
        </Button>
        <Title order={3} fz="md" mt="sm">
          Instructors
        </Title>
        <InstructorList worldId={worldId} members={instructors.data ?? []} yourRole={yourRole} />
        {/* A sandbox has no co-instructors (the server refuses them): nobody else may see it. */}
        {!sandbox && (
          <Group align="flex-end" gap="xs">
            <TextInput
              label="Add a co-instructor (email)"
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
              style={{ flex: 1 }}
              data-testid="co-instructor-email"
            />
            <Button
              variant="light"
              onClick={() => addCo.mutate({ id: worldId, email })}
              loading={addCo.isPending}
              disabled={email.trim() === ''}
              data-testid="add-co-instructor"
            >
              Add
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

function CompaniesCard({ worldId }: { worldId: number }) {
  const companies = trpc.worlds.companies.useQuery({ id: worldId });
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="lg">
          Companies
        </Title>
        <Group gap="xs">
          {(['companies', 'transactions', 'prices'] as const).map((kind) => (
            <Button
              key={kind}
              component="a"
              href={`/api/worlds/${worldId}/export/${kind}.csv`}
              size="compact-sm"
              variant="default"
              leftSection={<IconDownload size={14} aria-hidden />}
            >
              {kind === 'companies' ? 'Companies by week' : kind === 'transactions' ? 'Transactions' : 'Prices by week'} (CSV)
            </Button>
          ))}
        </Group>
      </Group>
      <QueryState query={companies} empty="No companies yet: share the join code.">
        {(rows) => (
          <TableScroll minWidth={640} label="Companies of the world">
            <Table striped data-testid="world-companies">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Company</Table.Th>
                  <Table.Th>Player</Table.Th>
                  <Table.Th ta="right">Cash</Table.Th>
                  <Table.Th ta="right">Net worth</Table.Th>
                  <Table.Th ta="right">Buildings</Table.Th>
                  <Table.Th ta="right">Last week's profit</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.id}>
                    <Table.Td>
                      {row.name} {row.status === 'bankrupt' && <Badge color="red">bankrupt</Badge>}
                    </Table.Td>
                    <Table.Td>{row.is_bot ? 'Bot' : row.owner_email}</Table.Td>
                    <Table.Td ta="right">{formatWholeDollars(row.cash)}</Table.Td>
                    <Table.Td ta="right">{formatWholeDollars(row.net_worth)}</Table.Td>
                    <Table.Td ta="right">{row.buildings}</Table.Td>
                    <Table.Td ta="right">{row.last_week_profit === null ? '—' : formatMoney(row.last_week_profit)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        )}
      </QueryState>
    </Card>
  );
}

export default function ManageWorldPage() {
  const worldId = Number(useParams().id);
  const world = trpc.worlds.get.useQuery({ id: worldId }, { enabled: Number.isInteger(worldId) && worldId > 0 });
  usePageMeta(world.data ? `Manage ${world.data.name}` : 'Manage world');
  const manages = world.data && (world.data.role === 'instructor' || world.data.role === 'co_instructor' || world.data.role === 'admin');
  // The header shows the world this session plays in, usually the public world: its week (8) sat
  // above this class's clock (week 3) without a word on which was which.
  const current = trpc.worlds.current.useQuery();
  const elsewhere = current.data && world.data && current.data.id !== world.data.id ? current.data.name : null;
  return (
    <>
      <PageHeader
        title={world.data ? `Manage ${world.data.name}` : 'Manage world'}
        subtitle="Run your class world: its clock, shocks, announcements and debrief."
      />
      <QueryState query={world}>
        {() =>
          !manages ? (
            <Alert color="yellow">Only this world's instructors can manage it.</Alert>
          ) : (
            <Stack gap="lg">
              {world.data?.sandbox && (
                <Alert color="blue" data-testid="sandbox-note">
                  Your sandbox: a copy of the public world from week {world.data.forked_at_week} that only you see. Advance it as fast as you like; it is
                  deleted on {formatDateTime(world.data.deletes_at)}.
                </Alert>
              )}
              {elsewhere && (
                <Text size="sm" c="dimmed" data-testid="manage-header-note">
                  The header shows your company in {elsewhere} (its week and cash); this page runs {world.data?.name}, at the week its clock says.
                </Text>
              )}
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                <ClockCard worldId={worldId} />
                <AnnouncementCard worldId={worldId} yourRole={world.data?.role ?? null} sandbox={world.data?.sandbox ?? false} />
              </SimpleGrid>
              <ShockCard worldId={worldId} />
              {world.data && !world.data.sandbox && (
                <ForkCard
                  worldId={worldId}
                  worldName={world.data.name}
                  currentWeek={world.data.current_week}
                  bots={world.data.bots}
                  botsActive={world.data.bots_active}
                />
              )}
              <CompaniesCard worldId={worldId} />
              {world.data?.kind === 'private' && (
                <>
                  <TeamsCard worldId={worldId} />
                  <AssignmentsCard worldId={worldId} currentWeek={world.data.current_week} />
                  <GradebookCard worldId={worldId} />
                </>
              )}
              <CourseSystemCard worldId={worldId} />
              <Suspense fallback={<PageLoader />}>
                {world.data?.forked_from_world_id != null && <ForkComparisonCharts worldId={worldId} />}
                <DebriefCharts worldId={worldId} />
              </Suspense>
            </Stack>
          )
        }
      </QueryState>
    </>
  );
}
