/**
 * The manage page's gradebook (docs/classroom.md, "How grades are computed"): students x
 * assignments, sortable by any column; a student's row opens the evidence of every checkpoint
 * they earned (the figures and week that earned it); the CSV in the columns Canvas and Moodle
 * import; and the weights of the world's final score. Every figure is the server's.
 */
import { Fragment, useState } from 'react';
import { Alert, Button, Group, NumberInput, Select, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconDownload } from '@tabler/icons-react';
import { scoreWeightsSchema, type GradebookView, type TeamWeighting } from '@marketcraft/shared';
import { FormAlert } from '../../components/FormAlert';
import { QueryState } from '../../components/QueryState';
import { SectionCard } from '../../components/SectionCard';
import { SortableTh } from '../../components/SortableTh';
import { TableScroll } from '../../components/TableScroll';
import { nextSort, sortRows, type SortState } from '../../lib/sortTable';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { trpc } from '../../trpc';
import { CheckpointEvidence } from '../assignments/CheckpointEvidence';

type Student = GradebookView['students'][number];

function WeightsForm({ worldId, weights }: { worldId: number; weights: GradebookView['weights'] }) {
  const [draft, setDraft] = useState<Record<'net_worth_rank' | 'profit' | 'checkpoints', number | string>>(weights);
  const [teamWeighting, setTeamWeighting] = useState<TeamWeighting>(weights.team_weighting);
  const [problem, setProblem] = useState<string | null>(null);
  const save = trpc.assignments.setWeights.useMutation({
    onSuccess: () => notifySuccess('Weights saved', 'The final scores use them now.'),
    onError: (error) => notifyFailure('Error', error, 'Could not save the weights'),
  });
  const fields = [
    ['net_worth_rank', 'Net worth rank (%)'],
    ['profit', 'Profit (%)'],
    ['checkpoints', 'Checkpoints (%)'],
  ] as const;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const checked = scoreWeightsSchema.safeParse({
          id: worldId,
          net_worth_rank: Number(draft.net_worth_rank),
          profit: Number(draft.profit),
          checkpoints: Number(draft.checkpoints),
          team_weighting: teamWeighting,
        });
        if (!checked.success) return setProblem(checked.error.issues[0]?.message ?? 'Check the weights');
        setProblem(null);
        save.mutate(checked.data);
      }}
    >
      <Title order={3} fz="md" mb="xs">
        Final score weights
      </Title>
      <Group align="flex-end" wrap="wrap" gap="xs">
        {fields.map(([key, label]) => (
          <NumberInput
            key={key}
            label={label}
            value={draft[key]}
            onChange={(value) => setDraft((old) => ({ ...old, [key]: value }))}
            min={0}
            max={100}
            allowDecimal={false}
            w={150}
          />
        ))}
        <Select
          label="A team's points to each member"
          data={[
            { value: 'equal', label: 'Equally' },
            { value: 'contribution', label: 'By contribution' },
          ]}
          value={teamWeighting}
          onChange={(value) => value && setTeamWeighting(value as TeamWeighting)}
          allowDeselect={false}
          w={210}
        />
        <Button type="submit" variant="light" loading={save.isPending} data-testid="save-weights">
          Save weights
        </Button>
      </Group>
      <FormAlert message={problem} mt={4} />
    </form>
  );
}

