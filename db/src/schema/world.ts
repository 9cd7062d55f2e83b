import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import {
  PRODUCT_CATEGORIES,
  CITY_BONUS_TYPES,
  BUILDING_CATEGORIES,
  RESEARCH_CATEGORIES,
  WORLD_KINDS,
  WORLD_STATUSES,
  type CityBonusType,
  type ProductCategory,
  type ResearchCategory,
  type WorldKind,
  type WorldStatus,
} from '@marketcraft/shared';
import { users } from './users.ts';
import { inList } from './sqlHelpers.ts';

/**
 * Every world is a whole game (docs/worlds.md): its own week and clock, market, companies, share
 * records, politics, news and leaderboard. Every game table leads its keys with `world_id`; the
 * catalogue (products, recipes, building types, upgrades, countries, cities) is shared.
 * The public world is id 1 (PUBLIC_WORLD_ID): a fresh install has it, sign-up joins it.
 */
export const worlds = pgTable(
  'worlds',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity({ startWith: 2 }),
    name: text().notNull().default('Public world'),
    /** public: listed, joined by anyone; private: joined by its code, run by its instructors. */
    kind: text().$type<WorldKind>().notNull().default('public'),
    /** active: its clock runs; paused: no scheduled turns; ended: read-only. */
    status: text().$type<WorldStatus>().notNull().default('active'),
    /** Private worlds only: what students type to join (unique, can be rotated). */
    joinCode: text().unique(),
    /** Minutes between scheduled turns; null: the public schedule (public) or manual (private). */
    turnIntervalMinutes: integer(),
    /** What a new player's company starts with, cents; null: the game's default. */
    startingCashCents: bigint({ mode: 'number' }),
    /** Player companies the world admits (bots not counted); null: unlimited. */
    maxPlayers: integer(),
    botCount: integer().notNull().default(25),
    /** Members a company may have (teams, docs/classroom.md); 1: every player alone. */
    teamSize: integer().notNull().default(1),
    createdByUserId: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp({ withTimezone: true }),
    currentWeek: integer().notNull().default(1),
    lastTurnAt: timestamp({ withTimezone: true }),
    nextTurnAt: timestamp({ withTimezone: true }),
    /** Seed of the world's random generator; each turn uses (seed, week). */
    seed: bigint({ mode: 'number' }).notNull().default(20261121),
    /** A fork (docs/replay.md): the world it was replayed from, and the week it starts at. */
    forkedFromWorldId: integer().references((): AnyPgColumn => worlds.id),
    forkedAtWeek: integer(),
    /** false: the bots make no more moves (a fork's change, docs/replay.md); their companies stay. */
    botsActive: boolean().notNull().default(true),
    /** The changes asked for at the fork, applied by the worker after the replay (ForkChanges). */
    forkChanges: jsonb(),
    /** A sandbox (a player's private fork of the public world): its owner, the only one who sees it. */
    sandboxOwnerUserId: integer().references(() => users.id, { onDelete: 'cascade' }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('worlds_week_positive', sql`${t.currentWeek} >= 1`),
    check('worlds_kind', inList(t.kind, WORLD_KINDS)),
    check('worlds_status', inList(t.status, WORLD_STATUSES)),
    check('worlds_name_length', sql`length(trim(${t.name})) between 1 and 60`),
    check('worlds_turn_interval', sql`${t.turnIntervalMinutes} is null or ${t.turnIntervalMinutes} between 1 and 1440`),
    check('worlds_bot_count', sql`${t.botCount} between 0 and 25`),
    check('worlds_starting_cash', sql`${t.startingCashCents} is null or ${t.startingCashCents} > 0`),
    check('worlds_max_players', sql`${t.maxPlayers} is null or ${t.maxPlayers} >= 1`),
    check('worlds_team_size', sql`${t.teamSize} between 1 and 6`),
    check('worlds_private_code', sql`${t.kind} = 'public' or ${t.joinCode} is not null`),
    check('worlds_fork', sql`(${t.forkedFromWorldId} is null) = (${t.forkedAtWeek} is null)`),
    check('worlds_sandbox_is_fork', sql`${t.sandboxOwnerUserId} is null or ${t.forkedFromWorldId} is not null`),
    index('worlds_sandbox_owner_idx')
      .on(t.sandboxOwnerUserId)
      .where(sql`${t.sandboxOwnerUserId} is not null`),
  ],
);

/** `world_id` of every game table: leads its primary and foreign keys (Citus' distribution column). */
export const worldId = () =>
  integer()
    .notNull()
    .references(() => worlds.id);

/**
 * `world_id` of the append-only records the turn writes by the ten thousand (the ledger, financial
 * and price history, week reports): the same column without a foreign key to `worlds`. Each of
 * their rows is written for a company row of that world (held locked, or read in the same
 * statement) and worlds are never deleted, so the check could never fail; it cost a trigger per
 * row (about 0.15 s of a 10,000-company turn, worker/bench/turn.ts).
 */
export const recordWorldId = () => integer().notNull();

/**
 * How many times a world's goods prices changed: its posted prices, this week's market flow or the
 * week (GET /goods keeps its answer under it: db/src/game/catalog/catalog.ts). Raised only by the
 * database's triggers (migration 0048), once per changing transaction, at its commit; no row yet
 * is version 0.
 */
export const worldPriceVersions = pgTable('world_price_versions', {
  worldId: integer().primaryKey(),
  version: bigint({ mode: 'number' }).notNull().default(0),
});

