import { foundCompany, getCompany, getFinancialHistory, rankCompanies, act, type DbExecutor, type PublicCompany } from '@marketcraft/db';
import { companyListInput, foundCompanySchema, updateProfileSchema, type CompanyListPage } from '@marketcraft/shared';
import { playerProcedure, playerRequest, router, signedInProcedure } from '../trpc.ts';
import { companiesActingThroughApi } from '../access/audit.ts';
import { announcePage } from '../paging.ts';
import type { RequestContext } from '../context.ts';

/** uses_api: a personal access token acted for the company in the last 7 days (the leaderboard's "API" badge). */
async function apiBadges(db: DbExecutor): Promise<(company: PublicCompany) => PublicCompany & { uses_api: boolean }> {
  const viaApi = await companiesActingThroughApi(db);
  return (company) => ({ ...company, uses_api: viaApi.has(company.id) });
}

/** A page of the leaderboard with its API badges; X-Total-Count and Link on a REST answer. */
async function rankedPage(ctx: Pick<RequestContext, 'req' | 'resHeaders' | 'worldId'> & { db: DbExecutor; company: { id: number } }, input: CompanyListPage) {
  const [ranked, badge] = await Promise.all([rankCompanies(ctx.db, ctx.worldId, ctx.company.id, input), apiBadges(ctx.db)]);
  announcePage(ctx, ranked.total, input);
  return { rows: ranked.rows.map(badge), total: ranked.total, you: ranked.you ? badge(ranked.you) : null };
}

export const companyRouter = router({
  get: playerProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/company',
        summary:
          "The player's company: id, name, bio, cash, founded_at, is_bot, status, share price, net worth, and negative_turns of bankruptcy_turns (turns in a row ending with negative cash)",
      },
    })
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
    .mutation(({ ctx, input }) =>
      foundCompany(ctx.db, { worldId: ctx.worldId, userId: ctx.user.id, isAdmin: ctx.user.isAdmin, email: ctx.user.email, name: input.name }),
    ),

  financialHistory: playerProcedure
    .meta({
      access: 'read',
      rest: { method: 'GET', path: '/company/financial-history', summary: 'Cash change per turn {week, amount, cash_after}, oldest first, last 52' },
    })
    .query(({ ctx }) => getFinancialHistory(ctx.db, ctx.company.id)),

  updateProfile: playerProcedure
    .meta({ access: 'manage', rest: { method: 'PATCH', path: '/company/profile', summary: 'Update the company name and bio {name, bio or null}' } })
    .input(updateProfileSchema)
    .mutation(({ ctx, input }) => act(ctx.db, 'updateCompanyProfile', playerRequest(ctx, input))),

  list: playerProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/companies',
        summary:
          'The active companies ranked by net worth (the leaderboard), richest first, ties by id: one page (?limit, default 500, at most 1000; ?offset; ?search part of the name), X-Total-Count and Link headers',
      },
    })
    .input(companyListInput)
    .query(async ({ ctx, input }) => (await rankedPage(ctx, input)).rows),

  leaderboard: playerProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/leaderboard',
        summary: 'The same page as /companies with its place in the whole list {companies, total, limit, offset}, and your own company wherever it ranks (you)',
      },
    })
    .input(companyListInput)
    .query(async ({ ctx, input }) => {
      const page = await rankedPage(ctx, input);
      return { companies: page.rows, total: page.total, limit: input.limit, offset: input.offset, you: page.you };
    }),
});
