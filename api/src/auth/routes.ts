import type { Hono } from 'hono';
import type { ApiServices } from '../context.ts';
import { createRequestContext } from '../context.ts';
import { clientIpOf } from '../clientIp.ts';

/** Sign-up, sign-in, sign-out, session and Google routes under /api/auth. (Session read only, for now.) */
export function registerAuthRoutes(app: Hono, services: ApiServices): void {
  app.get('/api/auth/session', async (c) => {
    const resHeaders = new Headers();
    const ctx = await createRequestContext(services, c.req.raw, resHeaders, clientIpOf(c));
    resHeaders.set('content-type', 'application/json; charset=utf-8');
    return new Response(JSON.stringify({ user: ctx.user }), { status: 200, headers: resHeaders });
  });
}
