import { useRef, type ReactNode } from 'react';
import { Box } from '@mantine/core';
import { useMoreOutOfView } from '../hooks/useMoreOutOfView';
import { MoreOutOfView } from './MoreOutOfView';

/**
 * A list that scrolls vertically past `maxHeight` and never widens past its container. The box is a
 * named region that takes focus, so the keyboard can scroll it.
 *
 * `scrollX`: for a table wider than a phone (the market's, the stock exchange's): it scrolls
 * sideways too, with the arrow chip while columns are out of view (without it, those columns were
 * cut off and out of reach).
 */
export function ScrollBox({
  maxHeight,
  children,
  label,
  scrollX = false,
}: {
  maxHeight: number | string;
  children: ReactNode;
  label: string;
  scrollX?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  const more = useMoreOutOfView(box);
  const scroller = (
    <Box
      ref={box}
      mah={maxHeight}
      style={{ overflowY: 'auto', overflowX: scrollX ? 'auto' : 'hidden', overscrollBehavior: 'contain' }}
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      {children}
    </Box>
  );
  if (!scrollX) return scroller;
  return (
    <Box pos="relative">
      {scroller}
      <MoreOutOfView more={more} />
    </Box>
  );
}
