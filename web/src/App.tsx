/**
 * The app root (spec section 2): providers, the toast area (always present), and the session
 * gate: a full-screen spinner while the session is checked, the sign-in screen without one, the
 * routes inside the authenticated layout with one.
 */
import { useState } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { Button, Center, MantineProvider, Stack, Text, createTheme } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { SignInPage } from './auth/SignInPage';
import { useSession } from './auth/session';
import { FullScreenLoader } from './components/FullScreenLoader';
import { createQueryClient } from './queryClient';
import { AppRoutes } from './router';
import { createTrpcClient, trpc } from './trpc';

const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
});

/** Toasts (spec section 9): one at a time, 5 s each. */
const TOAST_LIMIT = 1;
const TOAST_DURATION_MS = 5000;

function SessionGate() {
  const session = useSession();
  if (session.isPending) return <FullScreenLoader />;
  if (session.isError) {
    return (
      <Center h="100dvh" p="md">
        <Stack align="center" gap="sm">
          <Text fw={600}>Marketcraft cannot reach its server right now.</Text>
          <Button onClick={() => void session.refetch()}>Try again</Button>
        </Stack>
      </Center>
    );
  }
  if (!session.data.user) return <SignInPage />;
  return <AppRoutes />;
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(createTrpcClient);
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <Notifications position="top-right" limit={TOAST_LIMIT} autoClose={TOAST_DURATION_MS} zIndex={1000} />
      <trpc.Provider client={trpcClient} queryClient={queryClient}>
        <QueryClientProvider client={queryClient}>
          <BrowserRouter>
            <SessionGate />
          </BrowserRouter>
        </QueryClientProvider>
      </trpc.Provider>
    </MantineProvider>
  );
}
