import { IconChevronRight } from '@tabler/icons-react';
import classes from './MoreToTheRight.module.css';

/**
 * The sign that a box scrolling sideways has more to its right (a table's columns, the tab bar's
 * last tabs): an arrow chip on its top right corner, over what is cut off. Place it in a
 * `position: relative` parent of the scrolling box. It lets clicks through and is hidden from
 * screen readers (they reach everything anyway).
 */
export function MoreToTheRight({ top = 4 }: { top?: number }) {
  return (
    <div className={classes.more} style={{ top }} aria-hidden data-testid="more-to-the-right">
      <IconChevronRight size={14} />
    </div>
  );
}
