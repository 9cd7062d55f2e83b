// Request schemas for the buildings domain (see common.ts for the building blocks).
import { z } from 'zod';
import { BUILDING_CATEGORIES, BUILDING_TYPE_NAMES } from '../buildingTypes.ts';
import { CITY_BONUS_TYPES, PRODUCT_CATEGORIES } from '../catalog.ts';
import { MAX_EQUIPMENT_LEVEL, MAX_HIRE_PER_ACTION, MAX_PRODUCTION_RATE, MAX_TRADE_QUANTITY, MIN_EQUIPMENT_LEVEL, MIN_PRODUCTION_RATE } from '../constants.ts';
import { countSchema, dollarsSchema, idSchema, positiveIntegerUpTo, responseIdSchema } from './common.ts';
import { figureSchema } from '../figures.ts';

/** Kept as an alias: every id schema is the common, bounded idSchema. */
export const rowIdSchema = idSchema;

const HIRE_COUNT_MESSAGE = `Please enter a number between 1 and ${MAX_HIRE_PER_ACTION}`;
const EQUIPMENT_LEVEL_MESSAGE = 'Please select a valid level (2-5)';
const PRODUCTION_RATE_MESSAGE = `Production rate must be between ${MIN_PRODUCTION_RATE} and ${MAX_PRODUCTION_RATE}`;

/** Building type among the 17 of the build schema. */
export const buildingTypeSchema = z.enum(BUILDING_TYPE_NAMES);
/** One of the 7 product categories. */
export const productCategorySchema = z.enum(PRODUCT_CATEGORIES);
/** Units to buy, sell or move: a positive whole number (at most MAX_TRADE_QUANTITY). */
export const unitQuantitySchema = positiveIntegerUpTo(MAX_TRADE_QUANTITY, `Please enter a quantity of at most ${MAX_TRADE_QUANTITY.toLocaleString('en-US')}`);
/**
 * Whole cents: 4.35 yes; 4.355 and 4.350000001 no. A price computed in floating point lands a few
 * units in its last place off its cents (0.1 + 0.2 is 0.30000000000000004, 4.35 x 100 is
 * 434.99999999999994): that much is noise and passes. Anything more is a fraction of a cent that
 * would be rounded away without a word (a fixed 1e-6 cent allowance took $4.350000001 as $4.35).
 */
export function isWholeCents(dollars: number): boolean {
  const cents = dollars * 100;
  return Math.abs(cents - Math.round(cents)) <= Math.max(1, Math.abs(cents)) * 8 * Number.EPSILON;
}

/** A retail price in dollars: at least one cent, in whole cents (never rounded: 4.355 is refused). */
export const retailPriceSchema = z
  .number({ error: 'Please enter a valid price' })
  .positive('Please enter a valid price')
  .min(0.01, 'Please enter a valid price')
  .max(1_000_000_000)
  .refine(isWholeCents, 'Please enter a valid price');

export const buildingIdInput = z.object({ id: idSchema });

export const buildBuildingInput = z.object({ type: buildingTypeSchema, city_id: idSchema });

export const hireEmployeesInput = z.object({
  id: idSchema,
  count: z.number({ error: HIRE_COUNT_MESSAGE }).int(HIRE_COUNT_MESSAGE).min(1, HIRE_COUNT_MESSAGE).max(MAX_HIRE_PER_ACTION, HIRE_COUNT_MESSAGE),
});

export const upgradeEquipmentInput = z.object({
  id: idSchema,
  target_level: z
    .number({ error: EQUIPMENT_LEVEL_MESSAGE })
    .int(EQUIPMENT_LEVEL_MESSAGE)
    .min(MIN_EQUIPMENT_LEVEL, EQUIPMENT_LEVEL_MESSAGE)
    .max(MAX_EQUIPMENT_LEVEL, EQUIPMENT_LEVEL_MESSAGE),
});

export const productionRateInput = z.object({
  id: idSchema,
  new_rate: z
    .number({ error: PRODUCTION_RATE_MESSAGE })
    .int(PRODUCTION_RATE_MESSAGE)
    .min(MIN_PRODUCTION_RATE, PRODUCTION_RATE_MESSAGE)
    .max(MAX_PRODUCTION_RATE, PRODUCTION_RATE_MESSAGE),
});

export const selectRecipeInput = z.object({ id: idSchema, recipe_id: idSchema });

export const selectCategoryInput = z.object({ id: idSchema, category: productCategorySchema });

/** POST /buildings/{id}/inventory/purchase: trade hall products or factory raw materials. */
export const buildingInventoryPurchaseInput = z.object({ id: idSchema, product_id: idSchema, quantity: unitQuantitySchema });

/** GET /buildings/{id}/shelf-price?product_id=: the price to suggest for a product going on the store's shelf. */
export const shelfPriceInput = z.object({ id: idSchema, product_id: idSchema });

