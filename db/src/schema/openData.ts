/**
 * Open data (docs/open-data.md): what the turn records of each finished week for the weekly data
 * files, and the files themselves. The records are one row per world and week of parallel arrays
 * (one element per company, or per city and product), the cheapest shape for the turn to write; the
 * files are made from them on first request and kept (db/src/game/opendata/).
 */
import { bigint, boolean, check, customType, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { DATA_FILE_FORMATS } from '@marketcraft/shared';
import { recordWorldId } from './world.ts';
import { inList } from './sqlHelpers.ts';

/** Every company of the turn as the week's books closed (after the report, before the bots' moves). */
export const weekCompanyFigures = pgTable(
  'week_company_figures',
  {
    worldId: recordWorldId(),
    week: integer().notNull(),
    companyIds: integer().array().notNull(),
    names: text().array().notNull(),
    isBots: boolean().array().notNull(),
    /** A bot's strategy, null for players (public on the leaderboard). */
    strategies: text().array().notNull(),
    /** active, or bankrupt when this turn made it so. */
    statuses: text().array().notNull(),
    /** Place on the leaderboard after the turn; null for a company that went bankrupt. */
    ranks: integer().array().notNull(),
    cashCents: bigint({ mode: 'number' }).array().notNull(),
    netWorthCents: bigint({ mode: 'number' }).array().notNull(),
    listed: boolean().array().notNull(),
    sharePriceCents: bigint({ mode: 'number' }).array().notNull(),
    totalShares: bigint({ mode: 'number' }).array().notNull(),
    bookValueCents: bigint({ mode: 'number' }).array().notNull(),
    dividendPerShareCents: bigint({ mode: 'number' }).array().notNull(),
    sharesBought: bigint({ mode: 'number' }).array().notNull(),
    sharesSold: bigint({ mode: 'number' }).array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.worldId, t.week] })],
);

/** The stores' sales of the week per city and product, where something sold. */
export const weekCitySales = pgTable(
  'week_city_sales',
  {
    worldId: recordWorldId(),
    week: integer().notNull(),
    cityIds: integer().array().notNull(),
    productIds: integer().array().notNull(),
    stores: integer().array().notNull(),
    units: bigint({ mode: 'number' }).array().notNull(),
    revenueCents: bigint({ mode: 'number' }).array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.worldId, t.week] })],
);

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** A weekly data file, made once and kept (a finished week never changes). */
export const dataFiles = pgTable(
  'data_files',
  {
    worldId: recordWorldId(),
    week: integer().notNull(),
    tableName: text().notNull(),
    format: text().notNull(),
    content: bytea().notNull(),
    /** Hex SHA-256 of the content: the manifest's checksum and the file's ETag. */
    sha256: text().notNull(),
    rows: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.worldId, t.week, t.tableName, t.format] }), check('data_files_format', inList(t.format, DATA_FILE_FORMATS))],
);
