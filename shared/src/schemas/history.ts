// Request schemas of the history screens: the ledger, the warehouse moves, week reports, the market's history.
import { z } from 'zod';
import { TRANSACTION_TYPES } from '../catalog.ts';
import { MAX_ROW_ID } from '../constants.ts';
import { idSchema } from './common.ts';
import { unitQuantitySchema } from './buildings.ts';

/** Lines per page of GET /api/transactions: 25 unless asked, at most 100. */
export const LEDGER_PAGE_SIZE = 25;
export const MAX_LEDGER_PAGE_SIZE = 100;

const weekSchema = z.number().int().min(1).max(MAX_ROW_ID, 'This week does not exist');

/**
 * The lists of companies page with limit and offset (docs/api.md); here those words would be
 * ignored, and a script paging with them would read the first 25 lines forever.
 */
export const LEDGER_WRONG_PAGING_MESSAGE = 'This list pages with page and page_size (limit and offset are for the lists of companies)';

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
export type TransactionsListInput = z.input<typeof transactionsListInput>;

export const WAREHOUSE_MOVE_DIRECTIONS = ['to_back_room', 'to_warehouse'] as const;

/** POST /api/warehouse/move {building_id, product_id, quantity, direction}: between the warehouse and a store's back room. */
export const warehouseMoveInput = z.object({
  building_id: idSchema,
  product_id: idSchema,
  quantity: unitQuantitySchema,
  direction: z.enum(WAREHOUSE_MOVE_DIRECTIONS),
});
export type WarehouseMoveInput = z.input<typeof warehouseMoveInput>;

/** GET /api/reports/{week}. */
export const weekReportInput = z.object({ week: weekSchema });

/** GET /api/market/products/{id} (one product's weekly prices, its city prices and recipes). */
export const marketProductInput = z.object({ id: idSchema });
