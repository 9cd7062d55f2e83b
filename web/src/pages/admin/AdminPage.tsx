/**
 * Admin Panel (spec section 2): world state, the automatic turn schedule, the public world's clock,
 * manual turn control. Every card is the public world's, whichever world the admin plays in
 * (docs/worlds.md, "/admin and the public world"); class worlds are run from their manage page.
 */
import { Link, Navigate } from 'react-router-dom';
import { Alert, Anchor, Badge, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCalendarTime, IconPlayerTrackNext, IconWorld } from '@tabler/icons-react';
import { PUBLIC_WORLD_NAME } from '@marketcraft/shared';
import { PageLoader } from '../../components/FullScreenLoader';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { SectionCard } from '../../components/SectionCard';
import { useIsAdmin } from '../../hooks/useIsAdmin';
import { useNow } from '../../hooks/useNow';
import { usePageMeta } from '../../hooks/usePageMeta';
import { timeUntilNextTurn } from '../../lib/countdown';
import { formatDateTime } from '../../lib/format';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { trpc } from '../../trpc';
import { BusiestTokensCard } from './BusiestTokensCard';
import { PublicClockCard } from './PublicClockCard';

function Field({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text c="dimmed" size="sm">
        {label}
      </Text>
      <Text fw={600} size="sm" ta="right" data-testid={testId}>
        {value}
      </Text>
    </Group>
  );
}

function WorldStateCard() {
  const now = useNow(1000);
  const world = trpc.admin.worldState.useQuery();
  return (
    <SectionCard title="World State" icon={IconWorld} data-testid="world-state-card">
      <Text size="sm" c="dimmed" mb="sm" data-testid="admin-world-name">
        {PUBLIC_WORLD_NAME}, whichever world you play in. Class worlds are run from their{' '}
        <Anchor component={Link} to="/worlds" inherit>
          manage page
        </Anchor>
        .
      </Text>
      <QueryState query={world}>
        {(state) => (
          <Stack gap="xs">
            <Field label="Current Week" value={String(state.current_week)} testId="admin-current-week" />
            <Field label="Last Turn" value={state.last_turn_at ? formatDateTime(state.last_turn_at) : 'Never'} />
            <Field label="Next Turn" value={formatDateTime(state.next_turn_at)} />
            <Field label="Time Until Next Turn" value={timeUntilNextTurn(state.next_turn_at, now)} />
          </Stack>
        )}
      </QueryState>
    </SectionCard>
  );
}

function ScheduleCard() {
  const cron = trpc.admin.cronStatus.useQuery();
  return (
    <SectionCard title="Automated Turn Schedule" icon={IconCalendarTime} data-testid="schedule-card">
      <QueryState query={cron}>
        {(schedule) => (
          <Stack gap="xs">
            <Field label="Job Name" value={schedule.jobname} />
            <Field label="Schedule" value={schedule.schedule} />
            <Group justify="space-between">
              <Text c="dimmed" size="sm">
                Status
              </Text>
              <Badge color={schedule.active ? 'green' : 'gray'}>{schedule.active ? 'Active' : 'Inactive'}</Badge>
            </Group>
            <Text size="sm" c="dimmed" mt="xs">
              Automatic turns run at 00:30 and 12:30 UTC daily.
            </Text>
          </Stack>
        )}
      </QueryState>
    </SectionCard>
  );
}

function ManualTurnCard() {
  const advance = trpc.admin.advanceTurn.useMutation({
    onSuccess: () => {
      notifySuccess('Turn Advanced Successfully', 'The game has advanced by one week. All production, sales, and bot actions have been processed.');
    },
    onError: (error) => notifyFailure('Error Advancing Turn', error, 'Failed to advance the turn. Check the server logs.'),
  });
  return (
    <SectionCard title="Manual Turn Control" icon={IconPlayerTrackNext}>
      <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden />} mb="md" title="Warning">
        Advancing the turn runs a full game week of the {PUBLIC_WORLD_NAME.toLowerCase()} for every company in it right now: production, sales, bot actions,
        stock prices and dividends. It cannot be undone.
      </Alert>
      <Button color="orange" onClick={() => advance.mutate()} disabled={advance.isPending} leftSection={<IconPlayerTrackNext size={18} aria-hidden />}>
        {advance.isPending ? 'Processing Turn...' : 'Advance Turn Manually'}
      </Button>
    </SectionCard>
  );
}

export default function AdminPage() {
  usePageMeta('Admin Panel', 'Marketcraft administration: world state and turn control.');
  const { isAdmin, isLoading } = useIsAdmin();
  if (isLoading) return <PageLoader />;
  if (!isAdmin) return <Navigate to="/" replace />;
  return (
    <>
      <PageHeader title="Admin Panel" subtitle="World state and turn control" />
      <SimpleGrid cols={{ base: 1, md: 2 }} mb="md">
        <WorldStateCard />
        <ScheduleCard />
      </SimpleGrid>
      <PublicClockCard />
      <ManualTurnCard />
      <BusiestTokensCard />
    </>
  );
}
