import { useEffect, useRef, type RefObject } from 'react';

/**
 * Brings `ref` (a picked product's or company's panel, under a long list on a phone) to the top of
 * the screen once the render showing the pick has committed. Scrolling at the pick itself ran
 * before the address, and so the panel, had changed: on a short list the page was not tall enough
 * yet, and the scroll stopped with the panel's title at the foot of the screen (docs/web.md).
 * Returns `pick(next)`: call it with what is being picked.
 */
export function useScrollAfterPick<T>(ref: RefObject<HTMLElement | null>, picked: T): (next: T) => void {
  const requested = useRef(false);
  const shown = useRef(picked);
  useEffect(() => {
    shown.current = picked;
    if (!requested.current) return;
    requested.current = false;
    ref.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [picked, ref]);
  return (next: T) => {
    // The same pick again renders nothing new: scroll now.
    if (next === shown.current) ref.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    else requested.current = true;
  };
}
