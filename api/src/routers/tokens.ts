/**
 * Personal access token management (the profile) and the admins' audit of the busiest tokens.
 * All session-only: a token can never list, create or revoke tokens.
 */
import { apiTokenIdInput, createApiTokenInput, MAX_ACTIVE_API_TOKENS } from '@marketcraft/shared';
import { adminProcedure, router, signedInProcedure } from '../trpc.ts';
import { apiTokenDailyUsage, createApiToken, listApiTokens, revokeApiToken } from '../access/personalTokens.ts';
import { busiestApiTokens } from '../access/audit.ts';
import { sessionBudget, tokenBudget } from '../access/rateLimit.ts';

export const tokensRouter = router({
  list: signedInProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'GET',
        path: '/tokens',
        summary: 'Your personal access tokens (never their secrets), with last use and requests today and over 7 days, and the API limits',
      },
    })
    .query(async ({ ctx }) => ({
      tokens: await listApiTokens(ctx.db, ctx.user.id),
      max_active: MAX_ACTIVE_API_TOKENS,
      limits: {
        token: { requests_per_minute: tokenBudget(ctx.config).requestsPerMinute, mutations_per_minute: tokenBudget(ctx.config).mutationsPerMinute },
        session: { requests_per_minute: sessionBudget(ctx.config).requestsPerMinute, mutations_per_minute: sessionBudget(ctx.config).mutationsPerMinute },
      },
    })),

  create: signedInProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'POST',
        path: '/tokens',
        summary: 'Create a personal access token {name, scope read|trade|manage, expires_in_days or null}; the answer holds the token, shown this once',
      },
    })
    .input(createApiTokenInput)
    .mutation(({ ctx, input }) => createApiToken(ctx.db, ctx.user.id, { name: input.name, scope: input.scope, expiresInDays: input.expires_in_days })),

  revoke: signedInProcedure
    .meta({
      access: 'session',
      rest: { method: 'DELETE', path: '/tokens/{id}', summary: 'Revoke one of your tokens: it answers 401 from its next request on' },
    })
    .input(apiTokenIdInput)
    .mutation(({ ctx, input }) => revokeApiToken(ctx.db, ctx.user.id, input.id)),

  usage: signedInProcedure
    .meta({
      access: 'session',
      rest: { method: 'GET', path: '/tokens/{id}/usage', summary: "One of your tokens' requests per UTC day over the last 30 days, oldest first" },
    })
    .input(apiTokenIdInput)
    .query(({ ctx, input }) => apiTokenDailyUsage(ctx.db, ctx.user.id, input.id)),

  busiest: adminProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'GET',
        path: '/admin/tokens/busiest',
        summary: 'The 20 busiest personal access tokens over the last 7 days, with their owner (admins only)',
      },
    })
    .query(({ ctx }) => busiestApiTokens(ctx.db)),
});
