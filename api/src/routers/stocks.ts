import { getPortfolio, getStockHistory, listShareRecords, listStockOverview, listStockPrices, quoteShares, act, actTogether } from '@marketcraft/db';
import { companyListInput, stockHistorySchema, stockOverviewInput, stockTradeSchema } from '@marketcraft/shared';
import { playerProcedure, playerRequest, router } from '../trpc.ts';
import { announcePage } from '../paging.ts';

const PAGE_SUMMARY = 'one page (?limit, default 500, at most 1000; ?offset; ?search part of the name; ?company_id one company), X-Total-Count and Link headers';

export const stocksRouter = router({
  shares: playerProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/shares',
        summary: `Share records of the listed companies by name, with book value per share and the price of one share to buy and to sell: ${PAGE_SUMMARY}`,
      },
    })
    .input(companyListInput)
    .query(async ({ ctx, input }) => {
      const page = await listShareRecords(ctx.db, ctx.worldId, input);
      announcePage(ctx, page.total, input);
      return page.rows;
    }),

  companyShares: playerProcedure
    .meta({
      access: 'read',
      rest: { method: 'GET', path: '/company-shares', summary: 'Same as /shares (the stock page polls this one for its selected company)' },
    })
    .input(companyListInput)
    .query(async ({ ctx, input }) => {
      const page = await listShareRecords(ctx.db, ctx.worldId, input);
      announcePage(ctx, page.total, input);
      return page.rows;
    }),

  portfolio: playerProcedure
    .meta({
      access: 'read',
      rest: { method: 'GET', path: '/portfolio', summary: 'Shares you hold: company_id, shares_owned, average_price, current_price, value' },
    })
    .query(({ ctx }) => getPortfolio(ctx.db, ctx.company.id)),

  prices: playerProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/stock-prices',
        summary: `Latest and previous recorded price per listed company, biggest movers first (then name, id): ${PAGE_SUMMARY}`,
      },
    })
    .input(companyListInput)
    .query(async ({ ctx, input }) => {
      const page = await listStockPrices(ctx.db, ctx.worldId, input);
      announcePage(ctx, page.total, input);
      return page.rows;
    }),

  overview: playerProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/stocks/overview',
        summary: `The listed companies: price, this week's change, recent weekly prices, market value and your position (value, cost, gain); your portfolio's totals. ${PAGE_SUMMARY[0]!.toUpperCase()}${PAGE_SUMMARY.slice(1)}; total, limit and offset in the body; ?sort=company_name|share_price|change_percent|market_cap&order=asc|desc`,
      },
    })
    .input(stockOverviewInput)
    .query(async ({ ctx, input }) => {
      const overview = await listStockOverview(ctx.db, ctx.company.id, input);
      announcePage(ctx, overview.total, input);
      return overview;
    }),

  history: playerProcedure
    .meta({
      access: 'read',
      rest: { method: 'GET', path: '/stocks/history', summary: 'Price history of one company (?company_id=N): week, price, oldest first' },
    })
    .input(stockHistorySchema)
    .query(({ ctx, input }) => getStockHistory(ctx.db, ctx.worldId, input.company_id)),

  trade: playerProcedure
    .meta({
      access: 'trade',
      rest: {
        method: 'POST',
        path: '/stocks/trade',
        summary: 'Buy new shares from a company or sell shares back to it {company_id, shares, action}: the order walks the price curve, plus the spread',
      },
    })
    .input(stockTradeSchema)
    // As market trades: the public world's go together, one commit per batch (actTogether).
    .mutation(({ ctx, input }) =>
      ctx.inTransaction
        ? act(ctx.db, 'tradeShares', playerRequest(ctx, input))
        : actTogether(ctx.db, 'tradeShares', ctx.company.worldId, playerRequest(ctx, input)),
    ),

  quote: playerProcedure
    .meta({
      access: 'read',
      rest: { method: 'GET', path: '/stocks/quote', summary: 'What a share order would cost or pay now (?company_id&shares&action), with the why' },
    })
    .input(stockTradeSchema) // a quote takes the same fields as the trade
    .query(({ ctx, input }) =>
      quoteShares(ctx.db, {
        worldId: ctx.worldId,
        holderCompanyId: ctx.company.id,
        issuerCompanyId: input.company_id,
        shares: input.shares,
        action: input.action,
      }),
    ),
});
