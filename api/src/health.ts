/**
 * GET /api/health, for load balancers and operators: 200 while this server can serve players, 503
 * (with Retry-After) while its database is unreachable or it is shutting down. It reports the
 * database ('up' or 'down') and the turn queue ('up': a worker is connected and takes turns; 'no
 * worker': turns wait, the game still plays; 'unknown': not checked). Public: it tells nothing a
 * player could misuse.
 */
import { sql } from 'drizzle-orm';
import type { ApiServices } from './context.ts';

/** How long the database may take to answer `select 1` before it counts as down. */
const HEALTH_DATABASE_TIMEOUT_MS = 2_000;

export interface Health {
  ok: boolean;
  database: 'up' | 'down';
  queue: 'up' | 'no worker' | 'unknown';
  shutting_down: boolean;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

export async function checkHealth(services: Pick<ApiServices, 'db' | 'workerConnected' | 'lifecycle'>): Promise<{ status: 200 | 503; body: Health }> {
  const shuttingDown = services.lifecycle?.draining ?? false;
  let database: Health['database'] = 'up';
  let queue: Health['queue'] = 'unknown';
  try {
    await withTimeout(services.db.execute(sql`select 1`), HEALTH_DATABASE_TIMEOUT_MS);
    if (services.workerConnected) queue = (await withTimeout(services.workerConnected(), HEALTH_DATABASE_TIMEOUT_MS)) ? 'up' : 'no worker';
  } catch {
    database = 'down';
  }
  const ok = database === 'up' && !shuttingDown;
  return { status: ok ? 200 : 503, body: { ok, database, queue, shutting_down: shuttingDown } };
}
