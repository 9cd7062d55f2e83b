import { Suspense, startTransition, useEffect, useRef, useState, type ReactNode } from 'react';
import { whenNearScreen } from '../lib/nearScreen';

/**
 * Holds a box of the content's final height and renders the content (typically a lazy chart, which
 * brings recharts) only once the box comes near the screen: a phone's first screen does not pay for
 * a chart below it, and nothing moves when the chart arrives (no layout shift). The box is there
 * from the start, so the page's length is right at once.
 */
export function NearScreen({ height, children }: { height: number; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  // A transition: React builds the chart in short tasks, so scrolling stays smooth while it does.
  useEffect(() => (near || !box.current ? undefined : whenNearScreen(box.current, () => startTransition(() => setNear(true)))), [near]);
  return (
    <div ref={box} style={{ minHeight: height }}>
      {near && <Suspense fallback={null}>{children}</Suspense>}
    </div>
  );
}
