/**
 * The typed tRPC client. Only the router's TYPE comes from the API package; no server code reaches
 * the bundle. Requests go to /api/trpc on the same origin and carry the session cookie.
 */
import { createTRPCReact, type CreateTRPCReact } from '@trpc/react-query';
import { httpBatchLink } from '@trpc/client';
import type { AppRouter, RouterOutputs } from '@marketcraft/api';

export const trpc: CreateTRPCReact<AppRouter, unknown> = createTRPCReact<AppRouter>();

export type { RouterOutputs };

export function createTrpcClient() {
  return trpc.createClient({
    links: [
      httpBatchLink({
        url: '/api/trpc',
        fetch: (input, init) => fetch(input, { ...init, credentials: 'same-origin' }),
      }),
    ],
  });
}
