/**
 * A checkpoint's evidence as the server stored it when earned: its sentence and the week's figures
 * (the student's Assignments page and the instructor's gradebook show the same).
 */
import { List, Stack, Text } from '@mantine/core';
import type { GradebookView } from '@marketcraft/shared';
import { formatMoney } from '../../lib/format';

type Evidence = GradebookView['students'][number]['assignments'][number]['checkpoints'][number]['evidence'];

function figureText(value: number, unit: string): string {
  if (unit === 'dollars') return formatMoney(value);
  if (unit === 'percent') return `${value}%`;
  return value.toLocaleString('en-US');
}

export function CheckpointEvidence({ evidence }: { evidence: Evidence }) {
  return (
    <Stack gap={2}>
      <Text size="sm">{evidence.summary}</Text>
      {evidence.figures.length > 0 && (
        <List size="sm" spacing={0}>
          {evidence.figures.map((figure) => (
            <List.Item key={figure.label}>
              {figure.label}: <b>{figureText(figure.value, figure.unit)}</b>
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}
