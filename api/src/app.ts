/** The HTTP application: auth routes, tRPC, the REST table, API docs and the built web app. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { bodyLimit } from 'hono/body-limit';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { appRouter } from './root.ts';
import { createRequestContext, type ApiServices } from './context.ts';
import { registerRestRoutes } from './rest.ts';
import { originCheck } from './origin.ts';
import { refuseTokensInUrl } from './access/http.ts';
import { clientIpOf } from './clientIp.ts';
import { registerAuthRoutes } from './auth/routes.ts';
import { registerDocsRoutes } from './openapi.ts';
import { registerRealtimeRoutes } from './realtime.ts';
import { logRequestError, requestLogging } from './requestLog.ts';
import type postgres from 'postgres';

/** The largest request body the API reads (tRPC batches included). */
export const MAX_REQUEST_BODY_BYTES = 64 * 1024;

/** `realtimeSql`: the postgres.js client GET /api/realtime LISTENs with (the route exists only when given). */
export function createApp(services: ApiServices, options: { realtimeSql?: postgres.Sql } = {}): Hono {
  const app = new Hono();
  app.use(requestLogging(services.logger));
  // Every request body of the API is a small JSON object: refuse big ones before reading them.
  app.use(
    '/api/*',
    bodyLimit({ maxSize: MAX_REQUEST_BODY_BYTES, onError: (c) => c.json({ error: `The request body is too large (at most ${MAX_REQUEST_BODY_BYTES / 1024} KB).` }, 413) }),
  );
  app.use('/api/*', originCheck(services.config));
  app.use('/api/*', refuseTokensInUrl());
  app.get('/api/health', (c) => c.json({ ok: true }));

  registerAuthRoutes(app, services);

  app.all('/api/trpc/*', (c) =>
    fetchRequestHandler({
      endpoint: '/api/trpc',
      req: c.req.raw,
      router: appRouter,
      createContext: ({ req, resHeaders }) => createRequestContext(services, req, resHeaders, clientIpOf(c, services.config.TRUST_PROXY_HOPS)),
      onError: ({ error, path: procedurePath, req }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') logRequestError(services.logger, req, error.cause ?? error, `${procedurePath ?? '?'} failed`);
      },
    }),
  );

  if (options.realtimeSql) registerRealtimeRoutes(app, options.realtimeSql, services.logger);
  registerRestRoutes(app, services);
  registerDocsRoutes(app);
  app.all('/api/*', (c) => c.json({ error: `No such API route: ${c.req.method} ${c.req.path}` }, 404));

  const webDist = services.config.WEB_DIST_DIR;
  if (webDist && existsSync(path.join(webDist, 'index.html'))) {
    const root = path.relative(process.cwd(), webDist) || '.';
    app.use('/*', serveStatic({ root }));
    // Client-side routes (/market, /buildings/3, ...) get the app shell.
    const indexHtml = readFile(path.join(webDist, 'index.html'), 'utf8');
    app.get('*', async (c) => c.html(await indexHtml));
  }
  return app;
}
