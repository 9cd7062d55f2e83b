/**
 * The dashboard of the public world names the class worlds the player is in or runs, with a button
 * to play there (or a link to manage it). A new sign-in plays in the public world (the session
 * remembers the world, docs/worlds.md), so a student back for the next lesson otherwise lands on a
 * second company, with different cash, and may play a whole week there without noticing the
 * header's switcher.
 */
import { Link } from 'react-router-dom';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconSchool } from '@tabler/icons-react';
import { trpc } from '../../trpc';
import { useSwitchWorld } from '../../hooks/useSwitchWorld';

const TEACHING_ROLES = new Set(['instructor', 'co_instructor']);

export function OtherWorldsNotice() {
  const current = trpc.worlds.current.useQuery();
  const worlds = trpc.worlds.list.useQuery();
  const switchWorld = useSwitchWorld();
  if (current.data?.kind !== 'public') return null;
  // Running class worlds only: an ended one is read on /worlds.
  const classes = (worlds.data ?? []).filter(
    (world) => world.kind === 'private' && world.status !== 'ended' && (world.joined || TEACHING_ROLES.has(world.role ?? '')),
  );
  if (classes.length === 0) return null;
  const teachesAll = classes.every((world) => TEACHING_ROLES.has(world.role ?? ''));
  return (
    <Alert
      color="indigo"
      variant="light"
      icon={<IconSchool aria-hidden />}
      title={teachesAll ? 'Your class worlds' : 'You are in the public world'}
      data-testid="other-worlds"
    >
      <Text size="sm" mb="xs">
        {teachesAll
          ? 'This dashboard is your company in the public world. Your classes run in their own worlds:'
          : 'This is your company in the public world. Your class plays in its own world, with its own company and cash:'}
      </Text>
      <Stack gap={6}>
        {classes.map((world) => (
          <Group key={world.id} gap="xs" wrap="wrap">
            <Text size="sm" fw={600}>
              {world.name}
            </Text>
            <Text size="sm" c="dimmed">
              week {world.current_week}
              {world.status === 'paused' ? ' (paused)' : ''}
            </Text>
            {world.joined && (
              <Button
                size="compact-sm"
                onClick={() => switchWorld.mutate({ world_id: world.id })}
                loading={switchWorld.isPending && switchWorld.variables?.world_id === world.id}
                disabled={switchWorld.isPending}
              >
                Play in {world.name}
              </Button>
            )}
            {TEACHING_ROLES.has(world.role ?? '') && (
              <Button size="compact-sm" variant="default" component={Link} to={`/worlds/${world.id}/manage`}>
                Manage {world.name}
              </Button>
            )}
          </Group>
        ))}
      </Stack>
    </Alert>
  );
}
