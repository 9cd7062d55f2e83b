/**
 * The public world's clock on /admin (docs/worlds.md, "The public world's clock"): whether its
 * scheduled turns run, and Pause / Resume after a confirmation. It is the worlds' own operation
 * (PATCH /api/worlds/{id} {status}), which site admins may call for the public world: while paused
 * the scheduled turns do nothing; 'Advance Turn Manually' still runs one.
 */
import { useState } from 'react';
import { Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconClockPause, IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { PUBLIC_WORLD_ID } from '@marketcraft/shared';
import { QueryState } from '../../components/QueryState';
import { SectionCard } from '../../components/SectionCard';
import { formatDateTime } from '../../lib/format';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { trpc } from '../../trpc';

type ClockChange = 'paused' | 'active';

const CONFIRM: Record<ClockChange, { title: string; text: string; button: string }> = {
  paused: {
    title: "Pause the public world's clock?",
    text: 'The scheduled turns do nothing until you resume it. Players can still play, and Advance Turn Manually still runs a turn.',
    button: 'Pause clock',
  },
  active: {
    title: "Resume the public world's clock?",
    text: 'The next scheduled turn runs at its usual time.',
    button: 'Resume clock',
  },
};

export function PublicClockCard() {
  const world = trpc.worlds.get.useQuery({ id: PUBLIC_WORLD_ID });
  const [confirming, setConfirming] = useState<ClockChange | null>(null);
  const update = trpc.worlds.update.useMutation({
    onSuccess: (next) => {
      setConfirming(null);
      if (next.status === 'paused') notifySuccess('Clock paused', 'Scheduled turns of the public world are skipped until you resume it.');
      else notifySuccess('Clock running', 'The public world turns on its schedule again.');
    },
    onError: (error) => notifyFailure('Error', error, 'Could not change the clock'),
  });
  return (
    <SectionCard title="Public World Clock" icon={IconClockPause} mb="md" data-testid="public-clock-card">
      <QueryState query={world}>
        {(data) => {
          const paused = data.status === 'paused';
          return (
            <Stack gap="xs">
              <Group justify="space-between">
                <Text c="dimmed" size="sm">
                  Clock
                </Text>
                <Badge color={paused ? 'yellow' : 'green'} data-testid="public-clock-status">
                  {paused ? 'Paused' : 'Running'}
                </Badge>
              </Group>
              <Text size="sm" c="dimmed">
                {paused
                  ? `${data.name} is at week ${data.current_week}. Scheduled turns are skipped until you resume the clock.`
                  : `${data.name} is at week ${data.current_week}. Next scheduled turn: ${formatDateTime(data.next_turn_at)}.`}
              </Text>
              <Group>
                {paused ? (
                  <Button variant="light" color="green" leftSection={<IconPlayerPlay size={18} aria-hidden />} onClick={() => setConfirming('active')}>
                    Resume the clock
                  </Button>
                ) : (
                  <Button variant="light" color="yellow" leftSection={<IconPlayerPause size={18} aria-hidden />} onClick={() => setConfirming('paused')}>
                    Pause the clock
                  </Button>
                )}
              </Group>
            </Stack>
          );
        }}
      </QueryState>

      <Modal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={confirming ? CONFIRM[confirming].title : ''}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Text size="sm" mb="md">
          {confirming && CONFIRM[confirming].text}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirming(null)} disabled={update.isPending}>
            Cancel
          </Button>
          <Button
            color={confirming === 'paused' ? 'yellow' : 'green'}
            onClick={() => confirming && update.mutate({ id: PUBLIC_WORLD_ID, status: confirming })}
            loading={update.isPending}
          >
            {confirming ? CONFIRM[confirming].button : ''}
          </Button>
        </Group>
      </Modal>
    </SectionCard>
  );
}
