/**
 * The exchange between players (docs/exchange.md): limit orders in the weekly call auction, the
 * published books and past auctions, and contracts between companies. Inputs and answers: the API
 * validates with the inputs and documents (and tests) its answers with the responses; the web uses both.
 */
import { z } from 'zod';
import { EXCHANGE_MAX_ORDER_WEEKS, MAX_TRADE_QUANTITY } from '../constants.ts';
import { idSchema, positiveIntegerUpTo } from './common.ts';
import { isWholeCents } from './buildings.ts';

export const EXCHANGE_SIDES = ['buy', 'sell'] as const;
export type ExchangeSide = (typeof EXCHANGE_SIDES)[number];

/** open: in the next auction, nothing filled yet; partially_filled: in the next auctions with part filled; the others are final. */
export const EXCHANGE_ORDER_STATUSES = ['open', 'partially_filled', 'filled', 'cancelled', 'expired'] as const;
export type ExchangeOrderStatus = (typeof EXCHANGE_ORDER_STATUSES)[number];

export const CONTRACT_STATUSES = ['open', 'accepted', 'declined', 'cancelled', 'expired'] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];

const dollars = z.number().describe('US dollars, at most two decimals');
const week = z.number().int().positive();
const count = z.number().int().nonnegative();

/** A price in dollars per unit: at least one cent, whole cents (never rounded). */
const unitPriceSchema = z
  .number({ error: 'Please enter a valid price' })
  .min(0.01, 'Please enter a valid price')
  .max(1_000_000, 'Please enter a price of at most $1,000,000')
  .refine(isWholeCents, 'Please enter a valid price');

const quantity = positiveIntegerUpTo(MAX_TRADE_QUANTITY, `Please enter a quantity of at most ${MAX_TRADE_QUANTITY.toLocaleString('en-US')}`);

/** POST /api/exchange/orders. */
export const placeExchangeOrderInput = z.object({
  product_id: idSchema,
  side: z.enum(EXCHANGE_SIDES),
  quantity,
  limit_price: unitPriceSchema,
  weeks: z.number().int().min(1, 'weeks must be between 1 and 8').max(EXCHANGE_MAX_ORDER_WEEKS, 'weeks must be between 1 and 8').optional(),
});
export type PlaceExchangeOrderInput = z.infer<typeof placeExchangeOrderInput>;

/** GET /api/exchange/orders?status=&product_id= */
export const listExchangeOrdersInput = z.object({ status: z.enum(EXCHANGE_ORDER_STATUSES).optional(), product_id: idSchema.optional() }).optional();

/** DELETE /api/exchange/orders/{id} */
export const cancelExchangeOrderInput = z.object({ id: idSchema });
export type CancelExchangeOrderInput = z.infer<typeof cancelExchangeOrderInput>;

/** GET /api/exchange/books/{product_id} */
export const exchangeBookInput = z.object({ product_id: idSchema });

/** GET /api/exchange/auctions/{product_id}?weeks=N (1-52, default 12) */
export const exchangeAuctionsInput = z.object({ product_id: idSchema, weeks: z.number().int().min(1).max(52).optional() });

/** A limit order, as its owner sees it. */
const exchangeOrderResponse = z.strictObject({
  id: idSchema,
  product_id: idSchema,
  product_name: z.string(),
  side: z.enum(EXCHANGE_SIDES),
  quantity: z.number().int().positive(),
  filled_quantity: count,
  limit_price: dollars.describe('The most a buy pays per unit, the least a sell takes (dollars)'),
  escrow: dollars.describe('Cash the order holds now, dollars: a buy holds the limit price x units left plus the fee; 0 for a sell'),
  escrow_units: count.describe('Units of the product a sell order holds now (0 for a buy)'),
  average_fill_price: dollars.nullable().describe('Average clearing price of its fills, null before the first'),
  status: z.enum(EXCHANGE_ORDER_STATUSES),
  week_placed: week,
  expires_week: week.describe('The last week whose auction it is in'),
});
export type ExchangeOrderView = z.infer<typeof exchangeOrderResponse>;

/** One price level of a published curve: the units wanted (bids) or offered (asks) at this price or better. */
const bookLevelResponse = z.strictObject({ price: dollars, quantity: count });
export type BookLevelView = z.infer<typeof bookLevelResponse>;

/** GET /api/exchange/books/{product_id} */
const exchangeBookResponse = z.strictObject({
  product_id: idSchema,
  product_name: z.string(),
  week,
  posted_price: dollars,
  bids: z.array(bookLevelResponse).describe("Players' demand: units wanted at each price or more, highest price first"),
  asks: z.array(bookLevelResponse).describe("Players' supply: units offered at each price or less, lowest price first"),
  maker: z.strictObject({
    bids: z.array(bookLevelResponse).describe("The market maker's demand at each price (cumulative)"),
    asks: z.array(bookLevelResponse).describe("The market maker's supply at each price (cumulative)"),
  }),
  indicative_price: dollars.nullable().describe('The clearing price if the auction ran now (null: nothing would trade)'),
  indicative_volume: count,
});
export type ExchangeBookView = z.infer<typeof exchangeBookResponse>;

/** One past clearing (GET /api/exchange/auctions/{product_id}). */
const exchangeAuctionResponse = z.strictObject({
  week,
  price: dollars.nullable(),
  volume: count,
  players_volume: count.describe('Units players sold to players'),
  maker_bought: count,
  maker_sold: count,
  bids: z.array(bookLevelResponse),
  asks: z.array(bookLevelResponse),
});
export type ExchangeAuctionView = z.infer<typeof exchangeAuctionResponse>;

/** POST /api/contracts */
export const offerContractInput = z.object({
  buyer_company_id: idSchema,
  product_id: idSchema,
  quantity,
  unit_price: unitPriceSchema,
  expires_week: week,
});
export type OfferContractInput = z.infer<typeof offerContractInput>;
export const contractIdInput = z.object({ id: idSchema });
export type ContractIdInput = z.infer<typeof contractIdInput>;
export const listContractsInput = z.object({ direction: z.enum(['incoming', 'outgoing']).optional(), status: z.enum(CONTRACT_STATUSES).optional() }).optional();

const contractResponse = z.strictObject({
  id: idSchema,
  seller_company_id: idSchema,
  seller_name: z.string(),
  buyer_company_id: idSchema,
  buyer_name: z.string(),
  product_id: idSchema,
  product_name: z.string(),
  quantity: z.number().int().positive(),
  unit_price: dollars,
  total: dollars,
  status: z.enum(CONTRACT_STATUSES),
  week_offered: week,
  expires_week: week,
});
export type ContractView = z.infer<typeof contractResponse>;

/** What the exchange's procedures answer (api/src/responses.ts). */
export const exchangeResponses = {
  placeOrder: exchangeOrderResponse,
  orders: z.array(exchangeOrderResponse),
  cancelOrder: exchangeOrderResponse,
  book: exchangeBookResponse,
  auctions: z.array(exchangeAuctionResponse),
};

/** What the contracts' procedures answer (api/src/responses.ts). */
export const contractsResponses = {
  offer: contractResponse,
  list: z.array(contractResponse),
  accept: contractResponse,
  decline: contractResponse,
  cancel: contractResponse,
};
