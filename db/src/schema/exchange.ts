import { sql } from 'drizzle-orm';
import { bigint, check, foreignKey, index, integer, json, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { CONTRACT_STATUSES, EXCHANGE_ORDER_STATUSES, EXCHANGE_SIDES } from '@marketcraft/shared';
import { inList } from './sqlHelpers.ts';
import { products, recordWorldId, worldId } from './world.ts';
import { companies } from './companies.ts';

/*
 * The exchange between players (docs/exchange.md): limit orders in the weekly call auction, each
 * auction's clearing, each order's fills, and contracts between two companies. Per world, like
 * every game table (companies.ts).
 */

/**
 * A limit order. Its escrow is what it holds now: cash (`escrow_cents`, a buy: the limit x units left
 * plus the fee) or goods (`escrow_units`, a sell, at their average cost `escrow_cost_cents`). Only
 * live orders (open, partially_filled) hold anything; every change of it is one conditional update
 * under the company's row lock, with its ledger row.
 */
export const exchangeOrders = pgTable(
  'exchange_orders',
  {
    worldId: worldId(),
    id: integer().generatedAlwaysAsIdentity(),
    companyId: integer().notNull(),
    productId: integer()
      .notNull()
      .references(() => products.id),
    side: text().notNull(),
    quantity: bigint({ mode: 'number' }).notNull(),
    filledQuantity: bigint({ mode: 'number' }).notNull().default(0),
    limitPriceCents: bigint({ mode: 'number' }).notNull(),
    escrowCents: bigint({ mode: 'number' }).notNull().default(0),
    escrowUnits: bigint({ mode: 'number' }).notNull().default(0),
    /** Average cost per unit of the goods a sell order holds (they go back to the warehouse at it). */
    escrowCostCents: bigint({ mode: 'number' }).notNull().default(0),
    /** Clearing price x units of every fill so far (the fee is charged on it: exchangeFeeRule). */
    filledValueCents: bigint({ mode: 'number' }).notNull().default(0),
    feeCents: bigint({ mode: 'number' }).notNull().default(0),
    status: text().notNull().default('open'),
    weekPlaced: integer().notNull(),
    expiresWeek: integer().notNull(),
    /** The week it was filled, cancelled or expired. */
    closedWeek: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.worldId, t.id] }),
    foreignKey({ name: 'exchange_orders_company_fk', columns: [t.worldId, t.companyId], foreignColumns: [companies.worldId, companies.id] }).onDelete(
      'cascade',
    ),
    check('exchange_orders_side', inList(t.side, EXCHANGE_SIDES)),
    check('exchange_orders_status', inList(t.status, EXCHANGE_ORDER_STATUSES)),
    check('exchange_orders_quantity', sql`${t.quantity} > 0 and ${t.filledQuantity} between 0 and ${t.quantity}`),
    check('exchange_orders_limit', sql`${t.limitPriceCents} > 0`),
    check(
      'exchange_orders_escrow',
      sql`${t.escrowCents} >= 0 and ${t.escrowUnits} >= 0 and (${t.side} = 'buy' or ${t.escrowCents} = 0) and (${t.side} = 'sell' or ${t.escrowUnits} = 0)`,
    ),
    check('exchange_orders_weeks', sql`${t.expiresWeek} >= ${t.weekPlaced}`),
    // The auction and the books read the live orders: every one's last week is this week or later
    // (liveOrdersSql), so they are among the last 8 weeks' orders, whatever has piled up before. Not
    // partial on the status: a fill, cancel or expiry changes no indexed column, so with the room the
    // table's fillfactor (60, migration 0050) leaves on each page it is a HOT update.
    index('exchange_orders_week_idx').on(t.worldId, t.expiresWeek, t.productId),
    index('exchange_orders_company_idx').on(t.worldId, t.companyId),
  ],
);

