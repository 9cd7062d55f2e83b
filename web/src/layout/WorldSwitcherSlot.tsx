/**
 * The world switcher, loaded beside the first page rather than with it: its Select (combobox,
 * popover, scroll area) is a large part of Mantine that nothing else on the first paint needs
 * (docs/web.md, "First load"). Until it is there, a box of its size holds its place, so nothing moves.
 */
import { Suspense, lazy } from 'react';
import { Box } from '@mantine/core';

const WorldSwitcher = lazy(() => import('./WorldSwitcher').then((module) => ({ default: module.WorldSwitcher })));

/** Mantine's `xs` input height. */
const SWITCHER_HEIGHT = 30;

export function WorldSwitcherSlot({ fullWidth = false }: { fullWidth?: boolean }) {
  return (
    <Suspense fallback={<Box w={fullWidth ? '100%' : 180} h={SWITCHER_HEIGHT} aria-hidden />}>
      <WorldSwitcher fullWidth={fullWidth} />
    </Suspense>
  );
}
