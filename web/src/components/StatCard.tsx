/** One headline figure in a card: a small label, the value (the API's, formatted), an optional hint and icon. */
import type { ReactNode } from 'react';
import { Box, Card, Group, Text } from '@mantine/core';

export function StatCard({
  label,
  value,
  hint,
  icon,
  color,
  testId,
}: {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  /** Shown on the right (decorative; hidden on phones, where the value needs the room). */
  icon?: ReactNode;
  /** The value's colour (e.g. green for income). */
  color?: string;
  testId?: string;
}) {
  return (
    <Card withBorder padding="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div style={{ minWidth: 0 }}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {label}
          </Text>
          <Text fw={800} fz={{ base: 18, sm: 22 }} c={color} data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
            {value}
          </Text>
          {hint && (
            <Text size="xs" c="dimmed">
              {hint}
            </Text>
          )}
        </div>
        {icon && <Box visibleFrom="xs">{icon}</Box>}
      </Group>
    </Card>
  );
}
