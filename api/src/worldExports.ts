/**
 * GET /api/worlds/{id}/export/{kind}.csv: the instructor's CSV downloads as files (text/csv with a
 * file name), from the same procedure as the JSON route GET /api/worlds/{id}/export/{kind}, so the
 * access rules (instructors and admins only, 404 for outsiders) are that procedure's.
 */
import type { Hono } from 'hono';
import { WORLD_EXPORTS } from '@marketcraft/shared';
import { createRequestContext, type ApiServices } from './context.ts';
import { clientIpOf } from './clientIp.ts';
import { appRouter } from './root.ts';
import { restErrorResponse } from './rest.ts';

export function registerWorldExportRoutes(app: Hono, services: ApiServices): void {
  app.get('/api/worlds/:id/export/:file{[a-z]+\\.csv}', async (c) => {
    const resHeaders = new Headers();
    try {
      const kind = c.req.param('file').replace(/\.csv$/, '') as (typeof WORLD_EXPORTS)[number];
      const ctx = await createRequestContext(services, c.req.raw, resHeaders, clientIpOf(c, services.config.TRUST_PROXY_HOPS));
      const { filename, csv } = await appRouter.createCaller(ctx).worlds.export({ id: c.req.param('id'), kind } as never);
      resHeaders.set('content-type', 'text/csv; charset=utf-8');
      resHeaders.set('content-disposition', `attachment; filename="${filename}"`);
      return new Response(csv, { status: 200, headers: resHeaders });
    } catch (error) {
      const { status, body, retryAfterSeconds } = restErrorResponse(error, services.logger, c.req.raw);
      resHeaders.set('content-type', 'application/json; charset=utf-8');
      if (retryAfterSeconds !== undefined) resHeaders.set('retry-after', String(retryAfterSeconds));
      return new Response(JSON.stringify(body), { status, headers: resHeaders });
    }
  });
}
