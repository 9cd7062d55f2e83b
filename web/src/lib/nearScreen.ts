/**
 * Calls `show` once an element comes near the screen (a screen's height ahead), through one shared
 * IntersectionObserver: the market's 304 sparklines and the charts below a phone's first screen are
 * drawn only when they are about to be seen (docs/web.md, "First load"). Returns the cleanup.
 */
const waiting = new Map<Element, () => void>();
let observer: IntersectionObserver | undefined;

export function whenNearScreen(element: Element, show: () => void): () => void {
  if (typeof IntersectionObserver === 'undefined') {
    show();
    return () => {};
  }
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        waiting.get(entry.target)?.();
        waiting.delete(entry.target);
        observer?.unobserve(entry.target);
      }
    },
    // A screen's worth ahead, so a scroll finds them drawn.
    { rootMargin: '100% 0px' },
  );
  waiting.set(element, show);
  observer.observe(element);
  return () => {
    waiting.delete(element);
    observer?.unobserve(element);
  };
}
