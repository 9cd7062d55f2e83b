/** The top header (spec section 2): cash, current week, Next Turn countdown, logout. */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { ActionIcon, Box, Burger, Button, Skeleton, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconBuildingFactory2, IconLogout } from '@tabler/icons-react';
import { applySession, signOut } from '../auth/session';
import { useCompany } from '../hooks/useGameData';
import { useNow } from '../hooks/useNow';
import { useWeekWatcher } from '../hooks/useRealtime';
import { inProcessingWindow, isTurnDue, nextTurnLabel } from '../lib/countdown';
import { formatWholeDollars } from '../lib/format';
import { notifyFailure } from '../lib/notify';
import { trpc } from '../trpc';
import classes from './layout.module.css';
import { WorldSwitcherSlot } from './WorldSwitcherSlot';

/** The burger's id: Escape on the open phone menu gives it the focus back. */
export const MENU_BUTTON_ID = 'side-menu-button';

/** While the next turn time has passed, the world state is polled this often for the new week. */
const TURN_DUE_POLL_MS = 15_000;

function NextTurn() {
  const now = useNow(1000);
  const world = trpc.world.state.useQuery(undefined, {
    refetchInterval: (query) => (isTurnDue(query.state.data, Date.now()) ? TURN_DUE_POLL_MS : false),
  });
  useWeekWatcher(world.data?.current_week);
  return (
    <>
      <div className={classes.stat}>
        <span className={classes.statLabel}>Week</span>
        <span className={classes.statValue} data-testid="header-week">
          {world.isPending ? <Skeleton height={14} width={24} mt={2} role="status" aria-label="Loading week" /> : (world.data?.current_week ?? 1)}
        </span>
      </div>
      <div className={classes.stat}>
        <span className={classes.statLabel}>Next Turn</span>
        <span className={classes.statValue} data-testid="header-next-turn" aria-live="off">
          {inProcessingWindow(world.data, now) ? (
            // 'Processing' (the spec's word) read as "wait": the turn is done and nothing waits on the
            // window, so it links to the turn's results and says so.
            <Tooltip label="The last turn is done: its results are in. Nothing waits on this window: keep playing." multiline w={240} withArrow>
              <Link to="/reports" className={classes.statLink}>
                {nextTurnLabel(world.data, now)}
              </Link>
            </Tooltip>
          ) : (
            nextTurnLabel(world.data, now)
          )}
        </span>
      </div>
    </>
  );
}

export function HeaderBar({ navOpened, onToggleNav, desktop }: { navOpened: boolean; onToggleNav: () => void; desktop: boolean }) {
  const queryClient = useQueryClient();
  const { company, isPending: companyPending } = useCompany();
  const [signingOut, setSigningOut] = useState(false);

  const logout = async () => {
    setSigningOut(true);
    try {
      await signOut();
      window.history.replaceState(null, '', '/');
      applySession(queryClient, null);
    } catch (error) {
      notifyFailure('Error', error, 'Could not sign out. Please try again.');
      setSigningOut(false);
    }
  };

  return (
    <div className={classes.header}>
      <Burger
        id={MENU_BUTTON_ID}
        opened={navOpened}
        onClick={onToggleNav}
        hiddenFrom="sm"
        size="sm"
        aria-label={navOpened ? 'Close menu' : 'Open menu'}
        aria-expanded={navOpened}
        aria-controls="side-menu"
      />
      <Link to="/" className={classes.brand} aria-label="Marketcraft dashboard">
        <ThemeIcon size={30} radius="md" variant="gradient" gradient={{ from: 'teal', to: 'blue' }} aria-hidden>
          <IconBuildingFactory2 size={18} />
        </ThemeIcon>
        <Text fw={800} fz="lg" className={classes.brandText}>
          Marketcraft
        </Text>
      </Link>
      <div className={classes.stats}>
        <div className={classes.stat}>
          <span className={classes.statLabel}>Cash</span>
          <span className={classes.statValue} data-testid="header-cash" aria-busy={companyPending}>
            {/* Never a false $0 while the company loads (0 only when there is no company, as the spec says). */}
            {companyPending ? <Skeleton height={14} width={72} mt={2} role="status" aria-label="Loading cash" /> : formatWholeDollars(company?.cash ?? 0)}
          </span>
        </div>
        <NextTurn />
      </div>
      {/* Phones: the side menu holds the switcher, so cash, week and countdown keep their room. */}
      {/* Not built on a phone, where it is in the side menu instead. */}
      {desktop && (
        <Box visibleFrom="sm">
          <WorldSwitcherSlot />
        </Box>
      )}
      <Button variant="default" size="xs" leftSection={<IconLogout size={16} aria-hidden />} onClick={logout} disabled={signingOut} visibleFrom="sm">
        Logout
      </Button>
      <Tooltip label="Logout">
        <ActionIcon variant="default" size="lg" onClick={logout} disabled={signingOut} aria-label="Logout" hiddenFrom="sm">
          <IconLogout size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
    </div>
  );
}
