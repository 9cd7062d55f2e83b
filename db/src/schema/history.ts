/** What the web's history screens read: product prices per week (the market's charts and sparklines). */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { products, recordWorldId } from './world.ts';

/** A product's posted price during a week (recorded by the turn that ends the week). */
export const productPriceHistory = pgTable(
  'product_price_history',
  {
    worldId: recordWorldId(),
    productId: integer()
      .notNull()
      .references(() => products.id),
    week: integer().notNull(),
    priceCents: bigint({ mode: 'number' }).notNull(),
  },
  // Read by world and product (a product's history, each product's recent weeks): the key serves both.
  (t) => [primaryKey({ columns: [t.worldId, t.productId, t.week] }), check('product_price_history_price', sql`${t.priceCents} > 0`)],
);

export interface WeekReportDividend {
  company_id: number;
  company: string;
  shares: number;
  amount_cents: number;
}

export interface WeekReportResearch {
  upgrade_id: number;
  name: string;
}

export interface WeekReportEvent {
  id: number;
  country: string;
  event_type: string;
  description: string;
  started_week: number;
  active_until_week: number;
  /** The company's own lobbying won it. */
  yours: boolean;
}

/**
 * "Week N results" (docs/web.md): what the turn that ended week N did to a player's company, written
 * by the turn's report phase (worker/src/turn/report.ts) in one set-based insert, so the story stays
 * readable after shelves, buildings and prices have moved on. Bots get none (nobody reads them).
 * No foreign key to companies, as for the ledger: companies are never deleted, and the turn's
 * insert does without a per-row key check.
 */
export const weekReports = pgTable(
  'week_reports',
  {
    worldId: recordWorldId(),
    companyId: integer().notNull(),
    week: integer().notNull(),
    /** Cash when the week began: the end cash less every ledger row of the week. */
    cashStartCents: bigint({ mode: 'number' }).notNull(),
    cashEndCents: bigint({ mode: 'number' }).notNull(),
    netWorthCents: bigint({ mode: 'number' }).notNull(),
    /** The week's profit after tax (docs/economy.md, "Profit"). */
    profitCents: bigint({ mode: 'number' }).notNull(),
    storeRevenueCents: bigint({ mode: 'number' }).notNull(),
    marketSalesCents: bigint({ mode: 'number' }).notNull(),
    marketPurchasesCents: bigint({ mode: 'number' }).notNull(),
    wagesCents: bigint({ mode: 'number' }).notNull(),
    operatingCents: bigint({ mode: 'number' }).notNull(),
    subsidyCents: bigint({ mode: 'number' }).notNull(),
    taxCents: bigint({ mode: 'number' }).notNull(),
    dividendsReceivedCents: bigint({ mode: 'number' }).notNull(),
    dividendsPaidCents: bigint({ mode: 'number' }).notNull(),
    /** Place on the net-worth leaderboard after the turn (1 = richest); null when the company went bankrupt. */
    rank: integer(),
    /** The place after the previous turn; null for a company's first report. */
    rankBefore: integer(),
    /** Companies on the leaderboard after the turn. */
    companiesRanked: integer().notNull(),
    // Sales and production are the report's long lists (a row per shelf, per building): parallel
    // arrays, one element per line, are several times cheaper for the turn to write than jsonb
    // objects (worker/bench/turn.ts); names are looked up when the report is read (db/src/game/books/reports.ts).
    /** Store sales: per store and product, the store, its city, the product, units sold and revenue. */
    saleBuildingIds: integer().array().notNull(),
    saleCityIds: integer().array().notNull(),
    saleProductIds: integer().array().notNull(),
    saleUnits: bigint({ mode: 'number' }).array().notNull(),
    saleRevenueCents: bigint({ mode: 'number' }).array().notNull(),
    /** Production: per building and product, made (output) or used up (input), with the building's type and city. */
    productionBuildingIds: integer().array().notNull(),
    productionBuildingTypes: text().array().notNull(),
    productionCityIds: integer().array().notNull(),
    productionProductIds: integer().array().notNull(),
    productionMade: boolean().array().notNull(),
    productionUnits: bigint({ mode: 'number' }).array().notNull(),
    /** The week's ledger summed by type and reason (the player's moves and the turn's): parallel arrays. */
    cashFlowTypes: text().array().notNull(),
    cashFlowReasons: text().array().notNull(),
    cashFlowAmountsCents: bigint({ mode: 'number' }).array().notNull(),
    cashFlowLines: integer().array().notNull(),
    dividendsReceived: jsonb().$type<WeekReportDividend[]>().notNull(),
    research: jsonb().$type<WeekReportResearch[]>().notNull(),
    events: jsonb().$type<WeekReportEvent[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.worldId, t.companyId, t.week] })],
);
