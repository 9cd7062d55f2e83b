import { sql } from 'drizzle-orm';
import { bigint, boolean, check, doublePrecision, foreignKey, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import {
  COMPANY_STATUSES,
  TRANSACTION_TYPES,
  POLITICAL_EVENT_TYPES,
  POLITICAL_PLATFORMS,
  type CompanyStatus,
  type PoliticalEventType,
  type TransactionType,
  TEAM_ROLES,
  type TeamRole,
  type ProductCategory,
} from '@marketcraft/shared';
import { inList } from './sqlHelpers.ts';
import { users } from './users.ts';
import { buildingTypes, cities, countries, products, recipes, researchUpgrades, recordWorldId, worldId } from './world.ts';

/*
 * Every table here is a game table: `world_id` leads its primary key and every key that points at
 * another game table (a company or a building of the same world), so a world's rows never refer to
 * another world's and the schema fits distribution by world_id (docs/architecture.md, "Scale-out").
 * Ids stay unique across worlds (one identity sequence per table), so routes keep their shape.
 */

/** The unique index behind 'company name taken' (db/src/game/companies/names.ts reads it from the error). */
export const COMPANY_NAME_INDEX = 'companies_world_name_key';
/** The unique index behind 'company name too similar' (same look-alike key, companyNameKey). */
export const COMPANY_NAME_LOOKALIKE_INDEX = 'companies_world_name_lookalike_key';

export const companies = pgTable(
  'companies',
  {
    worldId: worldId(),
    id: integer().generatedAlwaysAsIdentity(),
    /** The owning player; null for bots. A bankrupt company keeps its user id but loses `is_current`. */
    userId: integer().references(() => users.id, { onDelete: 'set null' }),
    name: text().notNull(),
    bio: text(),
    /**
     * Cash in cents. Player actions never take it below zero (conditional updates); only the turn's
     * costs can, which is what leads to bankruptcy.
     */
    cashCents: bigint({ mode: 'number' }).notNull(),
    startingCashCents: bigint({ mode: 'number' }).notNull(),
    foundedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    isBot: boolean().notNull().default(false),
    /** Bots only: words separated by underscores. */
    strategy: text(),
    status: text().$type<CompanyStatus>().notNull().default('active'),
    /** Consecutive turns that ended with negative cash. */
    negativeCashTurns: integer().notNull().default(0),
    /** Losses carried forward against future taxable profit, cents (docs/economy.md, "Taxes"). */
    taxLossCents: bigint({ mode: 'number' }).notNull().default(0),
    /**
     * The goods it held when last taxed, valued as net worth values them, cents: the next tax counts
     * the change (docs/economy.md, "Taxes on an accrual basis"). Null: not taxed since the upgrade (0022).
     */
    taxedGoodsCents: bigint({ mode: 'number' }).default(0),
    bankruptAt: timestamp({ withTimezone: true }),
    /**
     * The network address (signupAddressKey) a sign-up founded this company from; null for bots,
     * founding again and private worlds. Counts the early-bird bonuses per address.
     */
    signupAddress: text(),
    /**
     * companyNameKey(name): the name's Unicode confusable skeleton (UTS #39), case folded. Names
     * with one key look alike ('Acme' with a Cyrillic 'а'); set by every write of the name, and by
     * fillCompanyNameKeys at start for rows written without it (old rows, test fixtures).
     */
    nameKey: text(),
    /** Class worlds' player companies: what a student types, with the world's code, to join its team. */
    teamCode: text(),
  },
  (t) => [
    check('companies_status', inList(t.status, COMPANY_STATUSES)),
    check('companies_bot_strategy', sql`(${t.isBot} and ${t.strategy} is not null) or (not ${t.isBot} and ${t.strategy} is null)`),
    check('companies_name_not_empty', sql`length(trim(${t.name})) > 0`),
    check('companies_bio_length', sql`${t.bio} is null or length(${t.bio}) <= 500`),
    check('companies_negative_turns', sql`${t.negativeCashTurns} >= 0`),
    check('companies_tax_loss', sql`${t.taxLossCents} >= 0`),
    primaryKey({ columns: [t.worldId, t.id] }),
    // One active company per player and world.
    uniqueIndex('companies_active_user_key')
      .on(t.worldId, t.userId)
      .where(sql`${t.status} = 'active'`),
    // One active company per name and world, bots included: case and surrounding spaces do not
    // make a new name (docs/world.md, "Company names"). A bankrupt company's name is free again.
    uniqueIndex(COMPANY_NAME_INDEX)
      .on(t.worldId, sql`lower(btrim(${t.name}))`)
      .where(sql`${t.status} = 'active'`),
    // Nor does a look-alike: one active company per look-alike key and world.
    uniqueIndex(COMPANY_NAME_LOOKALIKE_INDEX)
      .on(t.worldId, t.nameKey)
      .where(sql`${t.status} = 'active'`),
    index('companies_user_id_idx').on(t.userId),
    uniqueIndex('companies_world_team_code_key')
      .on(t.worldId, t.teamCode)
      .where(sql`${t.teamCode} is not null`),
    // The sign-ups of an address in the last hour (the sign-up throttle, db/src/game/companies/founding.ts).
    index('companies_signup_address_idx')
      .on(t.worldId, t.signupAddress, t.foundedAt)
      .where(sql`${t.signupAddress} is not null`),
    index('companies_is_bot_idx').on(t.worldId, t.isBot),
  ],
);

/**
 * The members of a class world's companies (teams, docs/classroom.md): one row per user and world.
 * The founder is a member too; `companies.user_id` stays the member who answers for the company
 * (the founder, or the longest-standing member once the founder has left; null when nobody is left).
 */
export const companyMembers = pgTable(
  'company_members',
  {
    worldId: worldId(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer().notNull(),
    /** An optional label the team sees (TEAM_ROLES). */
    role: text().$type<TeamRole>(),
    joinedWeek: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.worldId, t.userId] }),
    foreignKey({ columns: [t.worldId, t.companyId], foreignColumns: [companies.worldId, companies.id], name: 'company_members_company_fk' }).onDelete(
      'cascade',
    ),
    check('company_members_role', sql`${t.role} is null or ${inList(t.role, TEAM_ROLES)}`),
    check('company_members_joined_week', sql`${t.joinedWeek} >= 1`),
    index('company_members_company_idx').on(t.worldId, t.companyId),
  ],
);

