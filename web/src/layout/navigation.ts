/** The links of the side menu and the tab bar (spec section 2, main layout). */
import type { ComponentType } from 'react';
import {
  IconBook,
  IconClipboardCheck,
  IconBuildingWarehouse,
  IconReceipt2,
  IconReportAnalytics,
  IconBuildingFactory2,
  IconBuildingSkyscraper,
  IconChartLine,
  IconFlask,
  IconGavel,
  IconHome,
  IconInfoCircle,
  IconShieldLock,
  IconShoppingCart,
  IconTrophy,
  IconUser,
  IconUsers,
  IconWorld,
  type IconProps,
} from '@tabler/icons-react';

export interface NavItem {
  to: string;
  label: string;
  icon: ComponentType<IconProps>;
  adminOnly?: boolean;
}

/**
 * Side menu, in the spec's order ('My Buildings' and the building groups come after these), plus
 * the Warehouse and the Transactions (issue 10).
 */
export const SIDE_MENU_LINKS: NavItem[] = [
  { to: '/', label: 'Dashboard', icon: IconHome },
  { to: '/build', label: 'Build', icon: IconBuildingFactory2 },
  { to: '/market', label: 'Market', icon: IconShoppingCart },
  { to: '/warehouse', label: 'Warehouse', icon: IconBuildingWarehouse },
  { to: '/stocks', label: 'Stock Exchange', icon: IconChartLine },
  { to: '/transactions', label: 'Transactions', icon: IconReceipt2 },
  { to: '/reports', label: 'Week Results', icon: IconReportAnalytics },
  { to: '/politics', label: 'Politics', icon: IconGavel },
  { to: '/leaderboard', label: 'Leaderboard', icon: IconTrophy },
  { to: '/worlds', label: 'Worlds', icon: IconWorld },
  { to: '/assignments', label: 'Assignments', icon: IconClipboardCheck },
  { to: '/admin', label: 'Admin Panel', icon: IconShieldLock, adminOnly: true },
];

/** Tab bar, in the spec's order. */
export const TAB_LINKS: NavItem[] = [
  { to: '/', label: 'Dashboard', icon: IconHome },
  { to: '/my-buildings', label: 'My Buildings', icon: IconBuildingSkyscraper },
  { to: '/build', label: 'Build New', icon: IconBuildingFactory2 },
  { to: '/research', label: 'Research', icon: IconFlask },
  { to: '/market', label: 'Market', icon: IconShoppingCart },
  { to: '/warehouse', label: 'Warehouse', icon: IconBuildingWarehouse },
  { to: '/stocks', label: 'Stocks', icon: IconChartLine },
  { to: '/transactions', label: 'Transactions', icon: IconReceipt2 },
  { to: '/reports', label: 'Week Results', icon: IconReportAnalytics },
  { to: '/politics', label: 'Politics', icon: IconGavel },
  { to: '/leaderboard', label: 'Leaderboard', icon: IconTrophy },
  { to: '/learning', label: 'Learning', icon: IconBook },
  { to: '/community', label: 'Community', icon: IconUsers },
  { to: '/about', label: 'About', icon: IconInfoCircle },
  { to: '/admin', label: 'Admin', icon: IconShieldLock, adminOnly: true },
  { to: '/profile', label: 'Profile', icon: IconUser },
];

/** Whether `pathname` is the page of `to` (the dashboard only on '/', others with sub-paths). */
export function isActivePath(pathname: string, to: string): boolean {
  if (to === '/') return pathname === '/';
  return pathname === to || pathname.startsWith(`${to}/`);
}
