/**
 * Cross-site request protection: a state-changing request (anything but GET/HEAD/OPTIONS) that
 * a browser could send on its own, with our cookie, must prove it came from our own pages.
 * - If it carries an Origin header, that origin must be the app's (PUBLIC_URL, or the Host it was
 *   sent to).
 * - If it has no Origin but carries the session cookie, it must say `Sec-Fetch-Site: same-origin`.
 * Requests authenticated by a bearer token (scripts) carry no ambient credentials and pass.
 */
import type { MiddlewareHandler } from 'hono';
import type { ApiConfig } from './config.ts';
import { parseCookies } from './auth/cookies.ts';
import { SESSION_COOKIE_NAME } from './auth/session.ts';

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
    const origin = req.headers.get('origin');
    const hasSessionCookie = parseCookies(req.headers.get('cookie')).has(SESSION_COOKIE_NAME);
    const bearer = req.headers.get('authorization')?.toLowerCase().startsWith('bearer ') ?? false;
    if (origin) {
      if (!allowedOrigins(config, req).has(origin)) {
        return c.json({ error: 'Cross-site request refused: the Origin does not match this app.' }, 403);
      }
    } else if (hasSessionCookie && !bearer && req.headers.get('sec-fetch-site') !== 'same-origin') {
      return c.json({ error: 'Cross-site request refused: the request has no Origin header.' }, 403);
    }
    return next();
  };
}
