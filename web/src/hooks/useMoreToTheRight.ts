import { useEffect, useState, type RefObject } from 'react';

/**
 * Whether a box that scrolls sideways has content out of view to its right: true until it is
 * scrolled to its end, false when everything fits. Follows scrolling and resizing (of the box and
 * of its first child, e.g. a table whose rows arrive).
 */
export function useMoreToTheRight(ref: RefObject<HTMLElement | null>): boolean {
  const [more, setMore] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = () => setMore(element.scrollLeft + element.clientWidth < element.scrollWidth - 1);
    update();
    element.addEventListener('scroll', update, { passive: true });
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    resized?.observe(element);
    if (element.firstElementChild) resized?.observe(element.firstElementChild);
    return () => {
      element.removeEventListener('scroll', update);
      resized?.disconnect();
    };
  }, [ref]);
  return more;
}
