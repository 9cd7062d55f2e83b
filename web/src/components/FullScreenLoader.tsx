import { Center, Loader, Stack, Text } from '@mantine/core';

/** Full-screen spinner with 'Loading...' (spec section 2, app root). */
export function FullScreenLoader({ label = 'Loading...' }: { label?: string }) {
  return (
    <Center h="100dvh" role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader size="lg" />
        <Text c="dimmed">{label}</Text>
      </Stack>
    </Center>
  );
}

/** The spinner inside the layout while a page chunk or a page's data loads. */
export function PageLoader({ label = 'Loading...' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed" size="sm">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}