/** One week's clearing of one product: its price, volumes and both published curves. */
export const exchangeAuctions = pgTable(
  'exchange_auctions',
  {
    worldId: recordWorldId(),
    productId: integer().notNull(),
    week: integer().notNull(),
    /** Null when nothing traded. */
    priceCents: bigint({ mode: 'number' }),
    volume: bigint({ mode: 'number' }).notNull(),
    playersVolume: bigint({ mode: 'number' }).notNull(),
    makerBought: bigint({ mode: 'number' }).notNull(),
    makerSold: bigint({ mode: 'number' }).notNull(),
    /**
     * The players' curves: [[price_cents, quantity], ...] cumulative, bids high to low, asks low to
     * high (pairs since migration 0045). `json`, not `jsonb`, since 0053: read whole, never queried
     * inside, so the turn stores their text as sent.
     */
    bids: json().notNull(),
    asks: json().notNull(),
  },
  (t) => [primaryKey({ columns: [t.worldId, t.productId, t.week] })],
);

/** An order's fill in one week's auction (the week results list them). */
export const exchangeFills = pgTable(
  'exchange_fills',
  {
    worldId: recordWorldId(),
    orderId: integer().notNull(),
    week: integer().notNull(),
    companyId: integer().notNull(),
    productId: integer().notNull(),
    side: text().notNull(),
    quantity: bigint({ mode: 'number' }).notNull(),
    priceCents: bigint({ mode: 'number' }).notNull(),
    feeCents: bigint({ mode: 'number' }).notNull(),
  },
  // One key for uniqueness (an order fills once a week) and for the week results' read by company
  // and week: one index entry a fill (migration 0045).
  (t) => [primaryKey({ columns: [t.worldId, t.companyId, t.week, t.orderId] })],
);

/**
 * How many times a product's live orders changed outside the turn (an order placed or cancelled):
 * part of the version a published book is kept under (books.ts). Raised in the placing or
 * cancelling transaction; the turn's fills and expiries change the week, the version's other part.
 */
export const exchangeBookVersions = pgTable(
  'exchange_book_versions',
  {
    worldId: recordWorldId(),
    productId: integer().notNull(),
    version: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.worldId, t.productId] })],
);

/** An offer of goods from one company to another at a price; the seller's goods are held until it closes. */
export const contracts = pgTable(
  'contracts',
  {
    worldId: worldId(),
    id: integer().generatedAlwaysAsIdentity(),
    sellerCompanyId: integer().notNull(),
    buyerCompanyId: integer().notNull(),
    productId: integer()
      .notNull()
      .references(() => products.id),
    quantity: bigint({ mode: 'number' }).notNull(),
    unitPriceCents: bigint({ mode: 'number' }).notNull(),
    /** Average cost per unit of the goods held (they go back to the seller's warehouse at it). */
    escrowCostCents: bigint({ mode: 'number' }).notNull().default(0),
    status: text().notNull().default('open'),
    weekOffered: integer().notNull(),
    expiresWeek: integer().notNull(),
    closedWeek: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.worldId, t.id] }),
    foreignKey({ name: 'contracts_seller_fk', columns: [t.worldId, t.sellerCompanyId], foreignColumns: [companies.worldId, companies.id] }).onDelete('cascade'),
    foreignKey({ name: 'contracts_buyer_fk', columns: [t.worldId, t.buyerCompanyId], foreignColumns: [companies.worldId, companies.id] }).onDelete('cascade'),
    check('contracts_status', inList(t.status, CONTRACT_STATUSES)),
    check('contracts_quantity', sql`${t.quantity} > 0`),
    check('contracts_price', sql`${t.unitPriceCents} > 0`),
    check('contracts_not_self', sql`${t.sellerCompanyId} <> ${t.buyerCompanyId}`),
    check('contracts_weeks', sql`${t.expiresWeek} >= ${t.weekOffered}`),
    index('contracts_buyer_idx').on(t.worldId, t.buyerCompanyId, t.status),
    index('contracts_seller_idx').on(t.worldId, t.sellerCompanyId, t.status),
  ],
);
