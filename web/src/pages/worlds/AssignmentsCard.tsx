/**
 * The manage page's assignments (docs/classroom.md, "Assignments"): the world's assignments with
 * their checkpoints and a delete button, and the editor that adds one (title, due week, checkpoints
 * from the catalogue with their points and target or weeks). The request schema is the API's
 * (createAssignmentSchema): the form shows its messages before sending.
 */
import { useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Group, NumberInput, Select, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { CHECKPOINT_CATALOGUE, CHECKPOINT_KINDS, createAssignmentSchema, type CheckpointKind } from '@marketcraft/shared';
import { FormAlert } from '../../components/FormAlert';
import { QueryState } from '../../components/QueryState';
import { SectionCard } from '../../components/SectionCard';
import { TableScroll } from '../../components/TableScroll';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { trpc } from '../../trpc';

interface DraftCheckpoint {
  key: number;
  kind: CheckpointKind;
  points: number | string;
  target: number | string;
  weeks: number | string;
}

const KIND_OPTIONS = CHECKPOINT_KINDS.map((kind) => ({ value: kind, label: CHECKPOINT_CATALOGUE[kind].label }));
let nextKey = 1;
const blankCheckpoint = (kind: CheckpointKind = 'net_worth'): DraftCheckpoint => ({ key: nextKey++, kind, points: 10, target: '', weeks: '' });
const numberOrUndefined = (value: number | string) => (value === '' ? undefined : Number(value));

function AssignmentEditor({ worldId, currentWeek }: { worldId: number; currentWeek: number }) {
  const [title, setTitle] = useState('');
  const [dueWeek, setDueWeek] = useState<number | string>(currentWeek + 3);
  const [checkpoints, setCheckpoints] = useState<DraftCheckpoint[]>([blankCheckpoint()]);
  const [problem, setProblem] = useState<string | null>(null);
  const create = trpc.assignments.create.useMutation({
    onSuccess: (created) => {
      notifySuccess('Assignment added', `${created.title}: ${created.points_possible} points, due week ${created.due_week}.`);
      setTitle('');
      setCheckpoints([blankCheckpoint()]);
    },
    onError: (error) => notifyFailure('Error', error, 'Could not add the assignment'),
  });
  const change = (key: number, patch: Partial<DraftCheckpoint>) => setCheckpoints((rows) => rows.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  const submit = () => {
    const input = {
      id: worldId,
      title,
      due_week: Number(dueWeek),
      checkpoints: checkpoints.map((row) => ({
        kind: row.kind,
        points: Number(row.points),
        target: CHECKPOINT_CATALOGUE[row.kind].target ? numberOrUndefined(row.target) : undefined,
        weeks: CHECKPOINT_CATALOGUE[row.kind].weeks ? numberOrUndefined(row.weeks) : undefined,
      })),
    };
    const checked = createAssignmentSchema.safeParse(input);
    if (!checked.success) {
      setProblem(checked.error.issues[0]?.message ?? 'Check the assignment');
      return;
    }
    setProblem(null);
    create.mutate(checked.data);
  };
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="sm">
        <Title order={3} fz="md">
          New assignment
        </Title>
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label="Title"
            value={title}
            onChange={(event) => setTitle(event.currentTarget.value)}
            maxLength={100}
            style={{ flex: 1, minWidth: 200 }}
            data-testid="assignment-title"
          />
          <NumberInput label="Due week" value={dueWeek} onChange={setDueWeek} min={1} allowDecimal={false} w={120} data-testid="assignment-due-week" />
        </Group>
        {checkpoints.map((row, index) => {
          const entry = CHECKPOINT_CATALOGUE[row.kind];
          return (
            <Group key={row.key} align="flex-end" wrap="wrap" gap="xs" data-testid={`draft-checkpoint-${index}`}>
              <Select
                label={`Checkpoint ${index + 1}`}
                data={KIND_OPTIONS}
                value={row.kind}
                onChange={(value) => value && change(row.key, { kind: value as CheckpointKind, target: '', weeks: '' })}
                allowDeselect={false}
                style={{ flex: 1, minWidth: 220 }}
              />
              <NumberInput
                label="Points"
                value={row.points}
                onChange={(value) => change(row.key, { points: value })}
                min={1}
                max={100}
                allowDecimal={false}
                w={90}
              />
              {entry.target && (
                <NumberInput
                  label={entry.target.label}
                  value={row.target}
                  onChange={(value) => change(row.key, { target: value })}
                  min={entry.target.min}
                  max={entry.target.max}
                  allowDecimal={false}
                  thousandSeparator=","
                  w={170}
                />
              )}
              {entry.weeks && (
                <NumberInput
                  label={entry.weeks.label}
                  value={row.weeks}
                  onChange={(value) => change(row.key, { weeks: value })}
                  min={1}
                  max={52}
                  allowDecimal={false}
                  w={130}
                />
              )}
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={`Remove checkpoint ${index + 1}`}
                disabled={checkpoints.length === 1}
                onClick={() => setCheckpoints((rows) => rows.filter((other) => other.key !== row.key))}
              >
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Group>
          );
        })}
        <FormAlert message={problem} />
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setCheckpoints((rows) => [...rows, blankCheckpoint('chain')])}
            disabled={checkpoints.length >= 10}
          >
            Add a checkpoint
          </Button>
          <Button type="submit" loading={create.isPending} data-testid="create-assignment">
            Add assignment
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function AssignmentsCard({ worldId, currentWeek }: { worldId: number; currentWeek: number }) {
  const assignments = trpc.assignments.list.useQuery({ id: worldId });
  const remove = trpc.assignments.remove.useMutation({
    onSuccess: () => notifySuccess('Assignment deleted'),
    onError: (error) => notifyFailure('Error', error, 'Could not delete the assignment'),
  });
  return (
    <SectionCard title="Assignments" data-testid="assignments-card">
      <Stack gap="lg">
        <QueryState query={assignments} empty={<Alert color="blue">No assignments yet: add one below. The turn grades its checkpoints every week.</Alert>}>
          {(list) => (
            <TableScroll minWidth={560} label="Assignments of the world">
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Assignment</Table.Th>
                    <Table.Th>Due</Table.Th>
                    <Table.Th>Checkpoints</Table.Th>
                    <Table.Th ta="right">Points</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Delete</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.map((assignment) => (
                    <Table.Tr key={assignment.id}>
                      <Table.Td>{assignment.title}</Table.Td>
                      <Table.Td>
                        <Badge variant="light" color={assignment.due_week < currentWeek ? 'gray' : 'blue'}>
                          Week {assignment.due_week}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Stack gap={0}>
                          {assignment.checkpoints.map((checkpoint) => (
                            <Text key={checkpoint.id} size="sm" title={checkpoint.measures}>
                              {checkpoint.label}
                              {checkpoint.target !== null
                                ? ` (${checkpoint.kind === 'net_worth' ? `$${checkpoint.target.toLocaleString('en-US')}` : checkpoint.kind === 'efficiency' ? `${checkpoint.target}%` : checkpoint.target})`
                                : ''}
                              {checkpoint.weeks !== null ? ` (${checkpoint.weeks} weeks)` : ''} · {checkpoint.points} pts
                            </Text>
                          ))}
                        </Stack>
                      </Table.Td>
                      <Table.Td ta="right">{assignment.points_possible}</Table.Td>
                      <Table.Td>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Delete ${assignment.title}`}
                          loading={remove.isPending && remove.variables?.assignment_id === assignment.id}
                          onClick={() => {
                            if (window.confirm(`Delete "${assignment.title}" and what its checkpoints earned?`))
                              remove.mutate({ id: worldId, assignment_id: assignment.id });
                          }}
                        >
                          <IconTrash size={16} aria-hidden />
                        </ActionIcon>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </TableScroll>
          )}
        </QueryState>
        <AssignmentEditor worldId={worldId} currentWeek={currentWeek} />
      </Stack>
    </SectionCard>
  );
}
