/**
 * The app root (spec section 2): providers, the toast area (always present), and the session
 * gate: a full-screen spinner while the session is checked, the sign-in screen without one, the
 * routes inside the authenticated layout with one.
 */
import { Suspense, useDeferredValue, useEffect } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Button, Center, MantineProvider, Stack, Text, localStorageColorSchemeManager } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { useMediaQuery } from '@mantine/hooks';
import { useSession, type SessionAnswer } from './auth/session';
import { FullScreenLoader } from './components/FullScreenLoader';
import { lazyChunk } from './lib/lazyChunk';
import type { QueryUtils } from './pageReads';
import { AppRoutes, preloadPage } from './router';
import { trpc, type createTrpcClient } from './trpc';
import classes from './app.module.css';
import { cssVariablesResolver, theme } from './theme';

/** Toasts (spec section 9): one at a time, 5 s each. */
const TOAST_LIMIT = 1;
const TOAST_DURATION_MS = 5000;

/**
 * Light, dark or the system's scheme, remembered in this browser (the key index.html's inline
 * script reads before the first paint, so a dark page never flashes light).
 */
const COLOR_SCHEME_STORAGE_KEY = 'marketcraft-color-scheme';
const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_STORAGE_KEY });

/**
 * Its own chunk, fetched only without a session: its forms check input with the API's zod schemas,
 * and zod (~24 kB gzip) would otherwise be part of every signed-in player's first load.
 */
const signInPage = lazyChunk(() => import('./auth/SignInPage').then((module) => ({ default: module.SignInPage })));
const SignInPage = signInPage.Component;

/**
 * Starts loading what shows first for this session answer: the page at the address (its chunk and
 * its first reads), or the sign-in page.
 */
export function preloadFirstScreen(answer: SessionAnswer, utils: QueryUtils): void {
  if (answer.user) preloadPage(window.location, utils);
  else void signInPage.preload().catch(() => undefined); // a failed chunk shows when the page renders
}

function SessionGate({ utils }: { utils: QueryUtils }) {
  const session = useSession();
  const user = session.data?.user ?? null;
  // With a player, the layout and the page are mounted as a deferred render, which React splits into
  // short tasks (a phone's main thread stays free), under the spinner; signing out shows at once.
  const shownUser = useDeferredValue(user);
  const signedIn = user !== null;
  // Signing in: the page at the address starts loading with its reads while the layout mounts.
  useEffect(() => {
    if (signedIn) preloadPage(window.location, utils);
  }, [signedIn, utils]);
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
  if (!user) {
    return (
      <Suspense fallback={<FullScreenLoader />}>
        <SignInPage />
      </Suspense>
    );
  }
  if (!shownUser) return <FullScreenLoader />;
  return <AppRoutes />;
}

/** The query client and the tRPC client are made before the app (main.tsx): the first reads start before React renders. */
export function App({ queryClient, trpcClient, utils }: { queryClient: QueryClient; trpcClient: ReturnType<typeof createTrpcClient>; utils: QueryUtils }) {
  // Desktop: bottom right, clear of the header and of the tab bar under it (a toast at the top
  // right covered the tab bar's last tabs for 5 s). Phones: at the top, below the header (the
  // bottom holds a dialog's buttons and the thumb).
  const desktop = useMediaQuery('(min-width: 48em)', undefined, { getInitialValueInEffect: false });
  const toastPosition = desktop ? 'bottom-right' : 'top-right';
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto" colorSchemeManager={colorSchemeManager}>
      <trpc.Provider client={trpcClient} queryClient={queryClient}>
        <QueryClientProvider client={queryClient}>
          <BrowserRouter>
            {/* Inside the router: a toast may link to a page ('See the week's results'). */}
            <Notifications position={toastPosition} limit={TOAST_LIMIT} autoClose={TOAST_DURATION_MS} zIndex={1000} classNames={{ root: classes.toasts }} />
            <SessionGate utils={utils} />
          </BrowserRouter>
        </QueryClientProvider>
      </trpc.Provider>
    </MantineProvider>
  );
}
