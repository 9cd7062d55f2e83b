/**
 * The side menu (spec section 2): the main links, 'My Buildings' with a count badge, the owned
 * buildings grouped in collapsible categories, and the footer lines.
 */
import { Link, useLocation } from 'react-router-dom';
import { Badge, Box, Group, NavLink, Stack, Text } from '@mantine/core';
import { IconBuildingSkyscraper } from '@tabler/icons-react';
import { BUILDING_CATEGORIES, BUILDING_CATEGORY_LABELS, type BuildingCategory } from '@marketcraft/shared';
import { ScrollBox } from '../components/ScrollBox';
import { useBuildings } from '../hooks/useGameData';
import { ColorSchemeToggle } from './ColorSchemeToggle';
import { WorldSwitcherSlot } from './WorldSwitcherSlot';
import { useIsAdmin } from '../hooks/useIsAdmin';
import { botsFooterLine, turnsFooterLine } from '../lib/countdown';
import { trpc } from '../trpc';
import type { RouterOutputs } from '../trpc';
import { SIDE_MENU_LINKS, isActivePath } from './navigation';
import classes from './layout.module.css';

type OwnedBuilding = RouterOutputs['buildings']['list'][number];

export function groupBuildingsByCategory(buildings: readonly OwnedBuilding[]): Array<{ category: BuildingCategory; label: string; buildings: OwnedBuilding[] }> {
  return BUILDING_CATEGORIES.map((category) => ({
    category,
    label: BUILDING_CATEGORY_LABELS[category],
    buildings: buildings.filter((building) => building.category === category),
  })).filter((group) => group.buildings.length > 0);
}

export function SideMenu({ onNavigate }: { onNavigate: () => void }) {
  const { pathname } = useLocation();
  const { isAdmin } = useIsAdmin();
  const buildings = useBuildings();
  const owned = buildings.data ?? [];
  const groups = groupBuildingsByCategory(owned);
  // The world the session plays in: the footer says how its turns come (a class world's manual clock is no 12-hour schedule).
  const world = trpc.worlds.current.useQuery();
  const turnsLine = turnsFooterLine(world.data?.turns);
  const botsLine = botsFooterLine(world.data);

  return (
    <Stack gap={0} h="100%">
      <Box style={{ flex: 1, minHeight: 0, overflowY: 'auto', overflowX: 'hidden' }}>
        <nav aria-label="Main menu">
          {SIDE_MENU_LINKS.filter((link) => !link.adminOnly || isAdmin).map((link) => (
            <NavLink
              key={link.to}
              component={Link}
              to={link.to}
              label={link.label}
              leftSection={<link.icon size={18} aria-hidden />}
              active={isActivePath(pathname, link.to)}
              aria-current={isActivePath(pathname, link.to) ? 'page' : undefined}
              onClick={onNavigate}
            />
          ))}
          <NavLink
            component={Link}
            to="/my-buildings"
            label="My Buildings"
            leftSection={<IconBuildingSkyscraper size={18} aria-hidden />}
            rightSection={
              <Badge size="sm" variant="light" circle={owned.length < 10} aria-label={`${owned.length} buildings`} data-testid="my-buildings-count">
                {owned.length}
              </Badge>
            }
            active={pathname === '/my-buildings'}
            aria-current={pathname === '/my-buildings' ? 'page' : undefined}
            onClick={onNavigate}
          />
          {groups.length > 0 && (
            <ScrollBox maxHeight="24rem" label="Your buildings by category">
              {groups.map((group) => (
                <NavLink
                  key={group.category}
                  // A button, not a link without href: reachable with Tab, opened with Enter or Space.
                  component="button"
                  type="button"
                  label={
                    <Group gap={6} wrap="nowrap">
                      <span>{group.label}</span>
                      <Badge size="xs" variant="default" aria-label={`${group.buildings.length} buildings`}>
                        {group.buildings.length}
                      </Badge>
                    </Group>
                  }
                  defaultOpened={group.buildings.some((building) => pathname === `/buildings/${building.id}`)}
                  childrenOffset={24}
                  pl="lg"
                >
                  {group.buildings.map((building) => (
                    <NavLink
                      key={building.id}
                      component={Link}
                      to={`/buildings/${building.id}`}
                      label={building.name}
                      description={building.city_name || 'Unknown'}
                      classNames={{ description: classes.navDescription }}
                      active={pathname === `/buildings/${building.id}`}
                      onClick={onNavigate}
                    />
                  ))}
                </NavLink>
              ))}
            </ScrollBox>
          )}
        </nav>
      </Box>
      <Box className={classes.navFooter}>
        <Box mb="xs" hiddenFrom="sm">
          <WorldSwitcherSlot fullWidth />
        </Box>
        <Box mb="xs">
          <ColorSchemeToggle />
        </Box>
        <Text size="xs" c="dimmed" data-testid="footer-turns" mih="1lh">
          {turnsLine}
        </Text>
        <Text size="xs" c="dimmed">
          30min processing window after each turn
        </Text>
        <Text size="xs" c="dimmed" data-testid="footer-bots" mih="1lh">
          {botsLine}
        </Text>
      </Box>
    </Stack>
  );
}
