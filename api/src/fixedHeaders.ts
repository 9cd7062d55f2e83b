/**
 * Headers that do not depend on the answer (the security headers, CORS on simple API requests)
 * are decided once, by the maintained middlewares that own them, and then written on every answer
 * before its handler runs.
 *
 * Why not run `secureHeaders()` and `cors()` on each request as they are: both set their headers
 * after the handler, on the Response it returned (`c.res.headers.set`). Under @hono/node-server a
 * Response a handler builds from a string is written straight to the socket, unless its headers
 * are touched afterwards: then the adapter rebuilds it as a full fetch Response and streams its
 * body. Measured on this 2-core machine (bench:api, docs/architecture.md "Speed of the API"): the
 * two middlewares and a request id set after the handler cut a bare route from 41,000 to 10,000
 * requests a second. The values are the same as the middlewares', read from them once
 * (`probeHeaders`), so a change of options or a new version of Hono still decides them.
 *
 * Under @hono/node-server (the API server and the tests) the headers are set on Node's
 * ServerResponse, which merges them into the answer when it is written; a handler's own header of
 * the same name takes precedence (none of ours sets these). Elsewhere (no Node response: `app.request`)
 * they are set on the Response after the handler, as the middlewares would.
 */
import type { ServerResponse } from 'node:http';
import { Hono, type Context, type MiddlewareHandler } from 'hono';

export type HeaderList = [name: string, value: string][];

/** The headers `middleware` adds to an answer to `GET path` with `requestHeaders`, read from a throwaway app. */
async function probeHeaders(middleware: MiddlewareHandler, requestHeaders: Record<string, string> = {}): Promise<HeaderList> {
  const probe = new Hono();
  probe.use(middleware);
  probe.get('*', () => new Response(null, { status: 204 }));
  const answer = await probe.request('/', { headers: requestHeaders });
  return [...answer.headers.entries()];
}

/** The Node response of the request when served by @hono/node-server. */
function nodeResponseOf(c: Context): ServerResponse | undefined {
  return (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
}

/** A request header, read from Node's parsed headers when there are (no fetch Request is built for it). */
export function requestHeaderOf(c: Context, name: string): string | undefined {
  const incoming = (c.env as { incoming?: { headers: Record<string, string | string[] | undefined> } } | undefined)?.incoming;
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Sets `headers` on the answer: before the handler on Node's response, else after it on the Response. */
export async function withHeaders(c: Context, next: () => Promise<void>, headers: HeaderList): Promise<void> {
  const outgoing = nodeResponseOf(c);
  if (outgoing) {
    for (const [name, value] of headers) outgoing.setHeader(name, value);
    return next();
  }
  await next();
  for (const [name, value] of headers) c.res.headers.set(name, value);
}

/**
 * `middleware`'s headers on every answer, decided once from the middleware itself. The first
 * request waits for the probe (a few microseconds, once).
 */
export function fixedHeaders(middleware: MiddlewareHandler, requestHeaders?: Record<string, string>): MiddlewareHandler {
  const probed = probeHeaders(middleware, requestHeaders);
  let headers: HeaderList | null = null;
  return async (c, next) => {
    headers ??= await probed;
    return withHeaders(c, next, headers);
  };
}
