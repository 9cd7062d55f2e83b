import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { App, preloadFirstScreen } from './App';
import { askSessionAtStart } from './auth/session';
import { queryUtils } from './pageReads';
import { createQueryClient } from './queryClient';
import { createTrpcClient } from './trpc';

const queryClient = createQueryClient();
const trpcClient = createTrpcClient();
const utils = queryUtils(queryClient, trpcClient);

// Before the first render: what shows first depends on the session, and its chunk and its reads can
// load meanwhile.
askSessionAtStart((answer) => preloadFirstScreen(answer, utils));

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// A transition: React builds the first screen in short tasks rather than one long one (a phone's
// main thread stays free; the page's own 'Loading...' from index.html shows meanwhile).
startTransition(() =>
  createRoot(root).render(
    <StrictMode>
      <App queryClient={queryClient} trpcClient={trpcClient} utils={utils} />
    </StrictMode>,
  ),
);
