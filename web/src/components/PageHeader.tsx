import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';

/**
 * The header every sub-page starts with (spec section 2): a back button to the dashboard, the
 * page title and an optional subtitle and actions.
 */
export function PageHeader({
  title,
  subtitle,
  actions,
  backButton = true,
}: {
  title: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
  backButton?: boolean;
}) {
  return (
    <Stack gap="xs" mb="lg">
      {backButton && (
        <div>
          <Button component={Link} to="/" variant="subtle" size="compact-sm" leftSection={<IconArrowLeft size={16} aria-hidden />} px={4}>
            Back to Dashboard
          </Button>
        </div>
      )}
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <div>
          <Title order={1} fz={{ base: 24, sm: 30 }}>
            {title}
          </Title>
          {subtitle && (
            <Text c="dimmed" size="sm" mt={4}>
              {subtitle}
            </Text>
          )}
        </div>
        {actions && <Group gap="xs">{actions}</Group>}
      </Group>
    </Stack>
  );
}
