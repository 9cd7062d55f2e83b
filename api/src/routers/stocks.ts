import { getPortfolio, getStockHistory, listShareRecords, listStockOverview, listStockPrices, quoteShares, tradeShares } from '@marketcraft/db';
import { stockHistorySchema, stockQuoteSchema, stockTradeSchema } from '@marketcraft/shared';
import { playerProcedure, router } from '../trpc.ts';

export const stocksRouter = router({
  shares: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/shares', summary: 'Share records of every listed company, with book value per share and the price of one share to buy and to sell' } })
    .query(({ ctx }) => listShareRecords(ctx.db, ctx.worldId)),

  companyShares: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/company-shares', summary: 'Same as /shares (the stock page polls this one)' } })
    .query(({ ctx }) => listShareRecords(ctx.db, ctx.worldId)),

  portfolio: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/portfolio', summary: 'Shares you hold: company_id, shares_owned, average_price, current_price, value' } })
    .query(({ ctx }) => getPortfolio(ctx.db, ctx.company.id)),

  prices: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/stock-prices', summary: 'Latest and previous price per company, biggest movers first' } })
    .query(({ ctx }) => listStockPrices(ctx.db, ctx.worldId)),

  overview: playerProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/stocks/overview',
        summary: "Every listed company: price, this week's change, recent weekly prices, market value and your position (value, cost, gain); your portfolio's totals",
      },
    })
    .query(({ ctx }) => listStockOverview(ctx.db, ctx.company.id)),

  history: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/stocks/history', summary: 'Price history of one company (?company_id=N): week, price, oldest first' } })
    .input(stockHistorySchema)
    .query(({ ctx, input }) => getStockHistory(ctx.db, ctx.worldId, input.company_id)),

  trade: playerProcedure
    .meta({ access: 'trade', rest: { method: 'POST', path: '/stocks/trade', summary: 'Buy new shares from a company or sell shares back to it {company_id, shares, action}: the order walks the price curve, plus the spread' } })
    .input(stockTradeSchema)
    .mutation(({ ctx, input }) =>
      tradeShares(ctx.db, { holderCompanyId: ctx.company.id, issuerCompanyId: input.company_id, shares: input.shares, action: input.action }),
    ),

  quote: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/stocks/quote', summary: 'What a share order would cost or pay now (?company_id&shares&action), with the why' } })
    .input(stockQuoteSchema)
    .query(({ ctx, input }) => quoteShares(ctx.db, { worldId: ctx.worldId, holderCompanyId: ctx.company.id, issuerCompanyId: input.company_id, shares: input.shares, action: input.action })),
});
