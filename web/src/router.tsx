/**
 * The routes (spec section 2). Every page is its own lazy chunk, loaded when first visited; the
 * layout (header, menus) stays while it loads.
 */
import { Navigate, Route, Routes, matchPath } from 'react-router-dom';
import { AppLayout } from './layout/AppLayout';
import { lazyChunk, type LazyChunk } from './lib/lazyChunk';
import { buildingReads, dashboardReads, layoutReads, weekReportReads, type PageReads, type QueryUtils } from './pageReads';

/** A page's chunk. */
type PageModule = () => Promise<{ default: React.ComponentType }>;

const dashboard: PageModule = () => import('./pages/dashboard/DashboardPage');
const weekReport: PageModule = () => import('./pages/reports/WeekReportPage');
const notFound: PageModule = () => import('./pages/not-found/NotFoundPage');

/**
 * Each address inside the layout, the chunk of its page ('' is `/`) and, for the pages a player
 * often opens first, the reads it makes before it shows (asked beside the chunk: pageReads.ts).
 */
const PAGES: Array<[path: string, load: PageModule, reads?: PageReads]> = [
  ['', dashboard, dashboardReads],
  ['my-buildings', () => import('./pages/my-buildings/MyBuildingsPage')],
  ['build', () => import('./pages/build/BuildPage')],
  ['buildings/:id', () => import('./pages/building-detail/BuildingDetailPage'), buildingReads],
  ['research', () => import('./pages/research/ResearchPage')],
  ['market', () => import('./pages/market/MarketPage')],
  ['warehouse', () => import('./pages/warehouse/WarehousePage')],
  ['transactions', () => import('./pages/transactions/TransactionsPage')],
  ['reports', weekReport, weekReportReads],
  ['reports/:week', weekReport, weekReportReads],
  ['stocks', () => import('./pages/stocks/StocksPage')],
  ['politics', () => import('./pages/politics/PoliticsPage')],
  ['leaderboard', () => import('./pages/leaderboard/LeaderboardPage')],
  ['profile', () => import('./pages/profile/ProfilePage')],
  ['about', () => import('./pages/about/AboutPage')],
  ['learning', () => import('./pages/learning/LearningPage')],
  ['community', () => import('./pages/community/CommunityPage')],
  ['admin', () => import('./pages/admin/AdminPage')],
  ['worlds', () => import('./pages/worlds/WorldsPage')],
  ['worlds/:id/manage', () => import('./pages/worlds/ManageWorldPage')],
  ['assignments', () => import('./pages/assignments/AssignmentsPage')],
];

/** One lazy component per chunk (the week results' two addresses share theirs). */
const lazyPages = new Map<PageModule, LazyChunk<React.ComponentType>>();
const pageOf = (load: PageModule) => lazyPages.get(load) ?? lazyPages.set(load, lazyChunk(load)).get(load)!;
const NotFoundPage = pageOf(notFound).Component;

/**
 * Starts loading the chunk of the page at the address as soon as the session is known to have a
 * player, and asks the layout's and the page's first reads: fetched while the chunk loads and the
 * layout first renders rather than after, round trips sooner on a slow phone network (the page then
 * renders with the layout, or as soon as its chunk is here).
 */
export function preloadPage(location: { pathname: string; search: string }, utils: QueryUtils): void {
  let params: PageAddressParams = {};
  const found = PAGES.find(([path]) => {
    const match = matchPath(`/${path}`, location.pathname);
    if (match) params = match.params;
    return match !== null;
  });
  void pageOf(found ? found[1] : notFound)
    .preload()
    .catch(() => undefined); // a failed chunk shows when the page renders (PageErrorBoundary)
  layoutReads(utils, { params, search: new URLSearchParams(location.search) });
  found?.[2]?.(utils, { params, search: new URLSearchParams(location.search) });
}

type PageAddressParams = Readonly<Record<string, string | undefined>>;

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        {PAGES.map(([path, load]) => {
          const Page = pageOf(load).Component;
          return path === '' ? <Route key="index" index element={<Page />} /> : <Route key={path} path={path} element={<Page />} />;
        })}
        <Route path="login" element={<Navigate to="/" replace />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
