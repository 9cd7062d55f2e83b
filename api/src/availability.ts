/**
 * What the API answers when it cannot serve a request through no fault of the caller: the database
 * is unreachable (503, never 500), or the process is shutting down (503 to new requests while the
 * ones in flight finish). Both carry Retry-After and a message a player can read. The lifecycle
 * also counts the requests in flight, so a graceful stop (server.ts) waits for exactly them.
 */
import type { ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { isDatabaseUnavailable } from '@marketcraft/db';

export const DATABASE_UNAVAILABLE_MESSAGE = 'The game database cannot be reached right now. Please try again in a few seconds.';
export const SHUTTING_DOWN_MESSAGE = 'The server is restarting. Please try again in a few seconds.';
/** Seconds a client should wait before retrying after either 503. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export interface UnavailableAnswer {
  status: 503;
  body: { error: string };
  retryAfterSeconds: number;
}

/** The 503 answer for an error that means the database is unreachable; null for any other error. */
export function databaseUnavailableAnswer(error: unknown): UnavailableAnswer | null {
  if (!isDatabaseUnavailable(error)) return null;
  return { status: 503, body: { error: DATABASE_UNAVAILABLE_MESSAGE }, retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS };
}

export function sendUnavailable(c: Context, answer: UnavailableAnswer): Response {
  c.header('Retry-After', String(answer.retryAfterSeconds));
  return c.json(answer.body, answer.status);
}

/** The API process's state for a graceful stop: draining refuses new requests; idle() waits for the rest. */
export class Lifecycle {
  #draining = false;
  #inFlight = 0;
  #waiters = new Set<() => void>();

  get draining(): boolean {
    return this.#draining;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  startDraining(): void {
    this.#draining = true;
  }

  enter(): void {
    this.#inFlight += 1;
  }

  leave(): void {
    this.#inFlight -= 1;
    if (this.#inFlight === 0) for (const waiter of [...this.#waiters]) waiter();
  }

  /** Resolves true when no counted request is in flight, false after `timeoutMs` with some still running. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.#inFlight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(done);
        resolve(false);
      }, timeoutMs);
      this.#waiters.add(done);
    });
  }
}

/**
 * Counts requests in flight, and while draining answers new ones 503 with `Connection: close` (a
 * keep-alive client then reconnects, to another server or after the restart). The health check
 * and the realtime stream are not counted: a stream lasts until the client leaves and would hold
 * the stop for its whole timeout.
 */
export function trackRequests(lifecycle: Lifecycle): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.path === '/api/health' || c.req.path === '/api/realtime') return next();
    if (lifecycle.draining) {
      c.header('Connection', 'close');
      return sendUnavailable(c, { status: 503, body: { error: SHUTTING_DOWN_MESSAGE }, retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS });
    }
    lifecycle.enter();
    // Under @hono/node-server the request counts until its answer is written to the socket ('close'
    // of the ServerResponse), not just until the handler returns: closing connections earlier would
    // cut answers that are ready but not yet sent.
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    if (outgoing) {
      outgoing.once('close', () => lifecycle.leave());
      return next();
    }
    try {
      await next();
    } finally {
      lifecycle.leave();
    }
  };
}
