/**
 * Paging of the lists that hold a row per company of the world (docs/api.md, "Lists of companies"):
 * GET /api/companies, /api/leaderboard, /api/shares, /api/company-shares, /api/stock-prices and
 * /api/stocks/overview. Each answers at most `limit` rows from `offset` in a documented, stable
 * order; without `limit` the answer holds COMPANY_LIST_DEFAULT_LIMIT rows, so an ordinary world
 * (25 bots and its players) still comes whole in one answer of the same shape as before.
 */
import { z } from 'zod';
import { MAX_COMPANY_NAME_LENGTH, MAX_ROW_ID } from '../constants.ts';
import { countSchema, hasNoControlCharacters, idSchema } from './common.ts';

/** Rows of an answer when `limit` is not given: a whole ordinary world. */
export const COMPANY_LIST_DEFAULT_LIMIT = 500;
/** The most rows one answer may hold (a page of the overview is about 300 bytes a row: ~300 KB). */
export const COMPANY_LIST_MAX_LIMIT = 1000;
/** Rows per page on the web's leaderboard and stock exchange. */
export const COMPANY_LIST_PAGE_SIZE = 50;

const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${COMPANY_LIST_MAX_LIMIT}`;
const OFFSET_MESSAGE = 'offset must be a whole number, 0 or more';
/** The ledger pages with page and page_size; here they would be ignored and a script would loop on the first page. */
const WRONG_PAGING_MESSAGE = 'This list pages with limit and offset (page and page_size are for GET /api/transactions)';

/** Orders GET /api/stocks/overview can be sorted by (its table's sortable columns). */
const STOCK_OVERVIEW_SORTS = ['company_name', 'share_price', 'change_percent', 'market_cap'] as const;
export type StockOverviewSort = (typeof STOCK_OVERVIEW_SORTS)[number];
const SORT_ORDERS = ['asc', 'desc'] as const;

const pageFields = {
  limit: z
    .number(LIMIT_MESSAGE)
    .int(LIMIT_MESSAGE)
    .min(1, LIMIT_MESSAGE)
    .max(COMPANY_LIST_MAX_LIMIT, LIMIT_MESSAGE)
    .optional()
    .describe(`Rows in the answer: ${COMPANY_LIST_DEFAULT_LIMIT} when not given, at most ${COMPANY_LIST_MAX_LIMIT}`),
  offset: z
    .number(OFFSET_MESSAGE)
    .int(OFFSET_MESSAGE)
    .min(0, OFFSET_MESSAGE)
    .max(MAX_ROW_ID, OFFSET_MESSAGE)
    .optional()
    .describe('Rows of the list to skip first (0 when not given)'),
  /** Part of the company's name, any letter case. */
  search: z
    .string()
    .trim()
    .max(MAX_COMPANY_NAME_LENGTH, `search must be ${MAX_COMPANY_NAME_LENGTH} characters or less`)
    // No name holds one (and PostgreSQL cannot compare text with NUL): a 400, not a 500.
    .refine((text) => hasNoControlCharacters(text), 'search must not contain control characters')
    .optional()
    .describe('Only companies whose name contains this text (any letter case)'),
  /** Only this company (0 or 1 row): the stock page's selected company. */
  company_id: idSchema.optional().describe('Only this company'),
};

export interface CompanyListPage {
  limit: number;
  offset: number;
  search: string | null;
  company_id: number | null;
}

function pageOf(input: { limit?: number; offset?: number; search?: string; company_id?: number } | undefined): CompanyListPage {
  return {
    limit: input?.limit ?? COMPANY_LIST_DEFAULT_LIMIT,
    offset: input?.offset ?? 0,
    search: input?.search ? input.search : null,
    company_id: input?.company_id ?? null,
  };
}

/**
 * The fields of a list's query, other fields allowed (as everywhere in the API) except the ledger's
 * paging words: ignored, they would make a script loop on the first page forever, so they answer 400.
 */
function listInput<T extends z.ZodRawShape>(extra: T) {
  return z
    .looseObject({ ...pageFields, ...extra })
    .superRefine((value, context) => {
      if ('page' in value || 'page_size' in value) context.addIssue({ code: 'custom', message: WRONG_PAGING_MESSAGE });
    })
    .optional();
}

/** GET /api/companies, /api/leaderboard, /api/shares, /api/company-shares, /api/stock-prices ?limit&offset&search&company_id. */
export const companyListInput = listInput({}).transform(pageOf);

/** GET /api/stocks/overview: the same, plus the order of its table (?sort=market_cap&order=desc). */
export const stockOverviewInput = listInput({ sort: z.enum(STOCK_OVERVIEW_SORTS).optional(), order: z.enum(SORT_ORDERS).optional() }).transform((input) => ({
  ...pageOf(input),
  sort: input?.sort ?? ('company_name' as StockOverviewSort),
  order: input?.order ?? (input?.sort && input.sort !== 'company_name' ? 'desc' : 'asc'),
}));
export type StockOverviewPage = z.output<typeof stockOverviewInput>;

// ---------------------------------------------------------------------------------------------
// Responses: what the API answers (api/src/responses.ts wires each to its route for the OpenAPI
// document and the responses test); the db layer's views are these types (z.infer), so a field is
// declared once.

const count = countSchema;

/** What a paged list of companies says of itself in its body (docs/api.md, "Lists of companies"). */
export const pageResponseFields = {
  total: count.describe('Rows of the whole list (its filters applied), over all pages'),
  limit: z.number().int().positive().describe('The most rows this page could hold'),
  offset: count.describe('Rows skipped before this page'),
};
