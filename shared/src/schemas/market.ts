// Request schemas for the market domain (see common.ts for the building blocks).
import { z } from 'zod';
import { unitQuantitySchema, rowIdSchema } from './buildings.ts';

const idSchema = rowIdSchema;

export const MARKET_ACTIONS = ['buy', 'sell'] as const;
export type MarketAction = (typeof MARKET_ACTIONS)[number];

export const marketTradeInput = z.object({ product_id: idSchema, quantity: unitQuantitySchema, action: z.enum(MARKET_ACTIONS) });
export type MarketTradeInput = z.infer<typeof marketTradeInput>;

/** GET /api/market/quote?product_id&quantity&action: the same fields as a trade. */
export const marketQuoteInput = marketTradeInput;
