import { foundCompany, getCompany, getFinancialHistory, listCompanies, updateCompanyProfile } from '@marketcraft/db';
import { foundCompanySchema, updateProfileSchema } from '@marketcraft/shared';
import { playerProcedure, router, signedInProcedure } from '../trpc.ts';
import { companiesActingThroughApi } from '../access/audit.ts';

export const companyRouter = router({
  get: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/company', summary: "The player's company: id, name, bio, cash, founded_at, is_bot, status, share price, net worth, and negative_turns of bankruptcy_turns (turns in a row ending with negative cash)" } })
    .query(({ ctx }) => getCompany(ctx.db, ctx.company.id)),

  found: signedInProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'POST',
        path: '/company',
        summary: 'Found a new company ($100,000 starting cash) when you have no active company, e.g. after bankruptcy; 409 if you have one',
      },
    })
    .input(foundCompanySchema)
    .mutation(({ ctx, input }) => foundCompany(ctx.db, { worldId: ctx.worldId, userId: ctx.user.id, email: ctx.user.email, name: input.name })),

  financialHistory: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/company/financial-history', summary: 'Cash change per turn {week, amount, cash_after}, oldest first, last 52' } })
    .query(({ ctx }) => getFinancialHistory(ctx.db, ctx.company.id)),

  updateProfile: playerProcedure
    .meta({ access: 'manage', rest: { method: 'PATCH', path: '/company/profile', summary: 'Update the company name and bio {name, bio or null}' } })
    .input(updateProfileSchema)
    .mutation(({ ctx, input }) => updateCompanyProfile(ctx.db, ctx.company.id, input)),

  list: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/companies', summary: 'Every active company, ranked by net worth (the leaderboard)' } })
    .query(async ({ ctx }) => {
      const [ranked, viaApi] = await Promise.all([listCompanies(ctx.db, ctx.worldId, ctx.company.id), companiesActingThroughApi(ctx.db)]);
      // uses_api: a personal access token acted for the company in the last 7 days (the "API" badge).
      return ranked.map((company) => ({ ...company, uses_api: viaApi.has(company.id) }));
    }),
});
