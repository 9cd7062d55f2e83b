/** The authenticated layout (spec section 2): header, side menu, tab bar and the page. */
import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { AppShell } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { PageLoader } from '../components/FullScreenLoader';
import { PageErrorBoundary } from '../components/PageErrorBoundary';
import { useRealtime } from '../hooks/useRealtime';
import { HeaderBar } from './HeaderBar';
import { SideMenu } from './SideMenu';
import { TabBar } from './TabBar';
import classes from './layout.module.css';

export function AppLayout() {
  const [navOpened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  useRealtime();

  // A new page starts at the top, with the mobile menu closed.
  useEffect(() => {
    close();
    window.scrollTo({ top: 0 });
  }, [pathname, close]);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !navOpened } }}
      padding={{ base: 'sm', sm: 'md' }}
    >
      <AppShell.Header>
        <HeaderBar navOpened={navOpened} onToggleNav={toggle} />
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label="Side menu" id="side-menu" className={classes.navbar} data-mobile-collapsed={navOpened ? undefined : true}>
        <SideMenu onNavigate={close} />
      </AppShell.Navbar>
      <AppShell.Main>
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
