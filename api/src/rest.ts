/**
 * The REST surface of spec section 7: one thin route table over the tRPC procedures. Every
 * procedure whose meta has `rest` answers at that method and path under /api; the input is the
 * query string, the JSON body and the path parameters merged, and the procedure runs through a
 * server-side caller, so REST and tRPC reach the same code with the same validation.
 */
import type { Context, Hono } from 'hono';
import { TRPCError, getTRPCErrorFromUnknown, type AnyTRPCProcedure } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { ZodError } from 'zod';
import { appRouter } from './root.ts';
import { createCallerFactory, zodErrorMessage, type ProcedureMeta, type RestMeta } from './trpc.ts';
import { createRequestContext, type ApiServices } from './context.ts';
import { clientIpOf } from './clientIp.ts';
import type { Logger } from '@marketcraft/db/logger.ts';
import { logRequestError } from './requestLog.ts';
import { databaseUnavailableAnswer } from './availability.ts';

export interface RestRoute extends RestMeta {
  procedurePath: string;
  procedure: AnyTRPCProcedure;
}

function isProcedure(value: unknown): value is AnyTRPCProcedure {
  return typeof value === 'function' && (value as { _def?: { procedure?: unknown } })._def?.procedure === true;
}

/** Every procedure of a router as ["domain.name", procedure], walking the router's public record (appRouter.company.get). */
function* proceduresOf(record: object, prefix = ''): Generator<[string, AnyTRPCProcedure]> {
  for (const [key, value] of Object.entries(record)) {
    if (key === '_def' || key === 'createCaller') continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (isProcedure(value)) yield [path, value];
    else if (value && typeof value === 'object') yield* proceduresOf(value, path);
  }
}

let table: RestRoute[] | null = null;

/** The REST table: every procedure whose meta has `rest`, in the routers' order. */
export function restRoutes(): RestRoute[] {
  if (!table) {
    table = [];
    for (const [procedurePath, procedure] of proceduresOf(appRouter)) {
      const meta = (procedure as unknown as { meta?: ProcedureMeta }).meta;
      if (meta?.rest) table.push({ ...meta.rest, procedurePath, procedure });
    }
  }
  return table;
}

/**
 * Turns any error into the JSON error body and HTTP status a REST client reads: an unreachable
 * database answers 503 with Retry-After; an unexpected error is logged (once, here, with the
 * request's id) and answers a generic 500.
 */
export function restErrorResponse(error: unknown, logger: Logger, req: Request): { status: number; body: { error: string }; retryAfterSeconds?: number } {
  const unavailable = databaseUnavailableAnswer(error instanceof TRPCError ? (error.cause ?? error) : error);
  if (unavailable) return unavailable;
  const trpcError = error instanceof TRPCError ? error : getTRPCErrorFromUnknown(error);
  const status = getHTTPStatusCodeFromError(trpcError);
  if (trpcError.cause instanceof ZodError) return { status: 400, body: { error: zodErrorMessage(trpcError.cause) } };
  if (status >= 500 && trpcError.code === 'INTERNAL_SERVER_ERROR') {
    logRequestError(logger, req, trpcError.cause ?? trpcError, 'unexpected error');
    return { status: 500, body: { error: 'Something went wrong on our side. Please try again.' } };
  }
  return { status, body: { error: trpcError.message } };
}

const createCaller = createCallerFactory(appRouter);

async function readJsonBody(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'The request body must be valid JSON.' });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'The request body must be a JSON object.' });
  }
  return parsed as Record<string, unknown>;
}

export function registerRestRoutes(app: Hono, services: ApiServices): void {
  for (const route of restRoutes()) {
    const honoPath = '/api' + route.path.replace(/\{(\w+)\}/g, ':$1');
    app.on(route.method, honoPath, async (c) => {
      const resHeaders = new Headers();
      try {
        const ctx = await createRequestContext(services, c.req.raw, resHeaders, clientIpOf(c, services.config.TRUST_PROXY_HOPS));
        const body = route.method === 'GET' || route.method === 'DELETE' ? {} : await readJsonBody(c);
        const input = { ...c.req.query(), ...body, ...c.req.param() };
        const caller = createCaller(ctx) as unknown as Record<string, unknown>;
        // Walk "buildings.hireEmployees" down the caller proxy to the procedure function.
        const call = route.procedurePath.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (
          input: unknown,
        ) => Promise<unknown>;
        const output = await call(input);
        resHeaders.set('content-type', 'application/json; charset=utf-8');
        return new Response(JSON.stringify(output ?? { ok: true }), { status: 200, headers: resHeaders });
      } catch (error) {
        const { status, body, retryAfterSeconds } = restErrorResponse(error, services.logger, c.req.raw);
        resHeaders.set('content-type', 'application/json; charset=utf-8');
        if (retryAfterSeconds !== undefined) resHeaders.set('retry-after', String(retryAfterSeconds));
        return new Response(JSON.stringify(body), { status, headers: resHeaders });
      }
    });
  }
}
