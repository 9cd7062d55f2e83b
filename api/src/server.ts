/**
 * The API process: prepares the database, then serves HTTP (API, docs and the built web app).
 * close() is the graceful stop: new requests answer 503 (and new connections are refused), the
 * requests in flight finish (up to SHUTDOWN_GRACE_MS), then the connections and pools close.
 */
import { serve } from '@hono/node-server';
import { connectDatabase, prepareDatabase } from '@marketcraft/db';
import { loadApiConfig } from './config.ts';
import { createApp } from './app.ts';
import type { ApiServices } from './context.ts';
import { applyAdminEmails, listedPasswordAccounts } from './auth/admins.ts';
import { createTurnClient } from './turnClient.ts';
import { AUTH_HOUSEKEEPING_INTERVAL_MS, pruneExpiredAuthRows } from './auth/housekeeping.ts';
import { APPLICATION_NAMES } from '@marketcraft/shared/queues.ts';
import { silentLogger, type Logger } from '@marketcraft/db/logger.ts';
import { pruneApiAccessRows } from './access/audit.ts';
import { flushTokenUsage } from './access/tokenUsage.ts';
import { Lifecycle } from './availability.ts';

/** How long a stopping server lets the requests in flight finish (issue 13: up to 10 s). */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * The API's connections to PostgreSQL: a few for single statements (most requests: the session
 * check and reads; postgres.js pipelines them under load, see connectDatabase) and more for
 * writes and transactions, each transaction holding its connection until it commits. bench:api, a
 * light authenticated read at 50 connections: 3 statement connections 3,600-4,100 req/s, 5: 3,300,
 * 20: 2,500. Writes: a trade is one statement (docs/architecture.md, "One-statement actions"), so
 * when every connection is busy postgres.js pipelines trades too, several in one socket write:
 * 50 connections trading, 10 write connections 1,591-1,630 share trades a second, 20: 1,250-1,412
 * (5 and 8 no better than 10). Ten still run ten transactions (builds, hires, class-world actions)
 * at once.
 */
export const API_STATEMENT_CONNECTIONS = 3;
const API_TRANSACTION_CONNECTIONS = 10;

/** The API's database connection (the pools above); the tests' apps connect the same way. */
export function connectApiDatabase(url: string) {
  return connectDatabase(url, { max: API_TRANSACTION_CONNECTIONS, statementConnections: API_STATEMENT_CONNECTIONS, applicationName: APPLICATION_NAMES.api });
}

export async function startApiServer(config = loadApiConfig(), options: { logger?: Logger } = {}) {
  const logger = options.logger ?? silentLogger();
  if (config.DATABASE_PREPARED !== '1') await prepareDatabase(config.DATABASE_URL);
  const connection = connectApiDatabase(config.DATABASE_URL);
  // ADMIN_EMAILS: listed Google accounts are admins from now on (Google sign-ins apply it too);
  // listed password accounts are not (nobody proved the address): the operator grants them by hand.
  const granted = await applyAdminEmails(connection.db, config.ADMIN_EMAILS);
  if (granted > 0) logger.info({ granted }, `ADMIN_EMAILS made ${granted} user(s) admin`);
  for (const email of await listedPasswordAccounts(connection.db, config.ADMIN_EMAILS)) {
    logger.warn(
      { email },
      config.PUBLIC_URL
        ? `ADMIN_EMAILS lists ${email}, whose account signed up with a password and is not admin: on a public game ADMIN_EMAILS grants admin only to a Google sign-in with that verified address. If that account is yours, run: npm run admin -- grant ${email}`
        : `ADMIN_EMAILS lists ${email}, whose account signed up with a password and is not admin: it becomes admin when it signs in on this machine (http://localhost), or run: npm run admin -- grant ${email}`,
    );
  }
  const housekeeping = async () => {
    try {
      await pruneExpiredAuthRows(connection.db);
      await pruneApiAccessRows(connection.db);
    } catch (error) {
      logger.error({ err: error }, 'auth housekeeping failed');
    }
  };
  await housekeeping();
  const housekeepingTimer = setInterval(() => void housekeeping(), AUTH_HOUSEKEEPING_INTERVAL_MS);
  housekeepingTimer.unref();
  const turnClient = createTurnClient({
    databaseUrl: config.DATABASE_URL,
    db: connection.db,
    sql: connection.sql,
    timeoutMs: config.ADVANCE_TURN_TIMEOUT_MS,
    logger,
  });
  const lifecycle = new Lifecycle();
  const services: ApiServices = {
    db: connection.db,
    writeDb: connection.writes,
    config,
    logger,
    advanceTurn: turnClient.advanceTurn,
    forkWorld: turnClient.forkWorld,
    cronStatus: turnClient.cronStatus,
    workerConnected: turnClient.workerConnected,
    lifecycle,
  };
  const app = createApp(services, { realtimeSql: connection.sql });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const instance = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, () => resolve(instance));
  });
  keepIdleConnections(server);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  return {
    port,
    /** Stops gracefully; resolves with how many requests were still running after the grace period (cut). */
    close: async (): Promise<{ cut: number }> => {
      clearInterval(housekeepingTimer);
      lifecycle.startDraining();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive connections with no request running go now; busy ones after their answer.
      (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      const drained = await lifecycle.idle(SHUTDOWN_GRACE_MS);
      const cut = drained ? 0 : lifecycle.inFlight;
      if (!drained) logger.warn({ cut }, `${cut} request(s) still running after ${SHUTDOWN_GRACE_MS / 1000} s: closing their connections`);
      // Realtime streams and whatever is left.
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      await closed;
      await turnClient.close();
      // The tokens' daily counts still gathered in the process (api/src/access/tokenUsage.ts).
      await flushTokenUsage(connection.db).catch((error: unknown) => logger.error({ err: error }, "writing the API tokens' counts failed"));
      await connection.close();
      return { cut };
    },
  };
}

/**
 * How long an idle keep-alive connection stays open. Node's own default (5 s) is also how long a
 * Node client (its global agent, Playwright's request context) keeps one: both ends closing at
 * about the same moment, a client's next request could go out on a connection the server was
 * closing, and fail with ECONNRESET after the player paused for about 5 s. Longer here, the client
 * closes first; browsers keep theirs longer still and resend an idempotent request on a reset.
 */
const KEEP_ALIVE_MS = 65_000;

function keepIdleConnections(server: ReturnType<typeof serve>): void {
  const http = server as unknown as { keepAliveTimeout: number; headersTimeout: number };
  http.keepAliveTimeout = KEEP_ALIVE_MS;
  // Node's rule: the headers' time limit above the keep-alive one.
  http.headersTimeout = KEEP_ALIVE_MS + 1_000;
}
