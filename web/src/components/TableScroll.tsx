import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Box, Table } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import classes from './TableScroll.module.css';

/**
 * A table that scrolls sideways on narrow screens. The scrolling box is a named region that takes
 * keyboard focus, so it can be scrolled with the arrow keys (axe: scrollable-region-focusable).
 * While columns are hidden to the right (a phone: a table's actions are often there), a fade with an
 * arrow on the right edge says so; it lets clicks through and is hidden from screen readers.
 */
export function TableScroll({ minWidth, label, children }: { minWidth: number; label: string; children: ReactNode }) {
  const scroller = useRef<HTMLDivElement>(null);
  const [moreToTheRight, setMoreToTheRight] = useState(false);
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const update = () => setMoreToTheRight(element.scrollLeft + element.clientWidth < element.scrollWidth - 1);
    update();
    element.addEventListener('scroll', update, { passive: true });
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    resized?.observe(element);
    if (element.firstElementChild) resized?.observe(element.firstElementChild);
    return () => {
      element.removeEventListener('scroll', update);
      resized?.disconnect();
    };
  }, []);
  return (
    <Box pos="relative">
      <Table.ScrollContainer ref={scroller} type="native" minWidth={minWidth} tabIndex={0} role="region" aria-label={label}>
        {children}
      </Table.ScrollContainer>
      {moreToTheRight && (
        <div className={classes.more} aria-hidden data-testid="table-scroll-more">
          <IconChevronRight size={14} />
        </div>
      )}
    </Box>
  );
}