export function GradebookCard({ worldId }: { worldId: number }) {
  const book = trpc.assignments.gradebook.useQuery({ id: worldId });
  const [sort, setSort] = useState<SortState<string>>({ key: 'name', direction: 'ascending' });
  const [open, setOpen] = useState<number | null>(null);
  const onSort = (key: string) => setSort((current) => nextSort(current, key, key === 'name' ? 'ascending' : 'descending'));
  const valueOf = (student: Student, key: string): number | string => {
    if (key === 'name') return student.name;
    if (key === 'final') return student.final_score;
    if (key === 'total') return student.total_points;
    return student.assignments.find((entry) => `a${entry.assignment_id}` === key)?.points ?? 0;
  };
  return (
    <SectionCard title="Gradebook" data-testid="gradebook-card">
      <QueryState query={book}>
        {(data) => (
          <Stack gap="md">
            <Group justify="space-between" wrap="wrap">
              <Text size="sm" c="dimmed">
                Points earned by each assignment's due week; the final score is {data.weights.net_worth_rank}% net worth rank, {data.weights.profit}% profit and{' '}
                {data.weights.checkpoints}% checkpoints; a team's points go to each member{' '}
                {data.weights.team_weighting === 'equal' ? 'equally' : 'by their share of the team’s actions'}. Open a student to see the evidence.
              </Text>
              <Button
                component="a"
                href={`/api/worlds/${worldId}/gradebook.csv`}
                size="compact-sm"
                variant="default"
                leftSection={<IconDownload size={14} aria-hidden />}
                data-testid="gradebook-csv"
              >
                Gradebook (CSV for Canvas or Moodle)
              </Button>
            </Group>
            {data.students.length === 0 ? (
              <Alert color="blue">No students yet: share the join code.</Alert>
            ) : (
              <TableScroll minWidth={480 + 120 * data.assignments.length} label="Gradebook">
                <Table striped data-testid="gradebook">
                  <Table.Thead>
                    <Table.Tr>
                      <SortableTh column="name" sort={sort} onSort={onSort}>
                        Student
                      </SortableTh>
                      {data.assignments.map((assignment) => (
                        <SortableTh key={assignment.id} column={`a${assignment.id}`} sort={sort} onSort={onSort} align="right">
                          {assignment.title} ({assignment.points_possible})
                        </SortableTh>
                      ))}
                      <SortableTh column="total" sort={sort} onSort={onSort} align="right">
                        Points
                      </SortableTh>
                      <SortableTh column="final" sort={sort} onSort={onSort} align="right">
                        Final score
                      </SortableTh>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {sortRows(data.students, sort, valueOf, (student) => student.name).map((student) => (
                      <Fragment key={student.user_id}>
                        <Table.Tr data-testid={`gradebook-row-${student.user_id}`}>
                          <Table.Td>
                            <UnstyledButton onClick={() => setOpen(open === student.user_id ? null : student.user_id)} aria-expanded={open === student.user_id}>
                              <Group gap={4} wrap="nowrap">
                                {open === student.user_id ? <IconChevronDown size={14} aria-hidden /> : <IconChevronRight size={14} aria-hidden />}
                                <Stack gap={0}>
                                  <Text size="sm" fw={600}>
                                    {student.name}
                                  </Text>
                                  <Text size="xs" c="dimmed">
                                    {student.company_name}
                                  </Text>
                                </Stack>
                              </Group>
                            </UnstyledButton>
                          </Table.Td>
                          {student.assignments.map((entry) => (
                            <Table.Td key={entry.assignment_id} ta="right">
                              {entry.points}
                            </Table.Td>
                          ))}
                          <Table.Td ta="right">{student.total_points}</Table.Td>
                          <Table.Td ta="right" fw={700}>
                            {student.final_score}
                          </Table.Td>
                        </Table.Tr>
                        {open === student.user_id && (
                          <Table.Tr>
                            <Table.Td colSpan={data.assignments.length + 3}>
                              <Stack gap="sm" data-testid="gradebook-evidence">
                                <Text size="sm">
                                  Net worth rank {student.net_worth_rank_score} · profit {student.profit_score} · checkpoints {student.checkpoint_score} (each
                                  out of 100)
                                </Text>
                                {student.assignments.map((entry) => {
                                  const assignment = data.assignments.find((item) => item.id === entry.assignment_id)!;
                                  return (
                                    <Stack key={entry.assignment_id} gap={4}>
                                      <Text size="sm" fw={600}>
                                        {assignment.title}: {entry.points} / {assignment.points_possible}
                                      </Text>
                                      {entry.checkpoints.length === 0 ? (
                                        <Text size="sm" c="dimmed">
                                          Nothing earned yet.
                                        </Text>
                                      ) : (
                                        entry.checkpoints.map((checkpoint) => (
                                          <Stack key={checkpoint.checkpoint_id} gap={0} pl="sm">
                                            <Text size="xs" c="dimmed">
                                              {checkpoint.points} points · week {checkpoint.week}
                                            </Text>
                                            <CheckpointEvidence evidence={checkpoint.evidence} />
                                          </Stack>
                                        ))
                                      )}
                                    </Stack>
                                  );
                                })}
                              </Stack>
                            </Table.Td>
                          </Table.Tr>
                        )}
                      </Fragment>
                    ))}
                  </Table.Tbody>
                </Table>
              </TableScroll>
            )}
            <WeightsForm key={JSON.stringify(data.weights)} worldId={worldId} weights={data.weights} />
          </Stack>
        )}
      </QueryState>
    </SectionCard>
  );
}
