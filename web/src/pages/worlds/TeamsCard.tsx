/**
 * The instructor's Teams panel (docs/classroom.md, "Teams"): the world's team size, every team with
 * its members, roles and team code, placing a student in a team by email, moving or removing a
 * member (the company they leave keeps running), and each team's contribution log.
 */
import { useState } from 'react';
import { Badge, Button, Code, Group, NumberInput, Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconUsersGroup } from '@tabler/icons-react';
import { assignTeamMemberSchema } from '@marketcraft/shared';
import { QueryState } from '../../components/QueryState';
import { SectionCard } from '../../components/SectionCard';
import { TeamMembers, memberLabel } from '../../components/TeamMembers';
import { TeamContributions } from './TeamContributions';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { trpc } from '../../trpc';

export function TeamsCard({ worldId }: { worldId: number }) {
  const world = trpc.worlds.get.useQuery({ id: worldId });
  const teams = trpc.teams.list.useQuery({ id: worldId });
  const contributions = trpc.teams.contributions.useQuery({ id: worldId });
  const [size, setSize] = useState<number | string | null>(null);
  const [email, setEmail] = useState('');
  const [target, setTarget] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const resize = trpc.worlds.update.useMutation({
    onSuccess: (next) => {
      notifySuccess('Team size saved', `Teams of this world have at most ${next.team_size} ${next.team_size === 1 ? 'member' : 'members'}.`);
      setSize(null);
    },
    onError: (error) => notifyFailure('Error', error, 'Could not change the team size'),
  });
  const assign = trpc.teams.assign.useMutation({
    onSuccess: () => {
      notifySuccess('Student placed');
      setEmail('');
    },
    onError: (error) => setFormError(error.message),
  });
  const move = trpc.teams.assign.useMutation({ onError: (error) => notifyFailure('Could not move', error, 'Could not move the student') });
  const update = trpc.teams.update.useMutation({ onError: (error) => notifyFailure('Error', error, 'Could not change the role') });
  const remove = trpc.teams.remove.useMutation({ onError: (error) => notifyFailure('Could not remove', error, 'Could not remove the member') });
  const teamSize = world.data?.team_size ?? 1;
  const ended = world.data?.status === 'ended';
  const options = (teams.data?.teams ?? [])
    .filter((team) => team.status === 'active')
    .map((team) => ({ value: String(team.company_id), label: team.company_name }));

  const place = () => {
    const input = { id: worldId, email, company_id: Number(target) };
    const parsed = assignTeamMemberSchema.safeParse(input);
    const problem = target === null ? 'Choose the team' : parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Check the form');
    setFormError(problem);
    if (!problem) assign.mutate(input);
  };

  return (
    <SectionCard title="Teams" icon={IconUsersGroup} headerMb="sm" data-testid="teams-card">
      <Text size="sm" c="dimmed" mb="md">
        Students join a company&apos;s team with the world&apos;s join code and its team code, or you place them here. Every member can act for the company.
      </Text>
      <Group align="flex-end" gap="sm" mb="md">
        <NumberInput
          clampBehavior="none"
          label="Team size (1-6)"
          value={size ?? teamSize}
          onChange={setSize}
          min={1}
          max={6}
          allowDecimal={false}
          w={160}
          disabled={ended}
          data-testid="team-size"
        />
        <Button
          variant="default"
          onClick={() => resize.mutate({ id: worldId, team_size: size === null || size === '' ? Number.NaN : Number(size) })}
          loading={resize.isPending}
          disabled={ended || size === null || Number(size) === teamSize}
          data-testid="save-team-size"
        >
          Save
        </Button>
      </Group>
      <QueryState query={teams} isEmpty={(data) => data.teams.length === 0} empty="No teams yet: the first student who joins starts one.">
        {(data) => (
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              {data.teams.map((team) => (
                <Paper key={team.company_id} withBorder p="md" data-testid="team">
                  <Group justify="space-between" mb="xs" gap="xs">
                    <Text fw={600} data-testid="team-name">
                      {team.company_name} {team.status === 'bankrupt' && <Badge color="red">bankrupt</Badge>}
                    </Text>
                    <Badge variant="light" color={team.members.length >= data.team_size ? 'gray' : 'blue'} data-testid="team-count">
                      {team.members.length} / {data.team_size}
                    </Badge>
                  </Group>
                  {team.team_code && (
                    <Text size="sm" mb="xs">
                      Team code <Code data-testid="team-code">{team.team_code}</Code>
                    </Text>
                  )}
                  <TeamMembers
                    team={team}
                    busy={update.isPending || ended}
                    onRole={(member, role) => update.mutate({ id: worldId, user_id: member.user_id, role })}
                    actions={(member) => (
                      <>
                        <Select
                          size="xs"
                          w={150}
                          placeholder="Move to..."
                          data={options.filter((option) => option.value !== String(team.company_id))}
                          value={null}
                          onChange={(value) => value && move.mutate({ id: worldId, email: member.email, company_id: Number(value) })}
                          disabled={ended || move.isPending || options.length < 2}
                          aria-label={`Move ${memberLabel(member)} to another team`}
                          data-testid="team-member-move"
                        />
                        <Button
                          size="compact-sm"
                          variant="default"
                          color="red"
                          disabled={ended}
                          loading={remove.isPending && remove.variables?.user_id === member.user_id}
                          onClick={() => {
                            if (window.confirm(`Remove ${memberLabel(member)} from ${team.company_name}? The company keeps running.`))
                              remove.mutate({ id: worldId, user_id: member.user_id });
                          }}
                          aria-label={`Remove ${memberLabel(member)} from ${team.company_name}`}
                          data-testid="team-member-remove"
                        >
                          Remove
                        </Button>
                      </>
                    )}
                  />
                  {contributions.data && (
                    <Stack mt="sm">
                      {contributions.data.teams
                        .filter((entry) => entry.company_id === team.company_id)
                        .map((entry) => (
                          <TeamContributions key={entry.company_id} team={entry} />
                        ))}
                    </Stack>
                  )}
                </Paper>
              ))}
            </SimpleGrid>
          </Stack>
        )}
      </QueryState>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          place();
        }}
      >
        <Group align="flex-end" gap="sm" mt="md" wrap="wrap">
          <TextInput
            label="Place a student (email)"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={formError}
            style={{ flex: '1 1 14rem' }}
            disabled={ended}
            data-testid="team-assign-email"
          />
          <Select
            label="In team"
            data={options}
            value={target}
            onChange={setTarget}
            style={{ flex: '1 1 12rem' }}
            disabled={ended}
            data-testid="team-assign-team"
          />
          <Button type="submit" loading={assign.isPending} disabled={ended} data-testid="team-assign">
            Place
          </Button>
        </Group>
      </form>
    </SectionCard>
  );
}