/** POST /buildings/{id}/inventory/transfer-to-store. */
export const transferToStoreInput = z.object({ id: idSchema, product_id: idSchema, quantity: unitQuantitySchema, retail_price: retailPriceSchema });

export type BuildBuildingInput = z.infer<typeof buildBuildingInput>;
export type HireEmployeesInput = z.infer<typeof hireEmployeesInput>;
export type UpgradeEquipmentInput = z.infer<typeof upgradeEquipmentInput>;
export type ProductionRateInput = z.infer<typeof productionRateInput>;
export type TransferToStoreInput = z.infer<typeof transferToStoreInput>;

// ---------------------------------------------------------------------------------------------
// Responses: what the API answers (api/src/responses.ts wires each to its route for the OpenAPI
// document and the responses test); the db layer's views are these types (z.infer), so a field is
// declared once.

const id = responseIdSchema;
const dollars = dollarsSchema;
const count = countSchema;
const buildingType = buildingTypeSchema;
const productCategory = productCategorySchema;

const buildingViewSchema = z.strictObject({
  id,
  type: buildingType,
  name: z.string().describe("The type's display name, e.g. 'Steel Mill'"),
  category: z.enum(BUILDING_CATEGORIES),
  city_id: id,
  city_name: z.string(),
  employees: count,
  equipment_level: z.number().int().min(1).max(5),
  production_rate: z.number().int().min(10).max(200),
  selected_recipe_id: id.nullable(),
  selected_category: productCategory.nullable(),
  efficiency: z.number().describe('min(100, employees x 10 + equipment_level x 15)'),
  effective_output: count.describe(
    'Units per week the building plans: round(output_quantity x rate/100 x efficiency/100 x (100 + city bonus + research bonus)/100); 0 without a recipe and for stores',
  ),
  next_turn_output: count.describe("Units the next turn makes: the planned output as far as the warehouse inputs allow (the turn's own query)"),
  built_week: z.number().int().positive(),
});

const buildingForecastSchema = z
  .strictObject({
    week: z.number().int().positive().describe('The week the next turn processes'),
    efficiency: figureSchema,
    planned_output: figureSchema.nullable(),
    output_units: count,
    output_product_name: z.string().nullable(),
    limited_by: z.string().nullable().describe('The input that limits the output, when one does'),
    inputs: z.array(z.strictObject({ product_id: id, product_name: z.string(), needed: count, used: count, in_stock: count })),
    capacity: figureSchema.nullable().describe('Stores: what the store can sell in a week, valued at its shelf prices'),
    sales: z.array(
      z.strictObject({
        product_id: id,
        product_name: z.string(),
        price: dollars,
        reference_price: dollars,
        share: z.number().min(0).max(1),
        city_demand: count,
        units: count,
        revenue: dollars,
        revenue_why: figureSchema.describe('The revenue with its terms: units x shelf price x (100 + price bonus)/100'),
        units_why: figureSchema.describe(
          "The units with their terms: the city's demand, this store's share of its shoppers (its price against the other stores'), the shelf's stock, the store's capacity, and the shoppers other stores could not serve",
        ),
      }),
    ),
    wages: figureSchema,
    operating_cost: figureSchema,
    revenue: dollars.describe("Stores: revenue from shoppers. Production: the output valued at the market's sell price"),
    inputs_cost: dollars.describe("Production: the inputs used valued at the market's buy price"),
    units: count.describe('Stores: units the shelves sell next turn; production buildings: output_units'),
    costs: dollars.describe('inputs_cost + wages + operating cost'),
    profit: dollars.describe('revenue - costs'),
    roi_percent: z.number().nullable().describe('profit / what was paid for the building, percent per week'),
    payback_weeks: z.number().int().positive().nullable().describe('Weeks of this profit to earn back what was paid for the building'),
    improvements: z.array(
      z.strictObject({
        kind: z.enum(['equipment', 'hire']),
        label: z.string(),
        cost: dollars,
        efficiency: z.number(),
        planned_output: count.nullable(),
      }),
    ),
    recipes: z.array(
      z.strictObject({
        recipe_id: id,
        planned_output: count,
        inputs: z.array(z.strictObject({ product_id: id, product_name: z.string(), needed: count, in_stock: count })),
        ready: z.boolean(),
      }),
    ),
    overtime: z
      .strictObject({
        rates: z.array(
          z.strictObject({
            rate: z.number().int().min(10).max(200),
            output_units: count.describe('Units planned at this rate (tired crews above 100%)'),
            revenue: dollars.describe("The output at the market's sell price"),
            costs: dollars.describe("The inputs it needs at the market's buy price + wages + operating cost at this rate"),
            profit: dollars,
          }),
        ),
        best_rate: z.number().int().min(10).max(200).describe('The production rate with the highest profit'),
        best_profit: dollars,
      })
      .nullable()
      .describe(
        'Production buildings with a recipe: the week\'s profit at 100/125/150/175/200% with every input bought at today\'s prices, and the best rate (docs/economy.md, "Overtime: where the extra output stops paying")',
      ),
  })
  .describe('What the next turn does with this building, computed by the turn\'s own queries (docs/economy.md, "True numbers")');

