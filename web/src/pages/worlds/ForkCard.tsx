/**
 * Fork (docs/replay.md, "Forking a world"): a new class world at the start of a past week,
 * replayed from this world's log, with the same companies and players. The instructor chooses the
 * week and the name; the page then opens the fork's own manage page.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, NumberInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconGitFork } from '@tabler/icons-react';
import { forkWorldSchema } from '@marketcraft/shared';
import { SectionCard } from '../../components/SectionCard';
import { notifySuccess } from '../../lib/notify';
import { trpc } from '../../trpc';

export function ForkCard({ worldId, worldName, currentWeek }: { worldId: number; worldName: string; currentWeek: number }) {
  const navigate = useNavigate();
  const [week, setWeek] = useState<number | string>(currentWeek);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const fork = trpc.worlds.fork.useMutation({
    onSuccess: (created) => {
      notifySuccess('World forked', `${created.name} starts at week ${created.current_week} with the same companies and players.`);
      void navigate(`/worlds/${created.id}/manage`);
    },
    onError: (failure) => setError(failure.message),
  });
  const defaultName = `${worldName} from week ${week === '' ? '?' : week}`.slice(0, 60);
  const submit = () => {
    const input = { id: worldId, week: week === '' ? Number.NaN : Number(week), name: name.trim() === '' ? defaultName : name };
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
        A new class world as this one was at the start of a past week: the same companies, players and history up to then. Your students continue in it (it
        appears in their worlds), and you run its clock and shocks on their own.
      </Text>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NumberInput
            clampBehavior="none"
            label="Start of week"
            value={week}
            onChange={setWeek}
            min={1}
            max={currentWeek}
            allowDecimal={false}
            data-testid="fork-week"
          />
          <TextInput
            label="Name"
            placeholder={defaultName}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            maxLength={60}
            data-testid="fork-name"
          />
        </SimpleGrid>
        {error && (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
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
