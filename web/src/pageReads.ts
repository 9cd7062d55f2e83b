/**
 * The first reads of the layout and of a page, asked as soon as the session answer says a player
 * is signed in: beside the page's chunk, not after it has loaded and rendered. On a slow phone the
 * dashboard's reads went out a round trip after its chunk (and the building page's three reads one
 * after the other after that): the largest paint waited for them (docs/benchmarks.md). The page's
 * hooks then find the answers in React Query's cache under the same keys and ask nothing again.
 *
 * Each list mirrors what its page reads before it shows (a read missing here is only asked later,
 * by the page itself, as before).
 */
import { createTRPCQueryUtils } from '@trpc/react-query';
import type { QueryClient } from '@tanstack/react-query';
import type { AppRouter } from '@marketcraft/api';
import { MOVERS_PANEL_SIZE } from '@marketcraft/shared';
import type { createTrpcClient } from './trpc';

export type QueryUtils = ReturnType<typeof createTRPCQueryUtils<AppRouter>>;

/** What a page's reads are told: its address's parameters (`:id`, `:week`) and its search parameters. */
interface PageAddress {
  params: Readonly<Record<string, string | undefined>>;
  search: URLSearchParams;
}

export type PageReads = (utils: QueryUtils, address: PageAddress) => void;

export function queryUtils(queryClient: QueryClient, client: ReturnType<typeof createTrpcClient>): QueryUtils {
  return createTRPCQueryUtils<AppRouter>({ queryClient, client });
}

/** A positive whole number from the address, or null. */
function idOf(text: string | null | undefined): number | null {
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : null;
}

/** The header's (week, countdown, cash) and the tab bar's (admin links). */
export const layoutReads: PageReads = (utils) => {
  void utils.world.state.prefetch();
  void utils.company.get.prefetch();
  void utils.admin.check.prefetch();
};

/** DashboardPage's `useDashboardReads`, which the dashboard waits for before it shows. */
export const dashboardReads: PageReads = (utils) => {
  void utils.buildings.list.prefetch();
  void utils.catalog.cities.prefetch();
  void utils.news.recent.prefetch();
  void utils.stocks.overview.prefetch({ limit: 1 });
  void utils.stocks.prices.prefetch({ limit: MOVERS_PANEL_SIZE });
  void utils.warehouse.holdings.prefetch();
  void utils.company.financialHistory.prefetch();
  void utils.reports.list.prefetch();
  void utils.worlds.current.prefetch();
  void utils.worlds.list.prefetch();
  void utils.contracts.list.prefetch({ direction: 'incoming', status: 'open' });
};

/**
 * The building, then (a factory's, a farm's) its type's recipes: the page shows once both are in;
 * the overview tab's research upgrades beside them.
 */
export const buildingReads: PageReads = (utils, { params }) => {
  const id = idOf(params.id);
  if (id === null) return;
  void utils.research.upgrades.prefetch();
  void utils.buildings.get
    .fetch({ id })
    .then((building) => (building.is_store ? utils.stores.products.prefetch({ id }) : utils.catalog.recipes.prefetch({ building_type: building.type })))
    .catch(() => undefined); // the page asks again and shows the error
};

/** The list of weeks, and the week asked for (`/reports` opens the latest, which the list names). */
export const weekReportReads: PageReads = (utils, { params }) => {
  const week = idOf(params.week);
  const weeks = utils.reports.list.fetch();
  if (week !== null) {
    void utils.reports.get.prefetch({ week });
    weeks.catch(() => undefined); // the page asks again and shows the error
  } else
    weeks
      .then((list) => {
        const latest = list.at(-1);
        if (latest) return utils.reports.get.prefetch({ week: latest.week });
      })
      .catch(() => undefined); // the page asks again and shows the error
};
