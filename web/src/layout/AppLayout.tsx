/** The authenticated layout (spec section 2): header, side menu, tab bar and the page. */
import { Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { AppShell, useMantineTheme } from '@mantine/core';
import { useDisclosure, useMediaQuery, useWindowEvent } from '@mantine/hooks';
import { PageLoader } from '../components/FullScreenLoader';
import { PageErrorBoundary } from '../components/PageErrorBoundary';
import { useRealtime } from '../hooks/useRealtime';
import { HeaderBar, MENU_BUTTON_ID } from './HeaderBar';
import { SideMenu } from './SideMenu';
import { TabBar } from './TabBar';
import classes from './layout.module.css';

export function AppLayout() {
  const [navOpened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  useRealtime();
  const theme = useMantineTheme();
  // On a phone the open menu covers the page: the page is inert under it (Tab stays in the menu and
  // the header) and Escape closes it, back on the burger, as a keyboard player expects of a menu.
  // Read at once (not after the first paint): it decides whether the side menu is built at all.
  const desktop = useMediaQuery(`(min-width: ${theme.breakpoints.sm})`, undefined, { getInitialValueInEffect: false });
  const menuCoversPage = navOpened && !desktop;
  // A phone's side menu is closed (and hidden) until the burger opens it: it is built then, not with
  // the first page, which it only slowed down; once built it stays, so it slides out closing.
  const [menuBuilt, setMenuBuilt] = useState(false);
  if ((desktop || navOpened) && !menuBuilt) setMenuBuilt(true);
  useWindowEvent('keydown', (event) => {
    if (!menuCoversPage || event.key !== 'Escape') return;
    close();
    document.getElementById(MENU_BUTTON_ID)?.focus();
  });

  // A new page starts at the top, with the mobile menu closed.
  useEffect(() => {
    close();
    window.scrollTo({ top: 0 });
  }, [pathname, close]);

  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !navOpened } }} padding={{ base: 'sm', sm: 'md' }}>
      <AppShell.Header>
        <HeaderBar navOpened={navOpened} onToggleNav={toggle} desktop={desktop} />
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label="Side menu" id="side-menu" className={classes.navbar} data-mobile-collapsed={navOpened ? undefined : true}>
        {menuBuilt && <SideMenu onNavigate={close} />}
      </AppShell.Navbar>
      <AppShell.Main inert={menuCoversPage}>
        <TabBar />
        <div id="content">
          {/* Keyed by path: leaving a page that failed clears the error. */}
          <PageErrorBoundary key={pathname}>
            <Suspense fallback={<PageLoader />}>
              <Outlet />
            </Suspense>
          </PageErrorBoundary>
        </div>
      </AppShell.Main>
    </AppShell>
  );
}
