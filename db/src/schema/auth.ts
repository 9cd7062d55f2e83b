import { index, integer, pgTable, primaryKey, text, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { worlds } from './world.ts';
import { bytea, users } from './users.ts';

/** Lucia-style sessions: the token is `<id>.<secret>`; only SHA-256(secret) is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: text().primaryKey(),
    secretHash: bytea().notNull(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastVerifiedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The world the player is looking at (the header's switcher); null: the public world. */
    currentWorldId: integer().references((): AnyPgColumn => worlds.id, { onDelete: 'set null' }),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

export const oauthAccounts = pgTable(
  'oauth_accounts',
  {
    provider: text().notNull(),
    providerUserId: text().notNull(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerUserId] }), index('oauth_accounts_user_id_idx').on(t.userId)],
);

/** Consecutive sign-in failures per key ("email:<lowercased>" or "ip:<address>"). */
export const authThrottles = pgTable('auth_throttles', {
  key: text().primaryKey(),
  failures: integer().notNull().default(0),
  lockedUntil: timestamp({ withTimezone: true }),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
