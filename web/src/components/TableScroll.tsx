import { useRef, type ReactNode } from 'react';
import { Box, Table } from '@mantine/core';
import { useMoreOutOfView } from '../hooks/useMoreOutOfView';
import { MoreOutOfView } from './MoreOutOfView';

/**
 * A table that scrolls sideways on narrow screens. The scrolling box is a named region that takes
 * keyboard focus, so it can be scrolled with the arrow keys (axe: scrollable-region-focusable).
 * While columns are out of view to the right (on a phone a table's actions are often there) or,
 * once scrolled, to the left, an arrow chip on that side says so.
 */
export function TableScroll({ minWidth, label, children }: { minWidth: number; label: string; children: ReactNode }) {
  const scroller = useRef<HTMLDivElement>(null);
  const more = useMoreOutOfView(scroller);
  return (
    <Box pos="relative">
      <Table.ScrollContainer ref={scroller} type="native" minWidth={minWidth} tabIndex={0} role="region" aria-label={label}>
        {children}
      </Table.ScrollContainer>
      <MoreOutOfView more={more} />
    </Box>
  );
}