export const buildings = pgTable(
  'buildings',
  {
    worldId: worldId(),
    id: integer().generatedAlwaysAsIdentity(),
    companyId: integer().notNull(),
    type: text()
      .notNull()
      .references(() => buildingTypes.type),
    cityId: integer()
      .notNull()
      .references(() => cities.id),
    employees: integer().notNull().default(1),
    equipmentLevel: integer().notNull().default(1),
    productionRate: integer().notNull().default(100),
    selectedRecipeId: integer().references(() => recipes.id),
    selectedCategory: text().$type<ProductCategory>(),
    /** What was paid to build it, for the sale refund. */
    constructionCostCents: bigint({ mode: 'number' }).notNull(),
    builtWeek: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('buildings_employees', sql`${t.employees} >= 0`),
    check('buildings_equipment_level', sql`${t.equipmentLevel} between 1 and 5`),
    check('buildings_production_rate', sql`${t.productionRate} between 10 and 200`),
    primaryKey({ columns: [t.worldId, t.id] }),
    foreignKey({ name: 'buildings_company_fk', columns: [t.worldId, t.companyId], foreignColumns: [companies.worldId, companies.id] }).onDelete('cascade'),
    index('buildings_company_id_idx').on(t.worldId, t.companyId),
    index('buildings_city_id_idx').on(t.worldId, t.cityId),
  ],
);

/** The company's central inventory (production output lands here). */
export const inventoryItems = pgTable(
  'inventory_items',
  {
    worldId: worldId(),
    companyId: integer().notNull(),
    productId: integer()
      .notNull()
      .references(() => products.id),
    quantity: bigint({ mode: 'number' }).notNull(),
    /** Average cost per unit in cents (purchases and production at market value). */
    averageCostCents: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.worldId, t.companyId, t.productId] }),
    foreignKey({ name: 'inventory_items_company_fk', columns: [t.worldId, t.companyId], foreignColumns: [companies.worldId, companies.id] }).onDelete(
      'cascade',
    ),
    check('inventory_items_quantity', sql`${t.quantity} >= 0`),
    index('inventory_items_product_id_idx').on(t.worldId, t.productId),
  ],
);

