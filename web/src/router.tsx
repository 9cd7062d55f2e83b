/**
 * The routes (spec section 2). Every page is its own lazy chunk, loaded when first visited; the
 * layout (header, menus) stays while it loads.
 */
import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { AppLayout } from './layout/AppLayout';

const DashboardPage = lazy(() => import('./pages/dashboard/DashboardPage'));
const MyBuildingsPage = lazy(() => import('./pages/my-buildings/MyBuildingsPage'));
const BuildPage = lazy(() => import('./pages/build/BuildPage'));
const BuildingDetailPage = lazy(() => import('./pages/building-detail/BuildingDetailPage'));
const ResearchPage = lazy(() => import('./pages/research/ResearchPage'));
const MarketPage = lazy(() => import('./pages/market/MarketPage'));
const StocksPage = lazy(() => import('./pages/stocks/StocksPage'));
const PoliticsPage = lazy(() => import('./pages/politics/PoliticsPage'));
const LeaderboardPage = lazy(() => import('./pages/leaderboard/LeaderboardPage'));
const ProfilePage = lazy(() => import('./pages/profile/ProfilePage'));
const AboutPage = lazy(() => import('./pages/about/AboutPage'));
const LearningPage = lazy(() => import('./pages/learning/LearningPage'));
const CommunityPage = lazy(() => import('./pages/community/CommunityPage'));
const AdminPage = lazy(() => import('./pages/admin/AdminPage'));
const WarehousePage = lazy(() => import('./pages/warehouse/WarehousePage'));
const TransactionsPage = lazy(() => import('./pages/transactions/TransactionsPage'));
const WeekReportPage = lazy(() => import('./pages/reports/WeekReportPage'));
const WorldsPage = lazy(() => import('./pages/worlds/WorldsPage'));
const ManageWorldPage = lazy(() => import('./pages/worlds/ManageWorldPage'));
const AssignmentsPage = lazy(() => import('./pages/assignments/AssignmentsPage'));
const NotFoundPage = lazy(() => import('./pages/not-found/NotFoundPage'));

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        <Route index element={<DashboardPage />} />
        <Route path="my-buildings" element={<MyBuildingsPage />} />
        <Route path="build" element={<BuildPage />} />
        <Route path="buildings/:id" element={<BuildingDetailPage />} />
        <Route path="research" element={<ResearchPage />} />
        <Route path="market" element={<MarketPage />} />
        <Route path="warehouse" element={<WarehousePage />} />
        <Route path="transactions" element={<TransactionsPage />} />
        <Route path="reports" element={<WeekReportPage />} />
        <Route path="reports/:week" element={<WeekReportPage />} />
        <Route path="stocks" element={<StocksPage />} />
        <Route path="politics" element={<PoliticsPage />} />
        <Route path="leaderboard" element={<LeaderboardPage />} />
        <Route path="profile" element={<ProfilePage />} />
        <Route path="about" element={<AboutPage />} />
        <Route path="learning" element={<LearningPage />} />
        <Route path="community" element={<CommunityPage />} />
        <Route path="admin" element={<AdminPage />} />
        <Route path="worlds" element={<WorldsPage />} />
        <Route path="assignments" element={<AssignmentsPage />} />
        <Route path="worlds/:id/manage" element={<ManageWorldPage />} />
        <Route path="login" element={<Navigate to="/" replace />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
