/**
 * GET /api/realtime: a Server-Sent Events stream. The API process LISTENs once on the PostgreSQL
 * channel game_updates (the worker NOTIFYs after each turn commits) and forwards every notification
 * to each open stream as `event: game-updates` with `data: {"week": <new week>, ...}`. A comment
 * line every 25 s keeps proxies from closing idle streams. Public, like GET /api/world: it carries
 * only the new week number.
 */
import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { REALTIME_CHANNEL } from '@marketcraft/shared';
import { GAME_UPDATES_CHANNEL } from '@marketcraft/shared/queues.ts';
import type postgres from 'postgres';
import type { Logger } from '@marketcraft/db/logger.ts';

const KEEPALIVE_MS = 25_000;

type Subscriber = (payload: string) => void;

export function createGameUpdatesHub(listenSql: postgres.Sql, logger: Logger) {
  const subscribers = new Set<Subscriber>();
  let listening: Promise<unknown> | null = null;
  return {
    subscribe(subscriber: Subscriber): () => void {
      subscribers.add(subscriber);
      listening ??= listenSql
        .listen(GAME_UPDATES_CHANNEL, (payload: string) => {
          for (const each of subscribers) each(payload);
        })
        .catch((error: unknown) => {
          logger.error({ err: error }, `LISTEN ${GAME_UPDATES_CHANNEL} failed`);
          listening = null;
        });
      return () => subscribers.delete(subscriber);
    },
    /** Resolves once the LISTEN is in place (tests wait for it before triggering a turn). */
    ready: () => listening ?? Promise.resolve(),
  };
}

export function registerRealtimeRoutes(app: Hono, listenSql: postgres.Sql, logger: Logger): void {
  const hub = createGameUpdatesHub(listenSql, logger);
  app.get('/api/realtime', (c) =>
    streamSSE(c, async (stream) => {
      const queue: string[] = [];
      let wake: (() => void) | null = null;
      const unsubscribe = hub.subscribe((payload) => {
        queue.push(payload);
        wake?.();
      });
      stream.onAbort(() => wake?.());
      try {
        await hub.ready();
        await stream.writeSSE({ event: 'ready', data: JSON.stringify({ channel: REALTIME_CHANNEL }) });
        while (!stream.aborted) {
          const payload = queue.shift();
          if (payload !== undefined) {
            await stream.writeSSE({ event: REALTIME_CHANNEL, data: payload });
            continue;
          }
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, KEEPALIVE_MS);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wake = null;
          if (!stream.aborted && queue.length === 0) await stream.write(': keepalive\n\n');
        }
      } finally {
        unsubscribe();
      }
    }),
  );
}
