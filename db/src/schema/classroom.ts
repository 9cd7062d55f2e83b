/**
 * What instructors run a private world with (docs/worlds.md): who instructs it, the shocks they
 * apply (the turn uses them, the world's news shows them) and their announcements.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { SHOCK_KINDS, WORLD_ROLES } from '@marketcraft/shared';
import { inList } from './sqlHelpers.ts';
import { users } from './users.ts';
import { countries, products, worldId } from './world.ts';

/** Instructors and co-instructors of a world (its creator is its instructor). */
export const worldInstructors = pgTable(
  'world_instructors',
  {
    worldId: worldId(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text().notNull(),
    addedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.worldId, t.userId] }),
    check('world_instructors_role', inList(t.role, WORLD_ROLES)),
    index('world_instructors_user_idx').on(t.userId),
  ],
);

/**
 * A shock: for `weeks` turns from `start_week`, a country's tax rate, or a product's consumer demand
 * or exchange price, moves by `percent` (docs/worlds.md, "Shocks").
 */
export const worldShocks = pgTable(
  'world_shocks',
  {
    worldId: worldId(),
    id: integer().generatedAlwaysAsIdentity(),
    kind: text().notNull(),
    countryId: integer().references(() => countries.id),
    productId: integer().references(() => products.id),
    /** Signed percent: -50 halves, +20 raises by a fifth. */
    percent: integer().notNull(),
    startWeek: integer().notNull(),
    /** The last week the shock applies to (start_week + weeks - 1). */
    endWeek: integer().notNull(),
    description: text().notNull(),
    createdByUserId: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.worldId, t.id] }),
    check('world_shocks_kind', inList(t.kind, SHOCK_KINDS)),
    check('world_shocks_target', sql`(${t.kind} = 'tax_rate') = (${t.countryId} is not null) and (${t.kind} = 'tax_rate') = (${t.productId} is null)`),
    check('world_shocks_weeks', sql`${t.endWeek} >= ${t.startWeek} and ${t.startWeek} >= 1`),
    check('world_shocks_percent', sql`${t.percent} between -90 and 200 and ${t.percent} <> 0`),
    index('world_shocks_weeks_idx').on(t.worldId, t.startWeek, t.endWeek),
  ],
);

/** An instructor's message to everyone in the world (shown in its news). */
export const worldAnnouncements = pgTable(
  'world_announcements',
  {
    worldId: worldId(),
    id: integer().generatedAlwaysAsIdentity(),
    message: text().notNull(),
    week: integer().notNull(),
    createdByUserId: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.worldId, t.id] }),
    check('world_announcements_length', sql`length(trim(${t.message})) between 1 and 500`),
    index('world_announcements_created_idx').on(t.worldId, t.createdAt),
  ],
);
