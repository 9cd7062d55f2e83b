/**
 * React Query defaults (spec section 9): data never goes stale by itself, no refetch on window
 * focus, no interval refetch unless a query asks for it, no retries for queries or mutations.
 * A query answered 401 means the session ended elsewhere: the session is re-checked, which shows
 * the sign-in screen. After every successful mutation, the answers it made stale are refetched
 * (lib/refreshes.ts says which).
 */
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { SESSION_QUERY_KEY } from './auth/session';
import { isUnauthorized } from './lib/errors';
import { mutationPathOfKey, queryKeyOfScope, scopesRefreshedBy } from './lib/refreshes';

export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: { retry: false },
    },
    queryCache: new QueryCache({
      onError: (error) => {
        if (isUnauthorized(error)) void client.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
      },
    }),
    mutationCache: new MutationCache({
      onSuccess: (_data, _variables, _context, mutation) => {
        for (const scope of scopesRefreshedBy(mutationPathOfKey(mutation.options.mutationKey))) {
          void client.invalidateQueries({ queryKey: queryKeyOfScope(scope) });
        }
      },
      onError: (error) => {
        if (isUnauthorized(error)) void client.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
      },
    }),
  });
  return client;
}
