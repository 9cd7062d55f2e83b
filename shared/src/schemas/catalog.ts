// Request schemas for the catalog domain (see common.ts for the building blocks).
import { z } from 'zod';
import { buildingTypeSchema, productCategorySchema, recipeViewSchema, rowIdSchema } from './buildings.ts';
import { CITY_BONUS_TYPES } from '../catalog.ts';
import { countSchema, dollarsSchema, responseIdSchema } from './common.ts';

const idSchema = rowIdSchema;

export const cityIdInput = z.object({ id: idSchema });
/** GET /recipes?building_type=factory (optional filter; the web filters case-insensitively too). */
export const recipesInput = z.object({ building_type: buildingTypeSchema.optional() }).optional();

// ---------------------------------------------------------------------------------------------
// Responses: what the API answers (api/src/responses.ts wires each to its route for the OpenAPI
// document and the responses test); the db layer's views are these types (z.infer), so a field is
// declared once.

const id = responseIdSchema;
const dollars = dollarsSchema;
const count = countSchema;
const productCategory = productCategorySchema;

export const catalogResponses = {
  inventory: z.array(
    z.strictObject({
      product_id: id,
      product_name: z.string(),
      category: productCategory,
      quantity: count,
      average_cost: dollars,
      current_price: dollars,
      value: dollars.describe('quantity x current_price'),
    }),
  ),
  goods: z.array(
    z.strictObject({
      id,
      name: z.string(),
      category: productCategory,
      subcategory: z.string(),
      current_price: dollars,
      base_price: dollars,
      price_change_percent: z.number().describe('(current - base) / base x 100'),
      buy_price: dollars.describe('What one unit costs on the market now'),
      sell_price: dollars.describe('What selling one unit on the market pays now'),
    }),
  ),
  recipes: z.array(recipeViewSchema),
  cities: z.array(
    z.strictObject({
      id,
      name: z.string(),
      country_id: id,
      country_name: z.string(),
      bonus_type: z.enum(CITY_BONUS_TYPES),
      bonus_value: z.number().describe('Percent'),
    }),
  ),
  cityMarketData: z.array(
    z.strictObject({
      product_id: id,
      product_name: z.string(),
      category: productCategory,
      demand_level: z.number().int().min(0).max(100),
      market_price: dollars,
    }),
  ),
};

export type InventoryView = z.infer<typeof catalogResponses.inventory>[number];
export type GoodView = z.infer<typeof catalogResponses.goods>[number];
export type CityView = z.infer<typeof catalogResponses.cities>[number];
export type CityMarketDataView = z.infer<typeof catalogResponses.cityMarketData>[number];