/** Stock held by one building (trade hall purchases, factory raw materials). */
export const buildingInventoryItems = pgTable(
  'building_inventory_items',
  {
    worldId: worldId(),
    id: integer().generatedAlwaysAsIdentity(),
    buildingId: integer().notNull(),
    productId: integer()
      .notNull()
      .references(() => products.id),
    quantity: bigint({ mode: 'number' }).notNull(),
    /** Average purchase price per unit in cents. */
    purchasePriceCents: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.worldId, t.id] }),
    foreignKey({
      name: 'building_inventory_items_building_fk',
      columns: [t.worldId, t.buildingId],
      foreignColumns: [buildings.worldId, buildings.id],
    }).onDelete('cascade'),
    uniqueIndex('building_inventory_items_building_product_key').on(t.worldId, t.buildingId, t.productId),
    check('building_inventory_items_quantity', sql`${t.quantity} >= 0`),
    check('building_inventory_items_price', sql`${t.purchasePriceCents} >= 0`),
  ],
);

/** Products on sale in a store building. */
export const storeProducts = pgTable(
  'store_products',
  {
    worldId: worldId(),
    id: integer().generatedAlwaysAsIdentity(),
    buildingId: integer().notNull(),
    productId: integer()
      .notNull()
      .references(() => products.id),
    quantity: bigint({ mode: 'number' }).notNull(),
    retailPriceCents: bigint({ mode: 'number' }).notNull(),
    /** Average cost per unit of the stock on the shelf, in cents. */
    costPriceCents: bigint({ mode: 'number' }).notNull().default(0),
    isActive: boolean().notNull().default(true),
    unitsSoldLastTurn: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.worldId, t.id] }),
    foreignKey({ name: 'store_products_building_fk', columns: [t.worldId, t.buildingId], foreignColumns: [buildings.worldId, buildings.id] }).onDelete(
      'cascade',
    ),
    uniqueIndex('store_products_building_product_key').on(t.worldId, t.buildingId, t.productId),
    check('store_products_quantity', sql`${t.quantity} >= 0`),
    check('store_products_retail_price', sql`${t.retailPriceCents} > 0`),
    index('store_products_product_id_idx').on(t.worldId, t.productId),
  ],
);

export const shareRecords = pgTable(
  'share_records',
  {
    worldId: worldId(),
    companyId: integer().notNull(),
    totalShares: bigint({ mode: 'number' }).notNull().default(100),
    sharePriceCents: bigint({ mode: 'number' }).notNull().default(10_000),
    lastDividendCents: bigint({ mode: 'number' }).notNull().default(0),
    /** Book value per share at the last turn, cents (docs/economy.md, "Shares"). */
    fundamentalCents: bigint({ mode: 'number' }).notNull().default(10_000),
    /** Buying (+) or selling (-) pressure carried from earlier weeks, natural log of price / fundamental. */
    sentiment: doublePrecision().notNull().default(0),
    /** Net shares bought from the issuer this week (walks the price curve; reset by the turn). */
    weekFlow: bigint({ mode: 'number' }).notNull().default(0),
    /** Shares bought from the issuer this week, gross (open data's share volumes; reset by the turn). */
    weekBought: bigint({ mode: 'number' }).notNull().default(0),
    /** Shares sold back to the issuer this week, gross (bankruptcy sales included; reset by the turn). */
    weekSold: bigint({ mode: 'number' }).notNull().default(0),
    /** False once the company went bankrupt and its shares were delisted. */
    isListed: boolean().notNull().default(true),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.worldId, t.companyId] }),
    foreignKey({ name: 'share_records_company_fk', columns: [t.worldId, t.companyId], foreignColumns: [companies.worldId, companies.id] }).onDelete('cascade'),
    check('share_records_total_shares', sql`${t.totalShares} > 0`),
    check('share_records_price', sql`${t.sharePriceCents} >= 0`),
    check('share_records_dividend', sql`${t.lastDividendCents} >= 0`),
    check('share_records_fundamental', sql`${t.fundamentalCents} >= 0`),
  ],
);

