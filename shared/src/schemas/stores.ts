// Request schemas for the stores domain (see common.ts for the building blocks).
import { z } from 'zod';
import { retailPriceSchema, rowIdSchema } from './buildings.ts';

const idSchema = rowIdSchema;

export const storeIdInput = z.object({ id: idSchema });
export const storeProductInput = z.object({ id: idSchema, product_id: idSchema });
export const updateStorePriceInput = z.object({ id: idSchema, product_id: idSchema, retail_price: retailPriceSchema });
export const toggleStoreProductInput = z.object({ id: idSchema, product_id: idSchema, is_active: z.boolean() });
