// Request schemas for the stores domain (see common.ts for the building blocks).
import { z } from 'zod';
import { productCategorySchema, retailPriceSchema, rowIdSchema } from './buildings.ts';
import { countSchema, dollarsSchema, responseIdSchema } from './common.ts';

const idSchema = rowIdSchema;

export const storeIdInput = z.object({ id: idSchema });
export const storeProductInput = z.object({ id: idSchema, product_id: idSchema });
export const updateStorePriceInput = z.object({ id: idSchema, product_id: idSchema, retail_price: retailPriceSchema });
export const toggleStoreProductInput = z.object({ id: idSchema, product_id: idSchema, is_active: z.boolean() });

// ---------------------------------------------------------------------------------------------
// Responses: what the API answers (api/src/responses.ts wires each to its route for the OpenAPI
// document and the responses test); the db layer's views are these types (z.infer), so a field is
// declared once.

const id = responseIdSchema;
const dollars = dollarsSchema;
const count = countSchema;
const productCategory = productCategorySchema;

const storeProductViewSchema = z.strictObject({
  id,
  product_id: id,
  product_name: z.string(),
  category: productCategory,
  quantity: count,
  retail_price: dollars,
  cost_price: dollars,
  is_active: z.boolean(),
  market_price: dollars.nullable(),
  demand_level: z.number().int().min(0).max(100).nullable(),
  units_sold_last_turn: count,
  markup_percent: z.number().nullable().describe('(retail - cost) / cost, percent with one decimal; null at a cost of 0'),
  vs_market_percent: z.number().nullable().describe("(retail - the city's market price) / market price, percent with one decimal; null without one"),
});

export const storesResponses = {
  products: z.array(storeProductViewSchema),
  updatePrice: storeProductViewSchema,
  toggle: storeProductViewSchema,
  remove: z.strictObject({ building_id: id, product_id: id, returned_to_back_room: count }),
};

export type StoreProductView = z.infer<typeof storeProductViewSchema>;
