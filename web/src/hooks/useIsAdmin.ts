import { trpc } from '../trpc';

const ADMIN_CHECK_STALE_MS = 5 * 60 * 1000;

/** Admin status from GET /api/admin/check (tRPC admin.check), cached 5 minutes, default false. */
export function useIsAdmin(): { isAdmin: boolean; isLoading: boolean } {
  const check = trpc.admin.check.useQuery(undefined, { staleTime: ADMIN_CHECK_STALE_MS, gcTime: ADMIN_CHECK_STALE_MS });
  return { isAdmin: check.data?.isAdmin ?? false, isLoading: check.isPending };
}
