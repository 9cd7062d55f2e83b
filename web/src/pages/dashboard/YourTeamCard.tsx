/**
 * The student's team in a class world with teams (docs/classroom.md, "Teams"): its members and
 * their roles (any member may label them), the team code a classmate types to join, and leaving
 * the team. Shown on the dashboard when the current world has a team size above 1.
 */
import { Button, Code, Group, Text } from '@mantine/core';
import { IconUsersGroup } from '@tabler/icons-react';
import { SectionCard } from '../../components/SectionCard';
import { TeamMembers } from '../../components/TeamMembers';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { trpc } from '../../trpc';

export function YourTeamCard() {
  const world = trpc.worlds.current.useQuery();
  const worldId = world.data?.id ?? 0;
  const hasTeams = world.data?.kind === 'private' && world.data.team_size > 1;
  const teams = trpc.teams.list.useQuery({ id: worldId }, { enabled: hasTeams });
  const update = trpc.teams.update.useMutation({
    onError: (error) => notifyFailure('Error', error, 'Could not change the role'),
  });
  const leave = trpc.teams.remove.useMutation({
    onSuccess: () => notifySuccess('You left your team', 'The company keeps running with your teammates. Join again from the Worlds page.'),
    onError: (error) => notifyFailure('Could not leave', error, 'Could not leave the team'),
  });
  const team = teams.data?.teams[0];
  if (!hasTeams || !team || !world.data) return null;
  return (
    <SectionCard title="Your team" icon={IconUsersGroup} headerMb="sm" data-testid="your-team">
      <Text size="sm" mb="sm">
        <b>{team.company_name}</b> · {team.members.length} of {world.data.team_size} members · every member can act for the company.
      </Text>
      <Group gap="xs" mb="md">
        <Text size="sm">Team code for a classmate:</Text>
        <Code fz="md" data-testid="your-team-code">
          {team.team_code}
        </Code>
        <Text size="xs" c="dimmed">
          (with the world&apos;s join code, on the Worlds page)
        </Text>
      </Group>
      <TeamMembers
        team={team}
        busy={update.isPending}
        onRole={(member, role) => update.mutate({ id: worldId, user_id: member.user_id, role })}
        actions={(member) =>
          member.is_you && (
            <Button
              size="compact-sm"
              variant="default"
              color="red"
              loading={leave.isPending}
              onClick={() => {
                if (window.confirm(`Leave ${team.company_name}? Your teammates keep running it.`)) leave.mutate({ id: worldId, user_id: member.user_id });
              }}
              data-testid="leave-team"
            >
              Leave team
            </Button>
          )
        }
      />
    </SectionCard>
  );
}
