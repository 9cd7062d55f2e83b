import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { PRODUCT_CATEGORIES, CITY_BONUS_TYPES, BUILDING_CATEGORIES, RESEARCH_CATEGORIES } from '@marketcraft/shared';
import { inList } from './sqlHelpers.ts';

/** The single world row (id = 1). */
export const world = pgTable(
  'world',
  {
    id: integer().primaryKey().default(1),
    currentWeek: integer().notNull().default(1),
    lastTurnAt: timestamp({ withTimezone: true }),
    nextTurnAt: timestamp({ withTimezone: true }),
    /** Seed of the world's random generator; each turn uses (seed, week). */
    seed: bigint({ mode: 'number' }).notNull().default(20261121),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('world_single_row', sql`${t.id} = 1`), check('world_week_positive', sql`${t.currentWeek} >= 1`)],
);

/** One row per processed week: the turn's exactly-once marker, written in the turn's transaction. */
export const turns = pgTable('turns', {
  week: integer().primaryKey(),
  startedAt: timestamp({ withTimezone: true }).notNull(),
  finishedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  durationMs: integer().notNull().default(0),
  phaseTimings: jsonb().$type<Record<string, number>>().notNull().default({}),
  /** The pg-boss job that ran this turn: a retried scheduled job (no week in its data) finds its turn here. */
  jobId: text().unique(),
});

export const countries = pgTable(
  'countries',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull().unique(),
    /** Percent of positive profit taxed each turn. */
    taxRate: integer().notNull(),
    /** The rate before events and elections changed it. */
    baseTaxRate: integer().notNull(),
  },
  (t) => [check('countries_tax_rate_range', sql`${t.taxRate} between 0 and 100 and ${t.baseTaxRate} between 0 and 100`)],
);

export const cities = pgTable(
  'cities',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull().unique(),
    countryId: integer()
      .notNull()
      .references(() => countries.id),
    bonusType: text().notNull(),
    /** Percent bonus for buildings whose category fits the bonus type. */
    bonusValue: integer().notNull(),
    population: integer().notNull(),
  },
  (t) => [
    check('cities_bonus_type', inList(t.bonusType, CITY_BONUS_TYPES)),
    check('cities_bonus_value_range', sql`${t.bonusValue} between 0 and 100`),
    check('cities_population_positive', sql`${t.population} > 0`),
    index('cities_country_id_idx').on(t.countryId),
  ],
);

export const products = pgTable(
  'products',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull().unique(),
    category: text().notNull(),
    subcategory: text().notNull(),
    basePriceCents: bigint({ mode: 'number' }).notNull(),
    /** The exchange's posted price this week (set by the turn). */
    currentPriceCents: bigint({ mode: 'number' }).notNull(),
    /** Units that move the exchange's price by a factor e (docs/economy.md, "The market"). */
    depthUnits: bigint({ mode: 'number' }).notNull().default(4_000),
  },
  (t) => [
    check('products_category', inList(t.category, PRODUCT_CATEGORIES)),
    check('products_prices_positive', sql`${t.basePriceCents} > 0 and ${t.currentPriceCents} > 0`),
    check('products_depth_positive', sql`${t.depthUnits} > 0`),
    index('products_category_idx').on(t.category),
  ],
);

export const buildingTypes = pgTable(
  'building_types',
  {
    type: text().primaryKey(),
    name: text().notNull(),
    category: text().notNull(),
    constructionCostCents: bigint({ mode: 'number' }).notNull(),
    baseCapacity: integer().notNull(),
    weeklyOperatingCostCents: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [
    check('building_types_category', inList(t.category, BUILDING_CATEGORIES)),
    check('building_types_costs', sql`${t.constructionCostCents} > 0 and ${t.weeklyOperatingCostCents} >= 0 and ${t.baseCapacity} > 0`),
  ],
);

export const recipes = pgTable(
  'recipes',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    buildingType: text()
      .notNull()
      .references(() => buildingTypes.type),
    outputProductId: integer()
      .notNull()
      .references(() => products.id),
    /** Units per week at 100% rate and efficiency. */
    outputQuantity: integer().notNull(),
  },
  (t) => [
    check('recipes_output_quantity_positive', sql`${t.outputQuantity} > 0`),
    index('recipes_building_type_idx').on(t.buildingType),
    index('recipes_output_product_id_idx').on(t.outputProductId),
  ],
);

export const recipeInputs = pgTable(
  'recipe_inputs',
  {
    recipeId: integer()
      .notNull()
      .references(() => recipes.id, { onDelete: 'cascade' }),
    productId: integer()
      .notNull()
      .references(() => products.id),
    quantity: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.recipeId, t.productId] }), check('recipe_inputs_quantity_positive', sql`${t.quantity} > 0`)],
);

/**
 * Per city and product: consumer demand (0-100) and the reference price shoppers expect
 * (market_price = the exchange price x 130% x price_factor_bp / 10,000, docs/economy.md).
 */
export const cityMarketData = pgTable(
  'city_market_data',
  {
    cityId: integer()
      .notNull()
      .references(() => cities.id),
    productId: integer()
      .notNull()
      .references(() => products.id),
    demandLevel: integer().notNull(),
    /** The level demand recovers toward. */
    baseDemandLevel: integer().notNull(),
    marketPriceCents: bigint({ mode: 'number' }).notNull(),
    /** The city's price level for the product, basis points (8,500-11,500). */
    priceFactorBp: integer().notNull().default(10_000),
  },
  (t) => [
    primaryKey({ columns: [t.cityId, t.productId] }),
    check('city_market_data_demand_range', sql`${t.demandLevel} between 0 and 100 and ${t.baseDemandLevel} between 0 and 100`),
    check('city_market_data_price_positive', sql`${t.marketPriceCents} > 0`),
    index('city_market_data_product_id_idx').on(t.productId),
  ],
);

export const researchUpgrades = pgTable(
  'research_upgrades',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull().unique(),
    description: text().notNull(),
    category: text().notNull(),
    tier: integer().notNull(),
    researchCostCents: bigint({ mode: 'number' }).notNull(),
    prerequisiteId: integer().references((): AnyPgColumn => researchUpgrades.id),
    /** Null means the effects apply to every building type. */
    buildingType: text().references(() => buildingTypes.type),
    effects: jsonb().$type<Record<string, number | string | boolean>>().notNull(),
  },
  (t) => [
    check('research_upgrades_category', inList(t.category, RESEARCH_CATEGORIES)),
    check('research_upgrades_tier_range', sql`${t.tier} between 1 and 5`),
    check('research_upgrades_cost_positive', sql`${t.researchCostCents} > 0`),
  ],
);
