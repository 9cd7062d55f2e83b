import { Paper, Text } from '@mantine/core';

/** The ad slot some pages have (spec section 2); a quiet placeholder until ads exist. */
export function AdSlot() {
  return (
    <Paper withBorder p="sm" radius="md" style={{ borderStyle: 'dashed' }} aria-label="Advertisement">
      <Text size="xs" c="dimmed" ta="center">
        Advertisement
      </Text>
    </Paper>
  );
}
