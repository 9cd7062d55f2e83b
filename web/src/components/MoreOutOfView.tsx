import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import type { OutOfView } from '../hooks/useMoreOutOfView';
import classes from './MoreOutOfView.module.css';

/**
 * The signs that a box scrolling sideways has more out of view (a table's columns, the tab bar's
 * first or last tabs): an arrow chip on its top left or right corner, over what is cut off. Place
 * it in a `position: relative` parent of the scrolling box. The chips let clicks through and are
 * hidden from screen readers (they reach everything anyway).
 */
export function MoreOutOfView({ more, top = 4 }: { more: OutOfView; top?: number }) {
  return (
    <>
      {more.left && (
        <div className={`${classes.more} ${classes.left}`} style={{ top }} aria-hidden data-testid="more-to-the-left">
          <IconChevronLeft size={14} />
        </div>
      )}
      {more.right && (
        <div className={`${classes.more} ${classes.right}`} style={{ top }} aria-hidden data-testid="more-to-the-right">
          <IconChevronRight size={14} />
        </div>
      )}
    </>
  );
}