/** One row per processed week of a world: the turn's exactly-once marker, written in the turn's transaction. */
export const turns = pgTable(
  'turns',
  {
    worldId: worldId(),
    week: integer().notNull(),
    startedAt: timestamp({ withTimezone: true }).notNull(),
    finishedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    durationMs: integer().notNull().default(0),
    phaseTimings: jsonb().$type<Record<string, number>>().notNull().default({}),
    /** The pg-boss job that ran this turn: a retried scheduled job (no week in its data) finds its turn here. */
    jobId: text(),
    /** SHA-256 of the world's canonical state after the turn (the bots' moves for the next week included): docs/replay.md. */
    stateHash: text(),
  },
  (t) => [primaryKey({ columns: [t.worldId, t.week] }), uniqueIndex('turns_world_job_key').on(t.worldId, t.jobId)],
);

/**
 * Until when a turn worker counts as alive (milliseconds since the epoch): every worker sets it to
 * now + its heartbeat interval (TURN_HEARTBEAT_SECONDS) at start and every second. 'Advance Turn'
 * while no worker is connected reads it: still in the future means the worker is restarting (the
 * turn is queued and answered when it commits); 0 (never started) or past answers 503 'The turn
 * worker is not running' (docs/operations.md). A sequence, not a row: a sequence is written in
 * place, while with a row updated every second a killed worker's turn ran again after a minute
 * instead of ~13 s (worker/test/crash.integration.test.ts; likely pg-boss's supervision backing off
 * while vacuum could not reclaim the dead rows: docs/operations.md).
 */
export const turnWorkerAliveUntilMs = pgSequence('turn_worker_alive_until_ms', { minValue: 0, startWith: 0, increment: 1, cache: 1 });

export const countries = pgTable(
  'countries',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull().unique(),
    /** Percent of positive profit taxed each turn. */
    /** The rate every world starts with (each world's current rate: world_countries). */
    baseTaxRate: integer().notNull(),
  },
  (t) => [check('countries_tax_rate_range', sql`${t.baseTaxRate} between 0 and 100`)],
);

/** A country in one world: its tax rate now (events, elections and instructors' shocks move it). */
export const worldCountries = pgTable(
  'world_countries',
  {
    worldId: worldId(),
    countryId: integer()
      .notNull()
      .references(() => countries.id),
    /** Percent of positive profit taxed each turn. */
    taxRate: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.worldId, t.countryId] }), check('world_countries_tax_rate_range', sql`${t.taxRate} between 0 and 100`)],
);

export const cities = pgTable(
  'cities',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull().unique(),
    countryId: integer()
      .notNull()
      .references(() => countries.id),
    bonusType: text().$type<CityBonusType>().notNull(),
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
    category: text().$type<ProductCategory>().notNull(),
    subcategory: text().notNull(),
    basePriceCents: bigint({ mode: 'number' }).notNull(),
    /** Units that move the exchange's price by a factor e (docs/economy.md, "The market"). */
    depthUnits: bigint({ mode: 'number' }).notNull().default(4_000),
  },
  (t) => [
    check('products_category', inList(t.category, PRODUCT_CATEGORIES)),
    check('products_prices_positive', sql`${t.basePriceCents} > 0`),
    check('products_depth_positive', sql`${t.depthUnits} > 0`),
    index('products_category_idx').on(t.category),
  ],
);

/** A product on one world's exchange: its posted price this week (set by the turn). */
export const worldProducts = pgTable(
  'world_products',
  {
    worldId: worldId(),
    productId: integer()
      .notNull()
      .references(() => products.id),
    currentPriceCents: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.worldId, t.productId] }), check('world_products_price_positive', sql`${t.currentPriceCents} > 0`)],
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
 * Per city and product: consumer demand (0-100) and the city's price level. The reference price
 * shoppers expect (market_price = the exchange price x 130% x price_factor_bp / 10,000,
 * docs/economy.md) follows the posted price and is computed where it is read (cityMarketsSql).
 */
export const cityMarketData = pgTable(
  'city_market_data',
  {
    // No foreign keys (migration 0043): the rows are copied once per world from the public world's,
    // and a check per copied row was most of a world's creation (docs/invariants.md).
    worldId: recordWorldId(),
    cityId: integer().notNull(),
    productId: integer().notNull(),
    demandLevel: integer().notNull(),
    /** The level demand recovers toward. */
    baseDemandLevel: integer().notNull(),
    /** The city's price level for the product, basis points (8,500-11,500). */
    priceFactorBp: integer().notNull().default(10_000),
  },
  (t) => [
    primaryKey({ columns: [t.worldId, t.cityId, t.productId] }),
    check('city_market_data_demand_range', sql`${t.demandLevel} between 0 and 100 and ${t.baseDemandLevel} between 0 and 100`),
    index('city_market_data_product_id_idx').on(t.worldId, t.productId),
    // The city markets away from their base demand: the markets phase and the state hash read only
    // these (migration 0047); a class world has none among its 15,200.
    index('city_market_data_away_idx')
      .on(t.worldId)
      .where(sql`${t.demandLevel} <> ${t.baseDemandLevel}`),
  ],
);

export const researchUpgrades = pgTable(
  'research_upgrades',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull().unique(),
    description: text().notNull(),
    category: text().$type<ResearchCategory>().notNull(),
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
