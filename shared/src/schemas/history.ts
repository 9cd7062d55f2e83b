// Request schemas of the history screens: the ledger, the warehouse moves, week reports, the market's history.
import { z } from 'zod';
import { POLITICAL_EVENT_TYPES, TRANSACTION_TYPES } from '../catalog.ts';
import { MAX_ROW_ID } from '../constants.ts';
import { countSchema, dollarsSchema, idSchema, responseIdSchema, timestampSchema } from './common.ts';
import { productCategorySchema, unitQuantitySchema } from './buildings.ts';

/** Lines per page of GET /api/transactions: 25 unless asked, at most 100. */
const LEDGER_PAGE_SIZE = 25;
const MAX_LEDGER_PAGE_SIZE = 100;

const weekSchema = z.number().int().min(1).max(MAX_ROW_ID, 'This week does not exist');

/**
 * The lists of companies page with limit and offset (docs/api.md); here those words would be
 * ignored, and a script paging with them would read the first 25 lines forever.
 */
const LEDGER_WRONG_PAGING_MESSAGE = 'This list pages with page and page_size (limit and offset are for the lists of companies)';

/** GET /api/transactions?page=&page_size=&type=&week= (every field optional; other fields allowed, as everywhere, except limit and offset). */
export const transactionsListInput = z
  .looseObject({
    page: z.number().int().min(1).max(MAX_ROW_ID).default(1),
    page_size: z.number().int().min(1).max(MAX_LEDGER_PAGE_SIZE, `At most ${MAX_LEDGER_PAGE_SIZE} lines per page`).default(LEDGER_PAGE_SIZE),
    type: z.enum(TRANSACTION_TYPES).optional(),
    week: weekSchema.optional(),
  })
  .superRefine((value, context) => {
    if ('limit' in value || 'offset' in value) context.addIssue({ code: 'custom', message: LEDGER_WRONG_PAGING_MESSAGE });
  })
  .optional()
  .transform((input) => ({ page: input?.page ?? 1, page_size: input?.page_size ?? LEDGER_PAGE_SIZE, type: input?.type, week: input?.week }));

const WAREHOUSE_MOVE_DIRECTIONS = ['to_back_room', 'to_warehouse'] as const;

/** POST /api/warehouse/move {building_id, product_id, quantity, direction}: between the warehouse and a store's back room. */
export const warehouseMoveInput = z.object({
  building_id: idSchema,
  product_id: idSchema,
  quantity: unitQuantitySchema,
  direction: z.enum(WAREHOUSE_MOVE_DIRECTIONS),
});

/** GET /api/reports/{week}. */
export const weekReportInput = z.object({ week: weekSchema });

/** GET /api/market/products/{id} (one product's weekly prices, its city prices and recipes). */
export const marketProductInput = z.object({ id: idSchema });

// ---------------------------------------------------------------------------------------------
// Responses: what the API answers (api/src/responses.ts wires each to its route for the OpenAPI
// document and the responses test); the db layer's views are these types (z.infer), so a field is
// declared once.

const id = responseIdSchema;
const dollars = dollarsSchema;
const count = countSchema;
const timestamp = timestampSchema;
const productCategory = productCategorySchema;

/** A week's results in brief (GET /api/reports, and the head of GET /api/reports/{week}). */
const weekReportSummarySchema = z.strictObject({
  week: z.number().int().positive(),
  cash_start: dollars.describe('Cash when the week began: cash_end less every ledger line of the week'),
  cash_end: dollars.describe('Cash after the turn'),
  net_worth: dollars.describe('Net worth after the turn'),
  profit: dollars.describe("The week's profit after tax"),
  store_revenue: dollars.describe('What your stores sold to shoppers'),
  rank: z.number().int().positive().nullable().describe('Leaderboard place after the turn (1 = richest); null after bankruptcy'),
  rank_before: z.number().int().positive().nullable().describe("The place after the previous week's turn; null for your first week"),
});

const buildingRefSchema = z.strictObject({ building_id: id, building_name: z.string().describe("The type's display name"), city_name: z.string() });

export const transactionsResponses = {
  list: z.strictObject({
    items: z.array(
      z.strictObject({
        id,
        week: z.number().int().positive(),
        type: z.enum(TRANSACTION_TYPES),
        reason: z.string().describe('Finer reason: build, hire, market_buy, store_sales, wages, tax, dividend, ...'),
        amount: dollars.describe('Signed: negative for money out'),
        description: z.string(),
        created_at: timestamp,
        concerns: z
          .strictObject({ kind: z.enum(['building', 'product', 'company', 'country', 'research', 'week']), id: z.number().int().nonnegative() })
          .describe(
            "What the line is about: a building, product, company (share trades) or country id; research; or its week (the turn's lines: see GET /api/reports/{week})",
          ),
      }),
    ),
    page: z.number().int().positive(),
    page_size: z.number().int().positive(),
    total: count.describe('Lines matching the filters, over all pages'),
    weeks: z.array(z.number().int().positive()).describe('Weeks you have lines in, newest first'),
  }),
};

