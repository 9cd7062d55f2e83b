/**
 * One team's members (docs/classroom.md, "Teams"), as the instructor's Teams panel and a student's
 * team card both show them: each member's name (a course system's) or email, when they joined,
 * their role label (a select the instructor and teammates may change) and the action the viewer
 * may take (remove, move, leave).
 * The API decides who may do what; this only lays it out.
 */
import type { ReactNode } from 'react';
import { Badge, Group, Select, Stack, Text } from '@mantine/core';
import { TEAM_ROLES, type TeamRole, type TeamView } from '@marketcraft/shared';

const TEAM_ROLE_LABELS: Record<TeamRole, string> = { ceo: 'CEO', operations: 'Operations', finance: 'Finance', sales: 'Sales' };
const ROLE_OPTIONS = [{ value: 'none', label: 'No role' }, ...TEAM_ROLES.map((role) => ({ value: role, label: TEAM_ROLE_LABELS[role] }))];

export type TeamMember = TeamView['members'][number];

/** How a member is named: the course system's name for students who launched from one, else their email. */
export function memberLabel(member: TeamMember): string {
  return member.name ?? member.email;
}

export function TeamMembers({
  team,
  onRole,
  busy,
  actions,
}: {
  team: TeamView;
  /** Changes a member's role (null: none); absent: roles are shown, not edited. */
  onRole?: (member: TeamMember, role: TeamRole | null) => void;
  busy?: boolean;
  /** What the viewer may do with a member (buttons), beside the role. */
  actions?: (member: TeamMember) => ReactNode;
}) {
  if (team.members.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="team-no-members">
        Nobody plays for this company now: it keeps running as it is. A student can join with its team code.
      </Text>
    );
  }
  return (
    <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={`Members of ${team.company_name}`}>
      {team.members.map((member) => (
        <Group key={member.user_id} component="li" justify="space-between" gap="xs" wrap="wrap" data-testid="team-member">
          <Stack gap={0} style={{ minWidth: 0, flex: '1 1 12rem' }}>
            <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
              {memberLabel(member)}{' '}
              {member.is_you && (
                <Badge size="xs" variant="light">
                  you
                </Badge>
              )}
            </Text>
            <Text size="xs" c="dimmed">
              Joined in week {member.joined_week}
              {member.name !== null && ' · from the course system'}
            </Text>
          </Stack>
          <Group gap="xs" wrap="wrap">
            {onRole ? (
              <Select
                size="xs"
                w={140}
                data={ROLE_OPTIONS}
                value={member.role ?? 'none'}
                onChange={(value) => onRole(member, value === null || value === 'none' ? null : (value as TeamRole))}
                allowDeselect={false}
                disabled={busy}
                aria-label={`Role of ${memberLabel(member)}`}
                data-testid="team-member-role"
              />
            ) : (
              member.role && <Badge variant="light">{TEAM_ROLE_LABELS[member.role]}</Badge>
            )}
            {actions?.(member)}
          </Group>
        </Group>
      ))}
    </Stack>
  );
}
