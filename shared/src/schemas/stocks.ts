// Request schemas for the stocks domain (see common.ts for the building blocks).
import { z } from 'zod';
import { MAX_SHARES_PER_TRADE } from '../constants.ts';
import { countSchema, dollarsSchema, idSchema, positiveIntegerUpTo, responseIdSchema, timestampSchema, tradeActionSchema } from './common.ts';
import { figureSchema } from '../figures.ts';
import { pageResponseFields } from './lists.ts';

const STOCK_TRADE_ACTIONS = ['buy', 'sell'] as const;
export type StockTradeAction = (typeof STOCK_TRADE_ACTIONS)[number];

/** POST /api/stocks/trade {company_id, shares, action}. */
export const stockTradeSchema = z.object({
  company_id: idSchema,
  shares: positiveIntegerUpTo(MAX_SHARES_PER_TRADE, `You can trade at most ${MAX_SHARES_PER_TRADE.toLocaleString('en-US')} shares at once`),
  action: z.enum(STOCK_TRADE_ACTIONS),
});

/** GET /api/stocks/history?company_id=N. */
export const stockHistorySchema = z.object({ company_id: idSchema });

// ---------------------------------------------------------------------------------------------
// Responses: what the API answers (api/src/responses.ts wires each to its route for the OpenAPI
// document and the responses test); the db layer's views are these types (z.infer), so a field is
// declared once.

const id = responseIdSchema;
const dollars = dollarsSchema;
const count = countSchema;
const timestamp = timestampSchema;
const tradeAction = tradeActionSchema;

const shareRecordViewSchema = z.strictObject({
  company_id: id,
  company_name: z.string(),
  is_bot: z.boolean(),
  total_shares: z.number().int().positive(),
  share_price: dollars,
  last_dividend: dollars,
  updated_at: timestamp,
  book_value_per_share: dollars.describe("The company's equity per share at the last turn: the price's anchor"),
  shares_held_by_companies: count.describe('Shares held by other companies (the rest belong to its own player)'),
  buy_price: dollars.describe("What one share costs now (buy from the company: spread and this week's buying included)"),
  sell_price: dollars.describe('What selling one share back to the company pays now'),
});

export const stocksResponses = {
  shares: z.array(shareRecordViewSchema),
  companyShares: z.array(shareRecordViewSchema),
  portfolio: z.array(
    z.strictObject({
      company_id: id,
      company_name: z.string(),
      is_bot: z.boolean(),
      shares_owned: z.number().int().positive(),
      average_price: dollars,
      current_price: dollars,
      value: dollars.describe('What selling the whole position back now would pay (its value in net worth)'),
    }),
  ),
  prices: z.array(
    z.strictObject({
      company_id: id,
      company_name: z.string(),
      is_bot: z.boolean(),
      week: z.number().int().positive().nullable().describe('Week of the latest recorded price; null before the first turn'),
      price: dollars,
      previous_price: dollars.nullable(),
      change_percent: z.number(),
    }),
  ),
  overview: z.strictObject({
    ...pageResponseFields,
    companies: z.array(
      z.strictObject({
        company_id: id,
        company_name: z.string(),
        is_bot: z.boolean(),
        is_you: z.boolean(),
        share_price: dollars,
        total_shares: z.number().int().positive(),
        market_cap: dollars.describe('share_price x total_shares'),
        change_percent: z.number().nullable().describe('Percent change between the last two recorded weeks; null before two'),
        sparkline: z.array(dollars).describe('The share price each of the last 12 turns set, oldest first'),
        position: z
          .strictObject({
            shares_owned: z.number().int().positive(),
            average_price: dollars,
            value: dollars.describe('As GET /api/portfolio values it'),
            cost: dollars.describe('shares_owned x average_price'),
            gain: dollars.describe('value - cost'),
            gain_percent: z.number().nullable(),
          })
          .nullable()
          .describe('Your shares of it; null when you hold none'),
      }),
    ),
    portfolio: z.strictObject({ shares: count, value: dollars, cost: dollars, gain: dollars }).describe('Your whole portfolio'),
  }),
  history: z
    .array(z.strictObject({ week: z.number().int().positive(), price: dollars }))
    .describe('Our shape (the spec shows none): the last 52 recorded weekly prices of ?company_id, oldest first'),
  trade: z.strictObject({
    action: tradeAction,
    company_id: id,
    company_name: z.string(),
    shares: z.number().int().positive(),
    price: dollars.describe('Average per share'),
    total: dollars,
    shares_owned: count,
    cash: dollars,
  }),
  quote: z.strictObject({
    company_id: id,
    company_name: z.string(),
    action: tradeAction,
    shares: z.number().int().positive(),
    total: dollars,
    price: dollars.describe('Average per share'),
    posted_price: dollars,
    price_after: dollars,
    why: figureSchema,
  }),
};

export type StockOverview = z.infer<typeof stocksResponses.overview>;
export type StockOverviewView = StockOverview['companies'][number];
export type ShareRecordView = z.infer<typeof shareRecordViewSchema>;
export type PortfolioEntryView = z.infer<typeof stocksResponses.portfolio>[number];
export type StockPriceView = z.infer<typeof stocksResponses.prices>[number];
export type StockTradeResult = z.infer<typeof stocksResponses.trade>;
export type ShareQuote = z.infer<typeof stocksResponses.quote>;
