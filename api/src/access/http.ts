/** HTTP-level rules of the official API that run before any route. */
import type { MiddlewareHandler } from 'hono';
import { TOKEN_IN_URL_MESSAGE, urlCarriesToken } from './credentials.ts';

/** A token in the query string is refused (400) whatever the route: it would end up in logs. */
export function refuseTokensInUrl(): MiddlewareHandler {
  return async (c, next) => {
    if (!c.req.url.includes('?') || !urlCarriesToken(new URL(c.req.url))) return next();
    c.header('www-authenticate', 'Bearer error="invalid_request", error_description="token in URL"');
    return c.json({ error: TOKEN_IN_URL_MESSAGE }, 400);
  };
}
