/**
 * One log line per request: request id (also answered as `X-Request-Id`; a caller's own id, e.g. a
 * load balancer's, is kept when it is a plain token of at most 128 characters), method, route (the matched pattern, not the raw path,
 * so ids and query strings stay out of the log), status, duration and, once known, the user and
 * company. tRPC requests also name their procedures.
 *
 * What a request learns on the way (who called, which company) is noted against its Request object
 * (`noteRequest`), so the context and the procedures need no logger of their own; an unexpected
 * error is logged once, with its stack and the request id, where it is turned into a 500
 * (`logRequestError`).
 */
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { requestHeaderOf, withHeaders } from './fixedHeaders.ts';
import type { Logger } from '@marketcraft/db/logger.ts';

export interface RequestNotes {
  userId?: number;
  companyId?: number;
}

interface RequestRecord extends RequestNotes {
  id: string;
}

const records = new WeakMap<Request, RequestRecord>();

/** Adds what the request turned out to be (its user, its company) to its log line. */
export function noteRequest(req: Request, notes: RequestNotes): void {
  const record = records.get(req);
  if (record) Object.assign(record, notes);
}

/** The request's id, as sent in X-Request-Id (undefined outside the request log middleware). */
function requestIdOf(req: Request): string | undefined {
  return records.get(req)?.id;
}

/** Logs an unexpected error of a request once, with its stack and the request's id. */
export function logRequestError(logger: Logger, req: Request, error: unknown, what: string): void {
  logger.error({ reqId: requestIdOf(req), err: error }, `${what}: ${error instanceof Error ? error.message : String(error)}`);
}

const PLAIN_REQUEST_ID = /^[\w\-=.]{1,128}$/;

export function requestLogging(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const given = requestHeaderOf(c, 'x-request-id');
    const record: RequestRecord = { id: given && PLAIN_REQUEST_ID.test(given) ? given : crypto.randomUUID() };
    records.set(c.req.raw, record);
    // On every answer, the handlers' own Response objects (REST, tRPC) included.
    await withHeaders(c, next, [['X-Request-Id', record.id]]);
    const status = c.res.status;
    const route = routePath(c);
    const line: Record<string, unknown> = {
      reqId: record.id,
      method: c.req.method,
      route,
      status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    };
    if (route === '/api/trpc/*') line.procedures = c.req.path.slice('/api/trpc/'.length);
    if (record.userId !== undefined) line.userId = record.userId;
    if (record.companyId !== undefined) line.companyId = record.companyId;
    const message = `${c.req.method} ${route} ${status} in ${line.durationMs} ms`;
    if (status >= 500) logger.warn(line, message);
    else logger.info(line, message);
  };
}
