import { getPortfolio, getStockHistory, listShareRecords, listStockPrices, tradeShares } from '@marketcraft/db';
import { stockHistorySchema, stockTradeSchema } from '@marketcraft/shared';
import { playerProcedure, router } from '../trpc.ts';

export const stocksRouter = router({
  shares: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/shares', summary: 'Share records of every listed company, with shares_available' } })
    .query(({ ctx }) => listShareRecords(ctx.db)),

  companyShares: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/company-shares', summary: 'Same as /shares (the stock page polls this one)' } })
    .query(({ ctx }) => listShareRecords(ctx.db)),

  portfolio: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/portfolio', summary: 'Shares you hold: company_id, shares_owned, average_price, current_price, value' } })
    .query(({ ctx }) => getPortfolio(ctx.db, ctx.company.id)),

  prices: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/stock-prices', summary: 'Latest and previous price per company, biggest movers first' } })
    .query(({ ctx }) => listStockPrices(ctx.db)),

  history: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/stocks/history', summary: 'Price history of one company (?company_id=N): week, price, oldest first' } })
    .input(stockHistorySchema)
    .query(({ ctx, input }) => getStockHistory(ctx.db, input.company_id)),

  trade: playerProcedure
    .meta({ access: 'trade', rest: { method: 'POST', path: '/stocks/trade', summary: 'Buy or sell shares {company_id, shares, action buy or sell} at the current share price' } })
    .input(stockTradeSchema)
    .mutation(({ ctx, input }) =>
      tradeShares(ctx.db, { holderCompanyId: ctx.company.id, issuerCompanyId: input.company_id, shares: input.shares, action: input.action }),
    ),
});