/** Shares of `issuer` held by `holder`. */
export const portfolioEntries = pgTable(
  'portfolio_entries',
  {
    worldId: worldId(),
    holderCompanyId: integer().notNull(),
    issuerCompanyId: integer().notNull(),
    sharesOwned: bigint({ mode: 'number' }).notNull(),
    /** Average price paid per share, in cents. */
    averagePriceCents: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.worldId, t.holderCompanyId, t.issuerCompanyId] }),
    foreignKey({ name: 'portfolio_entries_holder_fk', columns: [t.worldId, t.holderCompanyId], foreignColumns: [companies.worldId, companies.id] }).onDelete(
      'cascade',
    ),
    foreignKey({ name: 'portfolio_entries_issuer_fk', columns: [t.worldId, t.issuerCompanyId], foreignColumns: [companies.worldId, companies.id] }).onDelete(
      'cascade',
    ),
    check('portfolio_entries_shares', sql`${t.sharesOwned} >= 0`),
    check('portfolio_entries_not_self', sql`${t.holderCompanyId} <> ${t.issuerCompanyId}`),
    index('portfolio_entries_issuer_idx').on(t.worldId, t.issuerCompanyId),
  ],
);

export const stockPriceHistory = pgTable(
  'stock_price_history',
  {
    worldId: recordWorldId(),
    companyId: integer().notNull(),
    week: integer().notNull(),
    priceCents: bigint({ mode: 'number' }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // No foreign key to companies, as for the ledger (transactions below): only the turn writes
    // these rows, one per listed company, from the company rows it holds locked.
    primaryKey({ columns: [t.worldId, t.companyId, t.week] }),
    check('stock_price_history_price', sql`${t.priceCents} >= 0`),
  ],
);

/** One entry per company and turn: the cash change of that turn. */
export const financialHistory = pgTable(
  'financial_history',
  {
    worldId: recordWorldId(),
    id: bigint({ mode: 'number' }).generatedAlwaysAsIdentity(),
    companyId: integer().notNull(),
    week: integer().notNull(),
    amountCents: bigint({ mode: 'number' }).notNull(),
    cashAfterCents: bigint({ mode: 'number' }).notNull(),
    /** The week's profit after tax (docs/economy.md, "Profit"). */
    profitCents: bigint({ mode: 'number' }).notNull().default(0),
    /** Net worth after the turn (docs/economy.md, "Net worth"). */
    netWorthCents: bigint({ mode: 'number' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // No foreign key to companies, as for the ledger (transactions below): only the turn writes
    // these rows, one per active company, from the company rows it holds locked.
    primaryKey({ columns: [t.worldId, t.id] }),
    uniqueIndex('financial_history_company_week_key').on(t.worldId, t.companyId, t.week),
  ],
);

/**
 * The ledger: every change of a company's cash is one row, written in the same transaction.
 * company_id has no foreign key, on purpose: the turn appends ~7 rows per company at once and the
 * per-row key check was half of that insert's time (worker/bench/turn.ts); the same holds for the
 * turn's other per-company records (stock_price_history, financial_history). Every writer takes the
 * id from a company row it holds locked (changeCash updates it in the same statement; the turn
 * writes from its locked turn_companies), companies are never deleted, and orphanLedgerRows
 * (db/src/game/books/invariants.ts) checks it in the economy tests. docs/invariants.md.
 */
export const transactions = pgTable(
  'transactions',
  {
    worldId: recordWorldId(),
    id: bigint({ mode: 'number' }).generatedAlwaysAsIdentity(),
    companyId: integer().notNull(),
    type: text().$type<TransactionType>().notNull(),
    /** Finer reason inside the type: wages, tax, dividend, subsidy, research, politics, ... */
    reason: text().notNull(),
    amountCents: bigint({ mode: 'number' }).notNull(),
    description: text().notNull(),
    week: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    // What the line concerns (GET /api/transactions links it there); null for the turn's rows,
    // which concern their week (its report). No foreign keys: the ledger outlives sold buildings.
    buildingId: integer(),
    productId: integer(),
    /** The other company of a share trade. */
    counterpartyCompanyId: integer(),
    countryId: integer(),
  },
  (t) => [
    primaryKey({ columns: [t.worldId, t.id] }),
    check('transactions_type', inList(t.type, TRANSACTION_TYPES)),
    index('transactions_company_week_idx').on(t.worldId, t.companyId, t.week),
    // The turn's reads of its week's ledger (taxes, week reports): migration 0052.
    index('transactions_week_idx').on(t.worldId, t.week),
    index('transactions_large_idx')
      .on(t.worldId, t.createdAt)
      .where(sql`abs(${t.amountCents}) > 1000000`),
  ],
);

/** Net units bought from and sold to the market per product and week: the worker's price signal. */
export const marketActivity = pgTable(
  'market_activity',
  {
    worldId: worldId(),
    week: integer().notNull(),
    productId: integer()
      .notNull()
      .references(() => products.id),
    unitsBought: bigint({ mode: 'number' }).notNull().default(0),
    unitsSold: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.worldId, t.week, t.productId] }), check('market_activity_units', sql`${t.unitsBought} >= 0 and ${t.unitsSold} >= 0`)],
);

