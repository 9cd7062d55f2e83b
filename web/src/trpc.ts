/**
 * The typed tRPC client. Only the router's TYPE comes from the API package; no server code reaches
 * the bundle. Requests go to /api/trpc on the same origin and carry the session cookie.
 */
import { createTRPCReact, type CreateTRPCReact } from '@trpc/react-query';
import { httpBatchLink } from '@trpc/client';
import type { AppRouter, RouterOutputs } from '@marketcraft/api';
import { MAX_TRPC_BATCH_CALLS } from '@marketcraft/shared';

export const trpc: CreateTRPCReact<AppRouter, unknown> = createTRPCReact<AppRouter>();

export type { RouterOutputs };

export function createTrpcClient() {
  return trpc.createClient({
    links: [
      httpBatchLink({
        url: '/api/trpc',
        // The server refuses bigger batches (400).
        maxItems: MAX_TRPC_BATCH_CALLS,
        fetch: (input, init) => fetch(input, { ...init, credentials: 'same-origin' }),
      }),
    ],
  });
}
