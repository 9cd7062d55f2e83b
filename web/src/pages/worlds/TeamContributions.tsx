/**
 * One team's contribution log on the instructor's Teams panel (docs/classroom.md, "Contributions"):
 * each member's share of the team's actions as a bar, and the weeks as stacked bars (who acted how
 * much each week). Figures are the API's (GET /api/worlds/{id}/contributions); nothing is counted here.
 */
import { Group, Progress, Stack, Text, Tooltip } from '@mantine/core';
import type { ContributionsView } from '@marketcraft/shared';

type TeamContribution = ContributionsView['teams'][number];

/** One colour per member, in the team's order, the same in the share bars and the timeline. */
const MEMBER_COLORS = ['blue', 'grape', 'teal', 'orange', 'pink', 'lime', 'cyan', 'yellow'];

export function TeamContributions({ team }: { team: TeamContribution }) {
  const colorOf = new Map(team.members.map((member, index) => [member.user_id, MEMBER_COLORS[index % MEMBER_COLORS.length]!]));
  // A course system's name for students who launched from one, else the email.
  const labelOf = new Map(team.members.map((member) => [member.user_id, member.name ?? member.email]));
  if (team.actions === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="contributions-empty">
        No actions yet.
      </Text>
    );
  }
  return (
    <Stack gap="xs" data-testid="contributions">
      <Text size="sm" fw={500}>
        Contributions · {team.actions} {team.actions === 1 ? 'action' : 'actions'}
      </Text>
      {team.members.map((member) => (
        <Stack key={member.user_id} gap={2} data-testid="contribution">
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
              {member.name ?? member.email}
              {!member.is_member && ' (left the team)'}
            </Text>
            <Text size="xs" fw={600} style={{ whiteSpace: 'nowrap' }} data-testid="contribution-share">
              {member.share_percent}% · {member.actions}
              {member.refused > 0 && ` (+${member.refused} refused)`}
            </Text>
          </Group>
          <Progress
            value={member.share_percent}
            color={colorOf.get(member.user_id)}
            size="sm"
            aria-label={`${member.name ?? member.email}: ${member.share_percent}% of the team's actions`}
          />
        </Stack>
      ))}
      <Text size="xs" c="dimmed" mt={4}>
        Actions by week
      </Text>
      <Stack gap={4} component="ol" p={0} m={0} style={{ listStyle: 'none' }} aria-label={`Actions of ${team.company_name} by week`}>
        {team.timeline.map((point) => {
          const total = point.actions.reduce((sum, entry) => sum + entry.actions, 0);
          const peak = Math.max(...team.timeline.map((other) => other.actions.reduce((sum, entry) => sum + entry.actions, 0)));
          const summary = point.actions.map((entry) => `${labelOf.get(entry.user_id) ?? entry.user_id} ${entry.actions}`).join(', ');
          return (
            <Group key={point.week} component="li" gap="xs" wrap="nowrap" data-testid="contribution-week">
              <Text size="xs" w={56} style={{ flexShrink: 0 }}>
                Week {point.week}
              </Text>
              {/* Each section names itself (axe: a progressbar needs a name; a plain div may not carry aria-label). */}
              <Progress.Root size="md" style={{ flex: `0 1 ${(100 * total) / peak}%`, minWidth: 8 }} title={`Week ${point.week}: ${summary}`}>
                {point.actions.map((entry) => (
                  <Tooltip key={entry.user_id} label={`${labelOf.get(entry.user_id) ?? entry.user_id}: ${entry.actions}`}>
                    <Progress.Section
                      value={(100 * entry.actions) / total}
                      color={colorOf.get(entry.user_id)}
                      aria-label={`Week ${point.week}, ${labelOf.get(entry.user_id) ?? entry.user_id}: ${entry.actions} ${entry.actions === 1 ? 'action' : 'actions'}`}
                    />
                  </Tooltip>
                ))}
              </Progress.Root>
              <Text size="xs" c="dimmed">
                {total}
              </Text>
            </Group>
          );
        })}
      </Stack>
    </Stack>
  );
}