export const recipeViewSchema = z.strictObject({
  id,
  building_type: buildingType,
  output_product_id: id,
  output_product_name: z.string(),
  output_quantity: z.number().int().positive().describe('Units per week'),
  inputs: z.array(z.strictObject({ product_id: id, product_name: z.string(), quantity: z.number().int().positive() })),
});

const buildingDetailViewSchema = buildingViewSchema.extend({
  city_bonus_type: z.enum(CITY_BONUS_TYPES),
  city_bonus_value: z.number(),
  city_bonus_applies: z.boolean(),
  base_capacity: count,
  weekly_operating_cost: dollars,
  research_bonus: z
    .number()
    .int()
    .describe(
      "Percent: production_bonus + chain_bonus of the company's research for every building type and for this type (each group's sum rounded, as the turn counts it)",
    ),
  research_effects: z.record(z.string(), z.number()).describe('Every numeric research effect that applies to this building, summed (percent)'),
  total_bonus: z.number().describe('Percent: the city bonus when it fits the type + research_bonus (outputBonusRule)'),
  bonused_output: count.describe('The output the turn plans (= effective_output)'),
  overall_efficiency: z.number().describe('The efficiency the turn uses (= efficiency)'),
  efficiency_warning: z.boolean().describe('efficiency under 90'),
  popularity: z.number().describe('250 + effective_output x 2'),
  invested: dollars.describe('Construction cost plus the equipment levels bought'),
  sale_refund: dollars.describe('What POST /api/buildings/{id}/sell pays back: 50% of invested (also its book value in net worth)'),
  is_store: z.boolean(),
  recipe: recipeViewSchema.nullable(),
  forecast: buildingForecastSchema,
});

export const buildingsResponses = {
  list: z.array(buildingViewSchema),
  get: buildingDetailViewSchema,
  build: buildingViewSchema,
  sell: z.strictObject({
    id,
    type: buildingType,
    name: z.string(),
    city_name: z.string(),
    refund: dollars.describe('50% of the construction cost plus the equipment levels bought'),
    units_moved_to_warehouse: count.describe("A store's shelf and back-room units, now in the company warehouse"),
    cash: dollars,
  }),
  hireEmployees: buildingViewSchema,
  upgradeEquipment: buildingViewSchema,
  productionRate: buildingViewSchema,
  selectRecipe: buildingViewSchema,
  selectCategory: buildingViewSchema,
  inventory: z.array(
    z.strictObject({
      id: id.describe("The back-room row's id (stores) or the product id (production buildings: warehouse items)"),
      product_id: id,
      product_name: z.string(),
      category: productCategory,
      quantity: count,
      purchase_price: dollars.describe('Average purchase price per unit'),
      in_store: z.boolean(),
    }),
  ),
  purchaseInventory: z.strictObject({
    building_id: id,
    destination: z.enum(['store', 'warehouse']),
    product_id: id,
    product_name: z.string(),
    quantity: z.number().int().positive(),
    unit_price: dollars.describe("The city's market price"),
    total_cost: dollars,
    quantity_held: count,
    purchase_price: dollars.describe('Average purchase price per unit after this purchase'),
    cash: dollars,
  }),
  shelfPrice: z.strictObject({
    product_id: id,
    best_price: dollars.describe(
      "The price the store's forecast finds best: the most margin over the average cost next turn, given every other store's shelf in the city now",
    ),
    units: count.describe(
      "Units the shelf sells next turn at best_price (within the units available and what the store's other shelves leave of its capacity)",
    ),
    revenue: dollars,
    margin: dollars.describe('revenue - units x average_cost'),
    markup_price: dollars.describe("The spec's suggestion: average_cost x 1.5 ('50% markup')"),
    average_cost: dollars.describe("A unit's average cost: the store's back room's if it holds the product, else the warehouse's"),
    reference_price: dollars.describe('What shoppers in the city expect to pay'),
    available: count.describe('Units the store can put on the shelf: its back room plus the warehouse'),
  }),
  transferToStore: z.strictObject({
    building_id: id,
    product_id: id,
    product_name: z.string(),
    quantity: z.number().int().positive(),
    from_back_room: count,
    from_warehouse: count,
    shelf_quantity: count,
    retail_price: dollars,
    cost_price: dollars,
    is_active: z.boolean(),
  }),
};

export type BuildingView = z.infer<typeof buildingViewSchema>;
export type RecipeView = z.infer<typeof recipeViewSchema>;
export type BuildingDetailView = z.infer<typeof buildingDetailViewSchema>;
export type BuildingForecast = z.infer<typeof buildingForecastSchema>;
export type SellBuildingResult = z.infer<typeof buildingsResponses.sell>;
export type BuildingInventoryView = z.infer<typeof buildingsResponses.inventory>[number];
