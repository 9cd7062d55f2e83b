/**
 * The one place tRPC is set up: context type, procedures (public, signed-in, player, admin) and the
 * mapping of game errors and validation errors to tRPC codes (and so to HTTP statuses).
 */
import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { eq, and } from 'drizzle-orm';
import { GameError, PUBLIC_WORLD_ID, worldIdInput, type GameErrorCode, type ProcedureAccess } from '@marketcraft/shared';
import {
  WORLD_ENDED,
  companies,
  holdWorldOpen,
  isLoggedRefusal,
  memberCompanyIdSql,
  requireInstructor,
  worlds,
  type ActionRequest,
  type Database,
} from '@marketcraft/db';
import type { RequestContext } from './context.ts';
import { noteRequest } from './requestLog.ts';
import { checkCredential, countAgainstBudget } from './access/guard.ts';
import { databaseUnavailableAnswer } from './availability.ts';

export interface RestMeta {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path under /api with {param} placeholders named as the input fields they fill. */
  path: string;
  summary?: string;
  /** Answers 201 Created (a POST that creates a resource the spec answers 201 for). */
  created?: boolean;
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

/**
 * The message a player reads for a validation failure: the first issue's message, as it is. Each is
 * one sentence already: the schema's own words (the spec's, verbatim: 'Please enter a number between
 * 1 and 10'), or, where a schema gives none, fieldMessage's, which names the field ('quantity must be
 * at least 1'). No 'field: ' prefix: it turned the spec's messages into 'count: Please enter ...'.
 */
export function zodErrorMessage(error: ZodError): string {
  return error.issues[0]?.message ?? 'The request is not valid';
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
      const unavailable = databaseUnavailableAnswer(cause);
      if (unavailable) {
        return { ...shape, message: unavailable.body.error, data: { ...shape.data, code: 'SERVICE_UNAVAILABLE' as const, httpStatus: unavailable.status } };
      }
      if (error.code === 'INTERNAL_SERVER_ERROR') {
        return { ...shape, message: 'Something went wrong on our side. Please try again.' };
      }
      return shape;
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

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

/**
 * Credentials, token scopes and rate limits (api/src/access/guard.ts). A mutation runs only after
 * its call is counted within budget. A query changes nothing, so it runs while its call is counted
 * (one database round trip less per read) and its answer is replaced by the 429 when the count
 * says over budget: the caller sees the same as if it had been refused first.
 */
const guardAccess = t.middleware(async ({ ctx, meta, type, path, next }) => {
  const label = meta?.rest ? `${meta.rest.method} /api${meta.rest.path}` : path;
  const call = { access: meta?.access, label, isMutation: type === 'mutation' };
  checkCredential(ctx, call);
  if (call.isMutation) {
    await countAgainstBudget(ctx, call);
    return next();
  }
  const counting = countAgainstBudget(ctx, call);
  // Awaited below whatever the query does; this only keeps an early rejection from being reported as unhandled.
  counting.catch(() => {});
  const result = await next();
  await counting;
  return result;
});

/**
 * A mutation's statements go to the database for writes (ApiServices.writeDb): a write can wait for
 * a row lock (a turn holds its companies' rows until it commits), and on the reads' small pipelined
 * pool the reads queued behind it would wait with it.
 */
const writesOnTheirPool = t.middleware(({ ctx, type, next }) =>
  type === 'mutation' && ctx.writeDb && ctx.db !== ctx.writeDb ? next({ ctx: { db: ctx.writeDb } }) : next(),
);

export const publicProcedure = t.procedure.use(mapGameErrors).use(guardAccess).use(writesOnTheirPool);

export const signedInProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in to continue' });
  return next({ ctx: { user: ctx.user } });
});

/** A signed-in player with an active company in the current world: `ctx.company` is theirs. */
export const playerProcedure = signedInProcedure.use(async ({ ctx, next, type }) => {
  // The session check reads the company with the session (one round trip); other credentials do not.
  const company =
    ctx.activeCompany !== undefined
      ? ctx.activeCompany
      : (
          await ctx.db
            .select({ id: companies.id, name: companies.name, worldId: companies.worldId, worldStatus: worlds.status })
            .from(companies)
            .innerJoin(worlds, eq(worlds.id, companies.worldId))
            .where(and(eq(companies.worldId, ctx.worldId), eq(companies.id, memberCompanyIdSql(ctx.worldId, ctx.user.id))))
        )[0];
  if (!company) throw new TRPCError({ code: 'NOT_FOUND', message: 'No company found' });
  // An ended world is read-only: its players still read everything, change nothing.
  if (type === 'mutation' && company.worldStatus === 'ended') throw new TRPCError({ code: 'CONFLICT', message: WORLD_ENDED });
  noteRequest(ctx.req, { companyId: company.id });
  // `inTransaction`: the action runs inside this request's transaction (it cannot go together with
  // other requests' in one of their own: actTogether).
  const run = (db: Database, inTransaction: boolean) => next({ ctx: { company, db, inTransaction } });
  if (type !== 'mutation' || company.worldId === PUBLIC_WORLD_ID) return run(ctx.db, false);
  // A private world can be ended while this action runs (the check above read it before): the
  // action runs in one transaction that first holds the world open (holdWorldOpen, docs/worlds.md),
  // so it commits before the end or answers 409 after it. Its own transactions become savepoints.
  let failed: Awaited<ReturnType<typeof run>> | null = null;
  return ctx.db
    .transaction(async (tx) => {
      await holdWorldOpen(tx, company.worldId);
      const answer = await run(tx as unknown as Database, true);
      // A refusal through the action door (act) already undid its writes and logged its request:
      // commit the log entry and answer the refusal.
      if (!answer.ok && !isLoggedRefusal(answer.error.cause)) {
        // A failed action writes nothing: roll back, then answer its error as usual.
        failed = answer;
        throw new Error('rolled back: the action failed');
      }
      return answer;
    })
    .catch((error: unknown) => {
      if (failed) return failed;
      throw error;
    });
});

/**
 * A route of a world's instructors (and site admins), its world the `id` of the path: anyone else is
 * refused (403, or 404 for a private world they are not in) before the body is validated, so a
 * student's bad body gets the same 403 as a good one, never a 400 that answers for the route. The
 * operation checks again (it is also called from elsewhere); a bad id is left to the input's 400.
 */
export const instructorProcedure = signedInProcedure.use(async ({ ctx, next, getRawInput }) => {
  const world = worldIdInput.safeParse(await getRawInput());
  if (world.success) await requireInstructor(ctx.db, ctx.user, world.data.id);
  return next();
});

export const adminProcedure = signedInProcedure.use(({ ctx, next }) => {
  if (!ctx.user.isAdmin) throw new TRPCError({ code: 'FORBIDDEN', message: 'Admins only' });
  return next();
});

/** A player's request as the action table takes it (db/src/game/actions.ts): their company acts, they sent it. */
export function playerRequest<I>(ctx: { company: { id: number }; user: { id: number } }, input: I): ActionRequest<I> {
  return { companyId: ctx.company.id, actingUserId: ctx.user.id, input };
}
