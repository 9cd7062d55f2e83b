/**
 * /assignments (docs/classroom.md, "Assignments"): a student's assignments in the world they play,
 * each checkpoint with its status, what it measures and, once earned, the evidence (the figures and
 * week that earned it); the question checkpoint is answered here, once, and graded by the server.
 */
import { useState } from 'react';
import { Alert, Badge, Button, Card, Group, Radio, Stack, Text, Title } from '@mantine/core';
import type { MyAssignmentView, MyCheckpointView, ProfitTermName } from '@marketcraft/shared';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { usePageMeta } from '../../hooks/usePageMeta';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { trpc } from '../../trpc';
import { CheckpointEvidence } from './CheckpointEvidence';

const STATUS: Record<MyCheckpointView['status'], { label: string; color: string }> = {
  earned: { label: 'Earned', color: 'green' },
  wrong: { label: 'Answered wrongly', color: 'red' },
  open: { label: 'Not yet', color: 'blue' },
  missed: { label: 'Missed', color: 'gray' },
};

function Question({ assignmentId, checkpoint }: { assignmentId: number; checkpoint: MyCheckpointView }) {
  const [choice, setChoice] = useState<string | null>(null);
  const answer = trpc.assignments.answer.useMutation({
    onSuccess: (graded) =>
      graded.status === 'earned'
        ? notifySuccess('Right answer', `${graded.points_earned} points earned.`)
        : notifySuccess('Answer recorded', 'Not the term that moved your profit most: see the figures below.'),
    onError: (error) => notifyFailure('Error', error, 'Could not send the answer'),
  });
  const question = checkpoint.question;
  if (!question) {
    return checkpoint.status === 'open' ? (
      <Text size="sm" c="dimmed">
        The question appears after a week in which at least two terms moved your profit (sales and costs).
      </Text>
    ) : null;
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (choice) answer.mutate({ assignment_id: assignmentId, checkpoint_id: checkpoint.id, week: question.week, answer: choice as ProfitTermName });
      }}
    >
      <Radio.Group label={question.prompt} description="One answer: it is graded at once." value={choice} onChange={setChoice}>
        <Stack gap={6} mt="xs">
          {question.options.map((option) => (
            <Radio key={option.name} value={option.name} label={option.label} />
          ))}
        </Stack>
      </Radio.Group>
      <Button type="submit" mt="sm" disabled={!choice} loading={answer.isPending} data-testid={`answer-${checkpoint.id}`}>
        Send answer
      </Button>
    </form>
  );
}

function AssignmentCard({ assignment }: { assignment: MyAssignmentView }) {
  return (
    <Card withBorder padding="lg" data-testid={`assignment-${assignment.id}`}>
      <Group justify="space-between" mb="xs" wrap="wrap">
        <Title order={2} fz="lg">
          {assignment.title}
        </Title>
        <Group gap="xs">
          <Badge color={assignment.status === 'open' ? 'blue' : 'gray'}>{assignment.status === 'open' ? `Due week ${assignment.due_week}` : 'Closed'}</Badge>
          <Badge variant="light" data-testid="assignment-points">
            {assignment.points_earned} / {assignment.points_possible} points
          </Badge>
        </Group>
      </Group>
      <Stack gap="md">
        {assignment.checkpoints.map((checkpoint) => (
          <Stack key={checkpoint.id} gap={4} data-testid={`checkpoint-${checkpoint.kind}`}>
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Text fw={600}>{checkpoint.label}</Text>
              <Group gap="xs">
                <Badge color={STATUS[checkpoint.status].color}>{STATUS[checkpoint.status].label}</Badge>
                <Text size="sm">
                  {checkpoint.points_earned} / {checkpoint.points} points
                </Text>
              </Group>
            </Group>
            <Text size="sm" c="dimmed">
              {checkpoint.measures}
            </Text>
            {checkpoint.evidence && <CheckpointEvidence evidence={checkpoint.evidence} />}
            {checkpoint.kind === 'profit_question' && <Question assignmentId={assignment.id} checkpoint={checkpoint} />}
          </Stack>
        ))}
      </Stack>
    </Card>
  );
}

export default function AssignmentsPage() {
  usePageMeta('Assignments');
  const assignments = trpc.assignments.mine.useQuery();
  return (
    <>
      <PageHeader title="Assignments" subtitle="What your instructor grades in this world, and what you have earned so far." />
      <QueryState
        query={assignments}
        empty={<Alert color="blue">No assignments in this world yet. In a class world, your instructor's assignments show here.</Alert>}
      >
        {(list) => (
          <Stack gap="lg">
            {list.map((assignment) => (
              <AssignmentCard key={assignment.id} assignment={assignment} />
            ))}
          </Stack>
        )}
      </QueryState>
    </>
  );
}
