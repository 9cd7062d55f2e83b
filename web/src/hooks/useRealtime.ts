/**
 * Turn updates.
 * - Realtime: Server-Sent Events from GET /api/realtime, event 'game-updates' (spec section 4).
 *   The server sends only the turns of this session's current world (api/src/realtime.ts).
 *   On an event: toast 'Turn processed!' (with a link to the processed week's results) and refetch everything. The stream is optional: when it
 *   is absent or drops, it is retried quietly with a growing delay.
 * - Fallback: once the next turn time has passed the header polls the world state; when the week
 *   goes up without a realtime event, the same toast shows and everything is refetched.
 */
import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { REALTIME_CHANNEL } from '@marketcraft/shared';
import { showTurnProcessed } from '../components/TurnToast';

const REALTIME_URL = '/api/realtime';
const FIRST_RETRY_MS = 5_000;
const MAX_RETRY_MS = 60_000;
/** A week change seen this soon after a realtime toast is the same turn: no second toast. */
const SAME_TURN_MS = 60_000;

let lastTurnToastAt = 0;

/** The toast, with a link to the results of the week the turn processed. */
function announceTurn(processedWeek: number | undefined): void {
  lastTurnToastAt = Date.now();
  showTurnProcessed(processedWeek);
}

/** The processed week an event names (`{"week": 8, "processedWeek": 7}`), if it names one. */
function processedWeekOf(event: Event): number | undefined {
  try {
    const update = JSON.parse(String((event as MessageEvent).data)) as { processedWeek?: unknown };
    return typeof update.processedWeek === 'number' ? update.processedWeek : undefined;
  } catch {
    return undefined;
  }
}

export function useRealtime(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let retryTimer: number | undefined;
    let retryMs = FIRST_RETRY_MS;
    let stopped = false;

    const onGameUpdate = (event: Event) => {
      announceTurn(processedWeekOf(event));
      void queryClient.invalidateQueries();
    };

    const connect = () => {
      if (stopped) return;
      source = new EventSource(REALTIME_URL, { withCredentials: true });
      source.addEventListener(REALTIME_CHANNEL, onGameUpdate);
      source.onopen = () => {
        retryMs = FIRST_RETRY_MS;
      };
      source.onerror = () => {
        // A dropped stream reconnects by itself (CONNECTING); a refused one (404, wrong type) is
        // CLOSED for good, so we try again later ourselves.
        if (source?.readyState === EventSource.CLOSED) {
          source.close();
          source = null;
          retryTimer = window.setTimeout(connect, retryMs);
          retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
        }
      };
    };

    connect();
    return () => {
      stopped = true;
      window.clearTimeout(retryTimer);
      source?.close();
    };
  }, [queryClient]);
}

/** Watches the game week: a rise not already announced by realtime is announced here. */
export function useWeekWatcher(week: number | undefined): void {
  const queryClient = useQueryClient();
  const previous = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (week === undefined) return;
    const before = previous.current;
    previous.current = week;
    if (before === undefined || week <= before) return;
    if (Date.now() - lastTurnToastAt < SAME_TURN_MS) return;
    announceTurn(week - 1);
    void queryClient.invalidateQueries();
  }, [week, queryClient]);
}
