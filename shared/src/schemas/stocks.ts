// Request schemas for the stocks domain (see common.ts for the building blocks).
import { z } from 'zod';
import { MAX_SHARES_PER_TRADE } from '../constants.ts';
import { idSchema, positiveIntegerUpTo } from './common.ts';

export const STOCK_TRADE_ACTIONS = ['buy', 'sell'] as const;
export type StockTradeAction = (typeof STOCK_TRADE_ACTIONS)[number];

/** POST /api/stocks/trade {company_id, shares, action}. */
export const stockTradeSchema = z.object({
  company_id: idSchema,
  shares: positiveIntegerUpTo(MAX_SHARES_PER_TRADE, `You can trade at most ${MAX_SHARES_PER_TRADE.toLocaleString('en-US')} shares at once`),
  action: z.enum(STOCK_TRADE_ACTIONS),
});
export type StockTradeInput = z.input<typeof stockTradeSchema>;

/** GET /api/stocks/history?company_id=N. */
export const stockHistorySchema = z.object({ company_id: idSchema });
export type StockHistoryInput = z.input<typeof stockHistorySchema>;

/** GET /api/stocks/quote?company_id&shares&action: the same fields as a trade. */
export const stockQuoteSchema = stockTradeSchema;
