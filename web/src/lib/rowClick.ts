import type { MouseEvent } from 'react';

/**
 * A list row that a tap anywhere on picks (Market, Stock Exchange): only the name was a button, so
 * on a phone a tap on a price or a trend picked nothing (docs/web.md). The name button stays the
 * keyboard's way in; a click on a control inside the row is that control's.
 */
export function pickOnRowClick(pick: () => void) {
  return (event: MouseEvent<HTMLElement>) => {
    if (event.target instanceof Element && event.target.closest('button, a, input, select, textarea, [role="button"]')) return;
    pick();
  };
}
