/**
 * What every procedure call passes before it runs (a tRPC middleware in api/src/trpc.ts, so REST
 * and tRPC alike): a refused credential answers its own 401; a personal access token must have
 * the scope the procedure declares (`meta.access`, docs/api.md), and never reaches session-only
 * procedures; then the call is counted against the token's or the session's budget, the RateLimit
 * headers are set, and over the budget it answers 429 with Retry-After.
 */
import { GameError, scopeCovers, type ProcedureAccess } from '@marketcraft/shared';
import type { RequestContext } from '../context.ts';
import { countCall, rateLimitHeaders, rateLimitedMessage, sessionBudget, tokenBudget, verdictOf, type RateSubject } from './rateLimit.ts';
import { lastUseIsStale } from './personalTokens.ts';

export const SESSION_ONLY_MESSAGE = 'API tokens cannot call this: admin routes, account settings and token management need you signed in on the website';

export interface CallDescription {
  /** `meta.access` of the procedure; undefined (no declaration) is treated as session-only. */
  access: ProcedureAccess | undefined;
  /** "POST /api/market/trade" or the tRPC path. */
  label: string;
  isMutation: boolean;
}

/** The checks that need no database: a refused credential, a token's scope, the world it named. Throws the 401, 403, 400 or 404. */
export function checkCredential(ctx: RequestContext, call: CallDescription): void {
  const { credentialError, apiToken } = ctx;
  if (credentialError) {
    ctx.resHeaders.set('www-authenticate', `Bearer error="${credentialError.code}", error_description="${credentialError.reason}"`);
    throw new GameError(credentialError.status === 400 ? 'INVALID_INPUT' : 'UNAUTHORIZED', credentialError.message);
  }
  if (apiToken) {
    const access = call.access ?? 'session';
    if (access === 'session') throw new GameError('FORBIDDEN', SESSION_ONLY_MESSAGE);
    if (!scopeCovers(apiToken.scope, access)) {
      ctx.resHeaders.set('www-authenticate', `Bearer error="insufficient_scope", scope="${access}"`);
      throw new GameError(
        'FORBIDDEN',
        `This API token has the "${apiToken.scope}" scope; ${call.label} needs "${access}". Create a token with the ${access} scope on your profile.`,
      );
    }
  }
  // A world named with X-World-Id that the caller may not act in (or a malformed one): never a
  // silent answer from another world.
  if (ctx.worldRefusal) throw ctx.worldRefusal;
}

/** Counts the call against its token's or session's budget, sets the RateLimit headers, throws the 429 when over. */
export async function countAgainstBudget(ctx: RequestContext, call: CallDescription): Promise<void> {
  const { apiToken } = ctx;
  let subject: RateSubject | null = null;
  if (apiToken && ctx.user) {
    subject = { kind: 'token', tokenId: apiToken.id, userId: ctx.user.id, refreshLastUse: lastUseIsStale(apiToken.lastUsedAt, new Date()) };
  } else if (ctx.sessionId) {
    subject = { kind: 'session', sessionId: ctx.sessionId };
  }
  if (!subject) return; // anonymous: only public reads (and sign-in, throttled on its own)
  const budget = subject.kind === 'token' ? tokenBudget(ctx.config) : sessionBudget(ctx.config);
  // Counted already with the session or token check (all the request's calls at once), or counted now.
  const counted = subject.kind === 'session' ? ctx.sessionCounted : ctx.tokenCounted;
  const verdict = counted ? verdictOf(counted, budget, call.isMutation) : await countCall(ctx.db, subject, budget, call.isMutation);
  for (const [name, value] of Object.entries(rateLimitHeaders(verdict, call.isMutation))) ctx.resHeaders.set(name, value);
  if (!verdict.allowed) {
    throw new GameError('RATE_LIMITED', rateLimitedMessage(verdict, call.isMutation, subject.kind), { retryAfterSeconds: verdict.resetSeconds });
  }
}
