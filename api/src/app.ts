/** The HTTP application: auth routes, tRPC, the REST table, API docs and the built web app. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { appRouter } from './root.ts';
import { createRequestContext, type ApiServices } from './context.ts';
import { registerRestRoutes, restMethodsAt } from './rest.ts';
import { originCheck } from './origin.ts';
import { refuseTokensInUrl } from './access/http.ts';
import { WORLD_ID_HEADER } from './access/tokenWorld.ts';
import { clientIpOf, warnOfUndeclaredProxy } from './clientIp.ts';
import { registerWorldExportRoutes } from './worldExports.ts';
import { registerGradebookCsvRoute } from './gradebookCsv.ts';
import { registerDataFileRoutes } from './dataFiles.ts';
import { registerAuthRoutes } from './auth/routes.ts';
import { registerLtiRoutes } from './lti/routes.ts';
import { registerDocsRoutes } from './openapi.ts';
import { registerRealtimeRoutes } from './realtime.ts';
import { logRequestError, requestLogging } from './requestLog.ts';
import type postgres from 'postgres';
import { MAX_TRPC_BATCH_CALLS } from '@marketcraft/shared';
import { securityHeaders } from './securityHeaders.ts';
import { fixedHeaders } from './fixedHeaders.ts';
import { UNAVAILABLE_RETRY_AFTER_SECONDS, databaseUnavailableAnswer, sendUnavailable, trackRequests } from './availability.ts';
import { checkHealth } from './health.ts';

/** Files under /assets/ carry a content hash in their name (Vite): a new build gets new names. */
const HASHED_ASSET_PATH = /^\/assets\/[^/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9.]+$/;

/**
 * A hashed asset never changes, so the browser keeps it a year without asking again; everything
 * else (index.html, which names the current hashed files, and the unhashed files of web/public)
 * is revalidated on each visit, so a release is seen at the next load.
 */
function setWebCacheControl(c: Context) {
  c.header('Cache-Control', HASHED_ASSET_PATH.test(c.req.path) ? 'public, max-age=31536000, immutable' : 'no-cache');
}

/** The largest request body the API reads (tRPC batches included). */
const MAX_REQUEST_BODY_BYTES = 64 * 1024;

/**
 * One tRPC request carries at most MAX_TRPC_BATCH_CALLS procedure calls ("/api/trpc/a,b,c?batch=1"):
 * a bigger batch answers 400 with a message that says the limit, before any call runs.
 */
/** How many procedure calls a tRPC request makes: "/api/trpc/a,b,c?batch=1" makes 3, an unbatched one 1. */
function trpcCallsOf(path: string, batched: boolean): number {
  return batched ? path.slice('/api/trpc/'.length).split(',').length : 1;
}

function limitTrpcBatches(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.query('batch') === '1') {
      const calls = trpcCallsOf(c.req.path, true);
      if (calls > MAX_TRPC_BATCH_CALLS) {
        return c.json({ error: `A batch can hold at most ${MAX_TRPC_BATCH_CALLS} calls; this one has ${calls}. Send them in several requests.` }, 400);
      }
    }
    await next();
  };
}