export const influenceRecords = pgTable(
  'influence_records',
  {
    worldId: worldId(),
    companyId: integer().notNull(),
    countryId: integer()
      .notNull()
      .references(() => countries.id),
    influencePoints: integer().notNull().default(0),
    /** The platform the company's influence backs in elections (docs/economy.md, "Politics"). */
    platform: text().notNull().default('lower_taxes'),
  },
  (t) => [
    primaryKey({ columns: [t.worldId, t.companyId, t.countryId] }),
    foreignKey({ name: 'influence_records_company_fk', columns: [t.worldId, t.companyId], foreignColumns: [companies.worldId, companies.id] }).onDelete(
      'cascade',
    ),
    check('influence_records_points', sql`${t.influencePoints} >= 0`),
    check('influence_records_platform', inList(t.platform, POLITICAL_PLATFORMS)),
    index('influence_records_country_idx').on(t.worldId, t.countryId),
  ],
);

export const politicalEvents = pgTable(
  'political_events',
  {
    worldId: worldId(),
    id: integer().generatedAlwaysAsIdentity(),
    countryId: integer()
      .notNull()
      .references(() => countries.id),
    eventType: text().$type<PoliticalEventType>().notNull(),
    description: text().notNull(),
    /** Tax points for tax events; subsidy dollars per building for subsidies. */
    effectValue: integer().notNull().default(0),
    /** The company the event favours, when influence decided it. */
    beneficiaryCompanyId: integer(),
    startedWeek: integer().notNull(),
    activeUntilWeek: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.worldId, t.id] }),
    // Companies are never deleted (bankrupt ones keep their row), so the key needs no ON DELETE.
    foreignKey({ name: 'political_events_beneficiary_fk', columns: [t.worldId, t.beneficiaryCompanyId], foreignColumns: [companies.worldId, companies.id] }),
    check('political_events_type', inList(t.eventType, POLITICAL_EVENT_TYPES)),
    check('political_events_weeks', sql`${t.activeUntilWeek} >= ${t.startedWeek}`),
    index('political_events_country_idx').on(t.worldId, t.countryId, t.activeUntilWeek),
    index('political_events_created_idx').on(t.worldId, t.createdAt),
  ],
);

export const companyResearch = pgTable(
  'company_research',
  {
    worldId: worldId(),
    companyId: integer().notNull(),
    upgradeId: integer()
      .notNull()
      .references(() => researchUpgrades.id),
    researchedWeek: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.worldId, t.companyId, t.upgradeId] }),
    foreignKey({ name: 'company_research_company_fk', columns: [t.worldId, t.companyId], foreignColumns: [companies.worldId, companies.id] }).onDelete(
      'cascade',
    ),
  ],
);
