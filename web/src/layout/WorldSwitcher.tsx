/**
 * The header's world switcher (docs/worlds.md): which world this session plays in, and the other
 * worlds the player is in. Switching reloads every figure for the chosen world.
 */
import { useNavigate } from 'react-router-dom';
import { Select } from '@mantine/core';
import { IconWorld } from '@tabler/icons-react';
import { trpc } from '../trpc';
import { useSwitchWorld } from '../hooks/useSwitchWorld';

const ALL_WORLDS = 'all';

/** In the header from tablets up; on phones, in the side menu (the header has no room for it there). */
export function WorldSwitcher({ fullWidth = false }: { fullWidth?: boolean }) {
  const navigate = useNavigate();
  const current = trpc.worlds.current.useQuery();
  const worlds = trpc.worlds.list.useQuery();
  const switchWorld = useSwitchWorld();
  const mine = (worlds.data ?? []).filter((world) => world.kind === 'public' || world.joined || world.role === 'instructor' || world.role === 'co_instructor');
  const data = [
    ...mine.map((world) => ({ value: String(world.id), label: world.status === 'ended' ? `${world.name} (ended)` : world.name })),
    { value: ALL_WORLDS, label: 'All worlds…' },
  ];
  return (
    <Select
      aria-label="Current world"
      data-testid="world-switcher"
      size="xs"
      w={fullWidth ? '100%' : 180}
      leftSection={<IconWorld size={14} aria-hidden />}
      data={data}
      value={current.data ? String(current.data.id) : null}
      placeholder={current.isPending ? 'Loading…' : 'World'}
      allowDeselect={false}
      disabled={switchWorld.isPending}
      comboboxProps={{ withinPortal: true }}
      onChange={(value) => {
        if (!value) return;
        if (value === ALL_WORLDS) void navigate('/worlds');
        else if (Number(value) !== current.data?.id) switchWorld.mutate({ world_id: Number(value) });
      }}
    />
  );
}