export const reportsResponses = {
  list: z.array(weekReportSummarySchema).describe('Oldest first; empty before your first turn'),
  get: weekReportSummarySchema.extend({
    companies_ranked: count.describe('Companies on the leaderboard after the turn'),
    market_sales: dollars.describe('Goods sold on the exchange during the week'),
    market_purchases: dollars.describe('Goods bought on the exchange during the week (market, Trade Hall, raw materials)'),
    wages: dollars,
    operating_costs: dollars,
    subsidies: dollars,
    taxes: dollars,
    dividends_received: dollars,
    dividends_paid: dollars,
    sales: z
      .array(z.strictObject({ building_id: id, building: z.string(), city: z.string(), product_id: id, product: z.string(), units: count, revenue: dollars }))
      .describe('Store revenue by store and product, largest first'),
    production: z.array(
      z.strictObject({
        building_id: id,
        building: z.string(),
        city: z.string(),
        product_id: id,
        product: z.string(),
        role: z.enum(['output', 'input']).describe('output: made; input: used up'),
        units: count,
      }),
    ),
    cash_flows: z
      .array(z.strictObject({ type: z.enum(TRANSACTION_TYPES), reason: z.string(), amount: dollars.describe('Signed sum'), lines: count }))
      .describe(
        "Every ledger line of the week that moves cash, summed by reason: your own moves between turns and the turn's; they add up to cash_end - cash_start (the $0 production line is left out: what was made is in production)",
      ),
    dividends: z
      .array(z.strictObject({ company_id: id, company: z.string(), shares: count, amount: dollars }))
      .describe('Dividends received, by paying company'),
    research: z.array(z.strictObject({ upgrade_id: id, name: z.string() })).describe('Upgrades researched during the week'),
    exchange_fills: z
      .array(
        z.strictObject({
          order_id: id,
          product_id: id,
          product: z.string(),
          side: z.enum(['buy', 'sell']),
          quantity: z.number().int().positive(),
          price: dollars.describe("The week's clearing price of the product, per unit"),
          fee: dollars.describe('The exchange fee charged on this fill'),
          total: dollars.describe('A buy: what it cost (quantity x price + fee); a sell: what it paid (quantity x price - fee)'),
        }),
      )
      .describe("Your limit orders filled in the week's call auction (docs/exchange.md), by product then order"),
    contracts_delivered: z
      .array(
        z.strictObject({
          contract_id: id,
          product_id: id,
          product: z.string(),
          role: z.enum(['bought', 'sold']),
          counterparty_id: id,
          counterparty: z.string(),
          quantity: z.number().int().positive(),
          unit_price: dollars,
          total: dollars,
        }),
      )
      .describe('Contracts accepted during the week, that you bought or sold by'),
    events: z
      .array(
        z.strictObject({
          id,
          country: z.string(),
          event_type: z.enum(POLITICAL_EVENT_TYPES),
          description: z.string(),
          started_week: z.number().int().positive(),
          active_until_week: z.number().int().positive(),
          yours: z.boolean().describe('Your own lobbying won it'),
        }),
      )
      .describe(
        'Political events and elections active during the week or announced by its turn, in countries where you have buildings or won by your lobbying',
      ),
  }),
};

export const warehouseResponses = {
  holdings: z.strictObject({
    items: z.array(
      z.strictObject({
        product_id: id,
        product_name: z.string(),
        category: productCategory,
        location: z.enum(['warehouse', 'back_room', 'shelf']),
        store: buildingRefSchema.nullable().describe('The store of a back room or shelf; null for the company warehouse'),
        quantity: z.number().int().positive(),
        average_cost: dollars,
        cost_value: dollars.describe('quantity x average_cost'),
        unit_value: dollars.describe('What selling one unit on the market pays now'),
        market_value: dollars.describe('What selling them all on the market pays now'),
        retail_price: dollars.nullable().describe('Shelf only'),
        is_active: z.boolean().nullable().describe('Shelf only: on sale'),
        used_by: z.array(buildingRefSchema).describe('Your production buildings whose recipe uses this product (they take it from the warehouse each turn)'),
      }),
    ),
    totals: z.strictObject({ units: count, cost_value: dollars, market_value: dollars }),
    in_escrow: z
      .array(
        z.strictObject({
          product_id: id,
          product_name: z.string(),
          quantity: z.number().int().positive(),
          average_cost: dollars,
          held_by: z.enum(['sell_order', 'contract']),
          id: id.describe('The sell order or the contract'),
        }),
      )
      .describe(
        'Goods out of the warehouse, held by your open sell orders and contract offers (docs/exchange.md); not in items nor totals.units, but totals.market_value counts them, as net worth does',
      ),
  }),
  move: z.strictObject({
    building_id: id,
    product_id: id,
    product_name: z.string(),
    quantity: z.number().int().positive(),
    direction: z.enum(['to_back_room', 'to_warehouse']),
    warehouse_quantity: count.describe('Units now in the company warehouse'),
    back_room_quantity: count.describe("Units now in the store's back room"),
  }),
};

export type LedgerPage = z.infer<typeof transactionsResponses.list>;
export type LedgerLineView = LedgerPage['items'][number];
export type WeekReportSummary = z.infer<typeof weekReportSummarySchema>;
export type WeekReportView = z.infer<typeof reportsResponses.get>;
export type HoldingsView = z.infer<typeof warehouseResponses.holdings>;
export type HoldingView = HoldingsView['items'][number];
export type EscrowedGoodsView = HoldingsView['in_escrow'][number];
export type BuildingRefView = z.infer<typeof buildingRefSchema>;
export type WarehouseMoveView = z.infer<typeof warehouseResponses.move>;
