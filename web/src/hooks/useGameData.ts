/**
 * The reads several screens share, with the polling the spec asks for (section 9): recent
 * transactions (news) every 30 s, company shares every 30 s, political events every 60 s.
 * Everything else is fetched once and refreshed by invalidation (after a mutation or a turn).
 */
import { isNotFound } from '../lib/errors';
import { trpc } from '../trpc';

const TRANSACTIONS_POLL_MS = 30_000;
const COMPANY_SHARES_POLL_MS = 30_000;
export const POLITICAL_EVENTS_POLL_MS = 60_000;

export function useCompany() {
  const query = trpc.company.get.useQuery();
  return { ...query, company: query.data ?? null, noCompany: isNotFound(query.error) };
}

export function useBuildings() {
  return trpc.buildings.list.useQuery();
}

export function useCities() {
  return trpc.catalog.cities.useQuery();
}

export function useRecentNews() {
  return trpc.news.recent.useQuery(undefined, { refetchInterval: TRANSACTIONS_POLL_MS });
}

/** The share record of one company (the stock page's selected one), polled: a page asks only for what it shows. */
export function useCompanyShares(companyId: number | null) {
  return trpc.stocks.companyShares.useQuery(
    { company_id: companyId ?? undefined, limit: 1 },
    { enabled: companyId !== null, refetchInterval: COMPANY_SHARES_POLL_MS },
  );
}
