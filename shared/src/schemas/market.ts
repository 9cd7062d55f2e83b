// Request schemas for the market domain (see common.ts for the building blocks).
import { z } from 'zod';
import { buildingTypeSchema, productCategorySchema, rowIdSchema, unitQuantitySchema } from './buildings.ts';
import { figureSchema } from '../figures.ts';
import { countSchema, dollarsSchema, responseIdSchema, tradeActionSchema } from './common.ts';

const idSchema = rowIdSchema;

const MARKET_ACTIONS = ['buy', 'sell'] as const;

export const marketTradeInput = z.object({ product_id: idSchema, quantity: unitQuantitySchema, action: z.enum(MARKET_ACTIONS) });
export type MarketTradeInput = z.infer<typeof marketTradeInput>;

// ---------------------------------------------------------------------------------------------
// Responses: what the API answers (api/src/responses.ts wires each to its route for the OpenAPI
// document and the responses test); the db layer's views are these types (z.infer), so a field is
// declared once.

const id = responseIdSchema;
const dollars = dollarsSchema;
const count = countSchema;
const buildingType = buildingTypeSchema;
const productCategory = productCategorySchema;
const tradeAction = tradeActionSchema;

const weekPriceSchema = z.strictObject({ week: z.number().int().positive(), price: dollars });

const marketProductViewSchema = z.strictObject({
  id,
  name: z.string(),
  category: productCategory,
  subcategory: z.string(),
  buy_price: dollars.describe('What one unit costs on the market now'),
  sell_price: dollars.describe('What selling one unit on the market pays now'),
  current_price: dollars,
  base_price: dollars,
  change_percent: z.number().nullable().describe("Percent change of the posted price since last week; null before a turn recorded last week's"),
  sparkline: z.array(dollars).describe('The posted price of each of the last 12 weeks, oldest first, this week last'),
  held: count.describe('Units in your company warehouse'),
});

const recipeStepSchema = z.strictObject({
  recipe_id: id,
  building_type: buildingType,
  building_name: z.string(),
  output_product_id: id,
  output_product_name: z.string(),
  output_quantity: z.number().int().positive(),
  inputs: z.array(z.strictObject({ product_id: id, product_name: z.string(), quantity: z.number().int().positive() })),
});

export const marketResponses = {
  trade: z.strictObject({
    action: tradeAction,
    product_id: id,
    product_name: z.string(),
    quantity: z.number().int().positive(),
    unit_price: dollars.describe('Average paid or received per unit: the price curve walked by the order, with the spread'),
    total: dollars,
    quantity_held: count,
    cash: dollars,
  }),
  quote: z.strictObject({
    product_id: id,
    product_name: z.string(),
    action: tradeAction,
    quantity: z.number().int().positive(),
    total: dollars.describe('What the order would cost (buy) or pay (sell) now'),
    unit_price: dollars,
    posted_price: dollars.describe("This week's posted price"),
    price_before: dollars.describe("The price on the curve now (after this week's orders so far)"),
    price_after: dollars.describe('The price on the curve after this order'),
    why: figureSchema,
  }),
  products: z.array(marketProductViewSchema),
  product: marketProductViewSchema.omit({ sparkline: true }).extend({
    history: z.array(weekPriceSchema).describe('The posted price of each week, oldest first, the current week last (52 weeks at most)'),
    cities: z.array(
      z.strictObject({
        city_id: id,
        city_name: z.string(),
        country_name: z.string(),
        market_price: dollars,
        demand_level: z.number().int().min(0).max(100),
        weekly_demand: count.describe("Units the city's shoppers buy a week at the reference price (market_price)"),
        stores_selling: count.describe('Stores with the product on their shelves in the city now'),
        sold_last_week: count.describe("Units the city's stores sold last week"),
        unserved_demand: count.describe('weekly_demand - sold_last_week (at least 0): shoppers no store served last week'),
      }),
    ),
    made_by: z.array(recipeStepSchema).describe('Recipes that make this product'),
    used_by: z.array(recipeStepSchema).describe('Recipes that use this product as an input'),
  }),
};

export type MarketProductView = z.infer<typeof marketProductViewSchema>;
export type RecipeStepView = z.infer<typeof recipeStepSchema>;
export type ProductDetailView = z.infer<typeof marketResponses.product>;
export type MarketQuote = z.infer<typeof marketResponses.quote>;
export type MarketTradeResult = z.infer<typeof marketResponses.trade>;