/** `realtimeSql`: the postgres.js client GET /api/realtime LISTENs with (the route exists only when given). */
export function createApp(services: ApiServices, options: { realtimeSql?: postgres.Sql } = {}): Hono {
  const app = new Hono();
  app.use(requestLogging(services.logger));
  app.use(warnOfUndeclaredProxy(services.logger, services.config.TRUST_PROXY_HOPS));
  app.use(securityHeaders());
  if (services.lifecycle) app.use(trackRequests(services.lifecycle));
  // Errors no route handled itself: an unreachable database is a 503, anything else our fault.
  app.onError((error, c) => {
    const unavailable = databaseUnavailableAnswer(error);
    if (unavailable) return sendUnavailable(c, unavailable);
    logRequestError(services.logger, c.req.raw, error, 'unexpected error');
    return c.json({ error: 'Something went wrong on our side. Please try again.' }, 500);
  });
  // Every request body of the API is a small JSON object: refuse big ones before reading them.
  // GET and HEAD bodies are never read (asking for one would build a fetch Request on each read).
  const bodyTooLarge = (c: Context) => c.json({ error: `The request body is too large (at most ${MAX_REQUEST_BODY_BYTES / 1024} KB)` }, 413);
  const limitBody = bodyLimit({ maxSize: MAX_REQUEST_BODY_BYTES, onError: bodyTooLarge });
  app.use('/api/*', async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    // With a Content-Length the size is known before reading, and Node's parser reads no more than
    // it says. bodyLimit would still look at the body, which makes @hono/node-server build a fetch
    // Request and lose its direct read of the body (~8% of a trade's CPU in bench:api); it is left
    // for bodies sent in chunks, whose size is known only by reading them.
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      return Number(length) > MAX_REQUEST_BODY_BYTES ? bodyTooLarge(c) : next();
    }
    return limitBody(c, next);
  });
  // Scripts in other origins (a teacher's notebook, a player's page) may call the API with a bearer
  // token: CORS without credentials, so a browser never sends or exposes the visitor's cookie
  // session to another site (origin.ts lets bearer requests through, refuses foreign cookie ones).
  const corsRules = cors({
    origin: '*',
    allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    // X-World-Id: the world a token acts in (api/src/access/tokenWorld.ts).
    // Range and If-None-Match: the open data files (api/src/dataFiles.ts; DuckDB reads Parquet by ranges).
    allowHeaders: ['Authorization', 'Content-Type', WORLD_ID_HEADER, 'Range', 'If-None-Match'],
    // X-Total-Count and Link: the pages of the lists of companies (api/src/paging.ts).
    exposeHeaders: [
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'RateLimit-Policy',
      'RateLimit',
      'Retry-After',
      'X-Request-Id',
      'X-Total-Count',
      'Link',
      // The open data files: their checksum and ranges.
      'ETag',
      'Content-Range',
      'Accept-Ranges',
      'Content-Length',
      'Content-Disposition',
    ],
    maxAge: 600,
  });
  // Preflights are answered by cors() itself; every other answer gets its headers (the same for
  // any Origin, as origin is '*') decided once (api/src/fixedHeaders.ts).
  const corsOnAnswers = fixedHeaders(corsRules, { origin: 'https://example.com' });
  app.use('/api/*', (c, next) => (c.req.method === 'OPTIONS' ? corsRules(c, next) : corsOnAnswers(c, next)));
  app.use('/api/*', originCheck(services.config));
  app.use('/api/*', refuseTokensInUrl());
  app.get('/api/health', async (c) => {
    const { status, body } = await checkHealth(services);
    if (status === 503) c.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    return c.json(body, status);
  });

  registerAuthRoutes(app, services);
  registerLtiRoutes(app, services);

  app.use('/api/trpc/*', limitTrpcBatches());
  app.all('/api/trpc/*', (c) =>
    fetchRequestHandler({
      endpoint: '/api/trpc',
      req: c.req.raw,
      router: appRouter,
      maxBatchSize: MAX_TRPC_BATCH_CALLS,
      // The request's calls (a batch's number of calls; mutations come by POST) are counted against
      // the session's budget with the session check.
      createContext: ({ req, resHeaders }) =>
        createRequestContext(services, req, resHeaders, clientIpOf(c, services.config.TRUST_PROXY_HOPS), {
          calls: trpcCallsOf(c.req.path, c.req.query('batch') === '1'),
          isMutation: req.method === 'POST',
        }),
      onError: ({ error, path: procedurePath, req }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR' && !databaseUnavailableAnswer(error.cause)) {
          logRequestError(services.logger, req, error.cause ?? error, `${procedurePath ?? '?'} failed`);
        }
      },
      // An unreachable database (in the context or a procedure) answers 503 with Retry-After, not 500.
      responseMeta: ({ errors }) =>
        errors.some((error) => databaseUnavailableAnswer(error.cause))
          ? { status: 503, headers: new Headers({ 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) }) }
          : {},
    }),
  );

  if (options.realtimeSql) registerRealtimeRoutes(app, options.realtimeSql, services);
  registerWorldExportRoutes(app, services);
  registerGradebookCsvRoute(app, services);
  registerDataFileRoutes(app, services);
  registerRestRoutes(app, services);
  registerDocsRoutes(app);
  app.all('/api/*', (c) => {
    // A known path with another method is a 405 naming the methods it takes (RFC 9110's Allow), so a
    // script that guessed PUT for a PATCH route hears what to send instead of "no such route".
    const allowed = restMethodsAt(c.req.path);
    if (allowed.length > 0) {
      c.header('Allow', allowed.join(', '));
      return c.json({ error: `${c.req.method} is not allowed on ${c.req.path}: it takes ${allowed.join(' or ')}` }, 405);
    }
    return c.json({ error: `No such API route: ${c.req.method} ${c.req.path}` }, 404);
  });

  const webDist = services.config.WEB_DIST_DIR;
  if (webDist && existsSync(path.join(webDist, 'index.html'))) {
    const root = path.relative(process.cwd(), webDist) || '.';
    // The build writes a .br and a .gz beside each text file (web/vite.config.ts); `precompressed`
    // sends the one the browser accepts, with Content-Encoding and Vary: Accept-Encoding.
    app.use('/*', serveStatic({ root, precompressed: true, onFound: (_file, c) => setWebCacheControl(c) }));
    // A script of an older build that is gone: a 404, not the app shell (which a browser would
    // refuse as a script, and might keep under the asset's long cache).
    app.get('/assets/*', (c) => c.text('Not found', 404));
    // Client-side routes (/market, /buildings/3, ...) get the app shell.
    app.get('*', serveStatic({ root, path: 'index.html', precompressed: true, onFound: (_file, c) => void c.header('Cache-Control', 'no-cache') }));
  }
  return app;
}
