/**
 * The one place tRPC is set up: context type, procedures (public, signed-in, player, admin) and the
 * mapping of game errors and validation errors to tRPC codes (and so to HTTP statuses).
 */
import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { eq, and } from 'drizzle-orm';
import { GameError, type GameErrorCode, type ProcedureAccess } from '@marketcraft/shared';
import { companies } from '@marketcraft/db';
import type { RequestContext } from './context.ts';
import { noteRequest } from './requestLog.ts';
import { guardCall } from './access/guard.ts';

export interface RestMeta {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path under /api with {param} placeholders named as the input fields they fill. */
  path: string;
  summary?: string;
}

export interface ProcedureMeta {
  rest?: RestMeta;
  /**
   * Who may call it with a personal access token: the least scope it needs ('read' for every GET
   * of one's own company and the public world, 'trade' for market, stock and store actions,
   * 'manage' for building, hiring, research, politics and the company profile), or 'session' for
   * what tokens never reach (admin, account settings, token management). docs/api.md lists them.
   */
  access: ProcedureAccess;
}

const TRPC_CODE_OF: Record<GameErrorCode, TRPCError['code']> = {
  INVALID_INPUT: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  NOT_ENOUGH_CASH: 'CONFLICT',
  NOT_ENOUGH_STOCK: 'CONFLICT',
  NOT_ENOUGH_SHARES: 'CONFLICT',
  RULE_BROKEN: 'UNPROCESSABLE_CONTENT',
  RATE_LIMITED: 'TOO_MANY_REQUESTS',
  UNAVAILABLE: 'SERVICE_UNAVAILABLE',
};

export function toTRPCError(error: GameError): TRPCError {
  return new TRPCError({ code: TRPC_CODE_OF[error.code], message: error.message, cause: error });
}

/** The message a player reads for a validation failure: the first issue, named by its field. */
export function zodErrorMessage(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid input';
  const field = issue.path.filter((part) => typeof part === 'string' || typeof part === 'number').join('.');
  return field && !issue.message.includes(field) && issue.code !== 'custom' ? `${field}: ${issue.message}` : issue.message;
}

const t = initTRPC
  .context<RequestContext>()
  .meta<ProcedureMeta>()
  .create({
    // Never send stack traces (server paths, code) to clients, whatever NODE_ENV says; unexpected
    // errors are logged on the server instead.
    isDev: false,
    errorFormatter({ shape, error }) {
      const cause = error.cause;
      if (cause instanceof ZodError) {
        return { ...shape, message: zodErrorMessage(cause), data: { ...shape.data, issues: cause.issues } };
      }
      if (error.code === 'INTERNAL_SERVER_ERROR') {
        return { ...shape, message: 'Something went wrong on our side. Please try again.' };
      }
      return shape;
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

/** Turns GameErrors thrown by operations into tRPC errors with the right code. */
const mapGameErrors = t.middleware(async ({ ctx, next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof GameError) {
    const { retryAfterSeconds } = result.error.cause;
    if (retryAfterSeconds !== undefined) ctx.resHeaders.set('retry-after', String(retryAfterSeconds));
    throw toTRPCError(result.error.cause);
  }
  return result;
});

/** Credentials, token scopes and rate limits (api/src/access/guard.ts), before any procedure runs. */
const guardAccess = t.middleware(async ({ ctx, meta, type, path, next }) => {
  const label = meta?.rest ? `${meta.rest.method} /api${meta.rest.path}` : path;
  await guardCall(ctx, { access: meta?.access, label, isMutation: type === 'mutation' });
  return next();
});

export const publicProcedure = t.procedure.use(mapGameErrors).use(guardAccess);

export const signedInProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in to continue.' });
  return next({ ctx: { user: ctx.user } });
});

/** A signed-in player with an active company: `ctx.company` is theirs. */
export const playerProcedure = signedInProcedure.use(async ({ ctx, next }) => {
  const [company] = await ctx.db
    .select({ id: companies.id, name: companies.name })
    .from(companies)
    .where(and(eq(companies.userId, ctx.user.id), eq(companies.status, 'active')));
  if (!company) throw new TRPCError({ code: 'NOT_FOUND', message: 'No company found' });
  noteRequest(ctx.req, { companyId: company.id });
  return next({ ctx: { company } });
});

export const adminProcedure = signedInProcedure.use(({ ctx, next }) => {
  if (!ctx.user.isAdmin) throw new TRPCError({ code: 'FORBIDDEN', message: 'Admins only.' });
  return next();
});
