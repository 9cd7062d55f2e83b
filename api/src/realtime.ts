/**
 * GET /api/realtime: a Server-Sent Events stream. The API process LISTENs once on the PostgreSQL
 * channel game_updates (the worker NOTIFYs after each turn commits) and forwards a notification to
 * an open stream as `event: game-updates` with `data: {"worldId": .., "week": <new week>, ...}` only
 * when it is about the stream's world: the world the caller plays in at that moment (the session's
 * current world, read again for each notification, so a world switch mid-stream is followed; the
 * public world for visitors). A player of one world never refreshes for another world's turn.
 * A comment line every 25 s keeps proxies from closing idle streams. Public, like GET /api/world:
 * it carries only week numbers. A personal access token hears the world its X-World-Id names, and
 * a refused credential or world answers the same 401/400/404 as every route, before any stream.
 *
 * Open streams are capped (429 beyond, before any stream): each holds a connection and costs a
 * read of its caller's world per turn, so one caller must not open thousands. A signed-in caller (a
 * session or a token) may hold REALTIME_STREAMS_PER_CREDENTIAL (browser tabs), an address
 * REALTIME_STREAMS_PER_ADDRESS (a class behind one address). The counts are this process's: its
 * streams are too.
 */
import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { REALTIME_CHANNEL } from '@marketcraft/shared';
import { GAME_UPDATES_CHANNEL, type GameUpdate } from '@marketcraft/shared/queues.ts';
import { GameError, PUBLIC_WORLD_ID } from '@marketcraft/shared';
import type postgres from 'postgres';
import type { Logger } from '@marketcraft/db/logger.ts';
import { createRequestContext, type ApiServices } from './context.ts';
import { clientIpOf } from './clientIp.ts';
import { checkCredential } from './access/guard.ts';

const KEEPALIVE_MS = 25_000;

/** Open streams of one session or token: a few browser tabs. */
export const REALTIME_STREAMS_PER_CREDENTIAL = 5;
/** Open streams from one address: a class behind one address, each student with a tab or two. */
const REALTIME_STREAMS_PER_ADDRESS = 100;
export const TOO_MANY_STREAMS_MESSAGE = 'Too many live update streams are open: close other Marketcraft tabs, then reload this one';

/** Open streams per key (`ip:`, `session:`, `token:`); a stream holds one count of each of its keys. */
class StreamCounts {
  private readonly open = new Map<string, number>();
  /** Takes a count of every key when each is below its limit (no await between check and take), else none. */
  take(keys: { key: string; limit: number }[]): boolean {
    if (keys.some(({ key, limit }) => (this.open.get(key) ?? 0) >= limit)) return false;
    for (const { key } of keys) this.open.set(key, (this.open.get(key) ?? 0) + 1);
    return true;
  }
  release(keys: { key: string }[]): void {
    for (const { key } of keys) {
      const left = (this.open.get(key) ?? 1) - 1;
      if (left <= 0) this.open.delete(key);
      else this.open.set(key, left);
    }
  }
}

type Subscriber = (payload: string) => void;

function createGameUpdatesHub(listenSql: postgres.Sql, logger: Logger) {
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

/** The world a notification is about (payloads from before worlds name none: the public world); null: unreadable. */
function worldOfUpdate(payload: string): number | null {
  try {
    const update = JSON.parse(payload) as Partial<GameUpdate> | null;
    if (typeof update !== 'object' || update === null) return null;
    return typeof update.worldId === 'number' ? update.worldId : PUBLIC_WORLD_ID;
  } catch {
    return null;
  }
}

export function registerRealtimeRoutes(app: Hono, listenSql: postgres.Sql, services: ApiServices): void {
  const hub = createGameUpdatesHub(listenSql, services.logger);
  const streams = new StreamCounts();
  app.get('/api/realtime', async (c) => {
    const ip = clientIpOf(c, services.config.TRUST_PROXY_HOPS);
    // Checked once at connect, as every route checks it (api/src/access/guard.ts): a refused token,
    // or an X-World-Id its user is not part of, is answered, never a stream that stays silent.
    const { refused, credentialKey } = await refusalOf(services, c.req.raw, ip);
    if (refused) {
      if (refused.challenge) c.header('www-authenticate', refused.challenge);
      return c.json({ error: refused.error.message }, refused.error.status as 400 | 401 | 403 | 404);
    }
    const keys = [
      { key: `ip:${ip}`, limit: REALTIME_STREAMS_PER_ADDRESS },
      ...(credentialKey ? [{ key: credentialKey, limit: REALTIME_STREAMS_PER_CREDENTIAL }] : []),
    ];
    if (!streams.take(keys)) return c.json({ error: TOO_MANY_STREAMS_MESSAGE }, 429);
    return streamSSE(c, async (stream) => {
      // The caller's world, by the same rule as every API request (api/src/context.ts): read when a
      // notification arrives (turns are rare), so switching worlds or signing out is followed.
      const currentWorld = async (): Promise<number | null> => {
        try {
          const context = await createRequestContext(services, c.req.raw, new Headers(), ip);
          return context.worldRefusal ? null : context.worldId;
        } catch (error) {
          // The database is out of reach: skip this one (the header's polling fallback still sees the week).
          services.logger.warn({ err: error }, "realtime: could not read the caller's world");
          return null;
        }
      };
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
            const world = worldOfUpdate(payload);
            if (world !== null && world === (await currentWorld())) await stream.writeSSE({ event: REALTIME_CHANNEL, data: payload });
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
        streams.release(keys);
      }
    });
  });
}

/**
 * Why the caller may not open the stream (a GameError and its WWW-Authenticate), or null; and the
 * signed-in caller's key for the stream cap (`session:<id>` or `token:<id>`; null for a visitor).
 */
async function refusalOf(
  services: ApiServices,
  req: Request,
  ip: string,
): Promise<{ refused: { error: GameError; challenge: string | null } | null; credentialKey: string | null }> {
  const headers = new Headers();
  try {
    const context = await createRequestContext(services, req, headers, ip);
    checkCredential(context, { access: 'read', label: 'GET /api/realtime', isMutation: false });
    const credentialKey = context.apiToken ? `token:${context.apiToken.id}` : context.sessionId ? `session:${context.sessionId}` : null;
    return { refused: null, credentialKey };
  } catch (error) {
    if (error instanceof GameError) return { refused: { error, challenge: headers.get('www-authenticate') }, credentialKey: null };
    // The database is out of reach: the stream opens anyway (each notification reads the world again).
    services.logger.warn({ err: error }, "realtime: could not check the caller's credential");
    return { refused: null, credentialKey: null };
  }
}
