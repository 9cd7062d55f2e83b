/**
 * Cross-site request protection: a state-changing request (anything but GET/HEAD/OPTIONS) that
 * a browser could send on its own, with our cookie, must prove it came from our own pages.
 * - If it carries an Origin header, that origin must be the app's (PUBLIC_URL, or the Host it was
 *   sent to).
 * - If it has no Origin but carries the session cookie, it must say `Sec-Fetch-Site: same-origin`.
 * Requests authenticated by a bearer token (scripts) carry no ambient credentials and pass, from any
 * Origin (a notebook or a page of another site calling the API with its user's token, answered with
 * CORS headers: api/src/app.ts): a request with a bearer is authenticated by it alone, never by
 * the cookie it may also carry (api/src/context.ts), so a foreign page gains nothing from the
 * visitor's session.
 */
import type { MiddlewareHandler } from 'hono';
import type { ApiConfig } from './config.ts';
import { parseCookies } from './auth/cookies.ts';
import { SESSION_COOKIE_NAME } from './auth/session.ts';
import { bearerCredentialOf } from './access/credentials.ts';
import { LTI_FORM_POST_PATHS } from './lti/paths.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function allowedOrigins(config: ApiConfig, req: Request): Set<string> {
  const origins = new Set<string>();
  if (config.PUBLIC_URL) origins.add(new URL(config.PUBLIC_URL).origin);
  const host = req.headers.get('host');
  if (host) {
    const protocol = new URL(req.url).protocol;
    origins.add(`${protocol}//${host}`);
  }
  return origins;
}

export function originCheck(config: ApiConfig): MiddlewareHandler {
  return async (c, next) => {
    const req = c.req.raw;
    if (SAFE_METHODS.has(req.method)) return next();
    // A course platform's form posts (LTI 1.3): authenticated by the platform's signed token and our state.
    if (LTI_FORM_POST_PATHS.has(c.req.path)) return next();
    const origin = req.headers.get('origin');
    const hasSessionCookie = parseCookies(req.headers.get('cookie')).has(SESSION_COOKIE_NAME);
    const bearer = bearerCredentialOf(req.headers.get('authorization')) !== null;
    if (origin) {
      if (!bearer && !allowedOrigins(config, req).has(origin)) {
        return c.json({ error: 'Cross-site request refused: the Origin does not match this app' }, 403);
      }
    } else if (hasSessionCookie && !bearer && req.headers.get('sec-fetch-site') !== 'same-origin') {
      return c.json({ error: 'Cross-site request refused: the request has no Origin header' }, 403);
    }
    return next();
  };
}
