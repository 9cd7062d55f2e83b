/**
 * The dashboard's greeting: 'Welcome' the first time this browser shows a company's dashboard (a
 * brand-new player, or a company founded again), 'Welcome back' every later time (another visit
 * to the dashboard, a reload, signing in again). Remembered in localStorage, like the first-week
 * checklist's Dismiss. Before the company is known it says 'Welcome' (never wrong).
 */
import { useEffect, useState } from 'react';

const greetedKey = (companyId: number) => `marketcraft-greeted-${companyId}`;

function wasGreeted(companyId: number): boolean {
  try {
    return window.localStorage.getItem(greetedKey(companyId)) === '1';
  } catch {
    return false;
  }
}

/** Decided when the dashboard first shows the company (read only there: the effect writes). */
export function useGreeting(companyId: number | undefined): 'Welcome' | 'Welcome back' {
  const [returning, setReturning] = useState<{ companyId: number; returning: boolean } | null>(() =>
    companyId === undefined ? null : { companyId, returning: wasGreeted(companyId) },
  );
  let current = returning;
  if (companyId !== undefined && current?.companyId !== companyId) {
    // The company became known (or changed) after the first render: decide now, in this render.
    current = { companyId, returning: wasGreeted(companyId) };
    setReturning(current);
  }
  useEffect(() => {
    if (companyId === undefined) return;
    try {
      window.localStorage.setItem(greetedKey(companyId), '1');
    } catch {
      // Private mode without storage: the greeting stays 'Welcome'.
    }
  }, [companyId]);
  return current?.returning ? 'Welcome back' : 'Welcome';
}
