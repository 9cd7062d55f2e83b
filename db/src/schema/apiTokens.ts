/**
 * The official player API: personal access tokens, their daily request counts (the audit) and the
 * rate limiter's per-minute counters. See docs/api.md.
 */
import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { API_TOKEN_SCOPES } from '@marketcraft/shared';
import { inList } from './sqlHelpers.ts';
import { bytea, users } from './users.ts';

/**
 * A token is `mc_pat_<lookup_id>_<secret>`; the row keeps the lookup id and SHA-256(secret) only.
 * Revoked tokens keep their row (so they answer "revoked", not "unknown") until housekeeping
 * deletes them 30 days after they were revoked or expired.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    lookupId: text().notNull(),
    secretHash: bytea().notNull(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    scope: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Null: never expires. */
    expiresAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
    /** Written at most once a minute per token. */
    lastUsedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('api_tokens_lookup_id_key').on(t.lookupId),
    index('api_tokens_user_id_idx').on(t.userId),
    check('api_tokens_scope', inList(t.scope, API_TOKEN_SCOPES)),
    check('api_tokens_name_length', sql`length(${t.name}) between 1 and 50`),
  ],
);

/** Requests per token per UTC day (the audit the profile and the admins see, and the "API" badge). */
export const apiTokenUsage = pgTable(
  'api_token_usage',
  {
    tokenId: integer()
      .notNull()
      .references(() => apiTokens.id, { onDelete: 'cascade' }),
    day: date({ mode: 'string' }).notNull(),
    /**
     * The company the token acted for (the owner's active company at the time). No foreign key:
     * companies are keyed by (world_id, id) and never deleted; ids are unique across worlds.
     */
    companyId: integer(),
    requests: integer().notNull().default(0),
    mutations: integer().notNull().default(0),
    /** Requests refused with 429. */
    limited: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.day] }), index('api_token_usage_day_idx').on(t.day)],
);

/**
 * The rate limiter's counters: one row per subject (`token:<id>` or `session:<id>`) and minute.
 * UNLOGGED (see the migration): no WAL for a counter that only matters for a minute; after a
 * crash of PostgreSQL the counts start again from zero.
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    subject: text().notNull(),
    windowStart: timestamp({ withTimezone: true }).notNull(),
    requests: integer().notNull().default(0),
    mutations: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.subject, t.windowStart] })],
);
