import { sql } from 'drizzle-orm';
import { boolean, customType, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

// The accounts every other table points to: a file of their own, so that auth.ts and world.ts both import it, and not each other.

/** Binary columns (token hashes) as Uint8Array. */
export const bytea = customType<{ data: Uint8Array; driverData: Buffer }>({
  dataType: () => 'bytea',
  toDriver: (value) => Buffer.from(value),
  fromDriver: (value) => new Uint8Array(value),
});

export const users = pgTable(
  'users',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    email: text().notNull(),
    /** argon2id hash; null for accounts that only sign in with Google. */
    passwordHash: text(),
    isAdmin: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`)],
);
