import { useEffect, useState, type RefObject } from 'react';

export interface OutOfView {
  /** Scrolled away from its start: content out of view to the left. */
  left: boolean;
  /** Not scrolled to its end: content out of view to the right. */
  right: boolean;
}

/**
 * Whether a box that scrolls sideways has content out of view on either side (both false when
 * everything fits). Follows scrolling and resizing (of the box and of its first child, e.g. a table
 * whose rows arrive).
 */
export function useMoreOutOfView(ref: RefObject<HTMLElement | null>): OutOfView {
  const [left, setLeft] = useState(false);
  const [right, setRight] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = () => {
      setLeft(element.scrollLeft > 1);
      setRight(element.scrollLeft + element.clientWidth < element.scrollWidth - 1);
    };
    element.addEventListener('scroll', update, { passive: true });
    // The observer reports each box once when observed, after the browser's own layout: measuring
    // here at once forced a layout of the whole page in the middle of its first render.
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    if (!resized) update();
    resized?.observe(element);
    if (element.firstElementChild) resized?.observe(element.firstElementChild);
    return () => {
      element.removeEventListener('scroll', update);
      resized?.disconnect();
    };
  }, [ref]);
  return { left, right };
}
