import { Link } from 'react-router-dom';
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconMapOff } from '@tabler/icons-react';
import { usePageMeta } from '../../hooks/usePageMeta';

export default function NotFoundPage() {
  usePageMeta('Page Not Found', 'This page does not exist.');
  return (
    <Center py="xl">
      <Stack align="center" gap="sm" maw={480} ta="center">
        <IconMapOff size={48} color="var(--mantine-color-dimmed)" aria-hidden />
        <Title order={1}>404 Page Not Found</Title>
        <Text c="dimmed">Did you forget to add the page to the router?</Text>
        <Button component={Link} to="/" mt="sm">
          Back to Dashboard
        </Button>
      </Stack>
    </Center>
  );
}
