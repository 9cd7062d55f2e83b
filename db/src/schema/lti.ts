/**
 * LTI 1.3 (docs/classroom.md, "Launch from your course system"): the tool's signing keys, the
 * course platforms registered with it, logins in flight, and who and which course launched.
 */
import { foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { worlds } from './world.ts';

/** The tool's RSA keys (JWKs); the newest not retired signs, retired ones stay in the JWKS a while. */
export const ltiToolKeys = pgTable('lti_tool_keys', {
  kid: text().primaryKey(),
  privateJwk: jsonb().notNull().$type<Record<string, unknown>>(),
  publicJwk: jsonb().notNull().$type<Record<string, unknown>>(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  retiredAt: timestamp({ withTimezone: true }),
});

/** A course platform (Canvas, Moodle, ...) registered with the tool. */
export const ltiPlatforms = pgTable(
  'lti_platforms',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    issuer: text().notNull(),
    clientId: text().notNull(),
    deploymentIds: text().array().notNull(),
    authLoginUrl: text().notNull(),
    authTokenUrl: text().notNull(),
    jwksUrl: text().notNull(),
    registeredByUserId: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('lti_platforms_issuer_client_key').on(t.issuer, t.clientId)],
);

/** A login between its initiation and its launch: the state is used once, with its nonce. */
export const ltiLoginStates = pgTable('lti_login_states', {
  state: text().primaryKey(),
  nonce: text().notNull(),
  platformId: integer()
    .notNull()
    .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** The account a platform's user (its `sub`) signs in as; one account per platform user. */
export const ltiUsers = pgTable(
  'lti_users',
  {
    platformId: integer()
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    subject: text().notNull(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text(),
  },
  (t) => [primaryKey({ name: 'lti_users_pk', columns: [t.platformId, t.subject] }), uniqueIndex('lti_users_user_key').on(t.userId)],
);

/** A course (the platform's context) and the class world it plays in, with its service URLs. */
export const ltiContexts = pgTable(
  'lti_contexts',
  {
    platformId: integer()
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    contextId: text().notNull(),
    worldId: integer()
      .notNull()
      .references(() => worlds.id, { onDelete: 'cascade' }),
    title: text(),
    lineitemsUrl: text(),
    membershipsUrl: text(),
    lineItemUrl: text(),
  },
  (t) => [primaryKey({ name: 'lti_contexts_pk', columns: [t.platformId, t.contextId] }), index('lti_contexts_world_idx').on(t.worldId)],
);

/** The score last posted for a student in a course (posted again only when it changes). */
export const ltiScores = pgTable(
  'lti_scores',
  {
    platformId: integer().notNull(),
    contextId: text().notNull(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    score: integer().notNull(),
    postedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'lti_scores_pk', columns: [t.platformId, t.contextId, t.userId] }),
    foreignKey({
      name: 'lti_scores_context_fk',
      columns: [t.platformId, t.contextId],
      foreignColumns: [ltiContexts.platformId, ltiContexts.contextId],
    }).onDelete('cascade'),
  ],
);

/** A course's line item for one of our resources (an assignment: `marketcraft-assignment-<id>`), created on the first post. */
export const ltiLineItems = pgTable(
  'lti_line_items',
  {
    platformId: integer().notNull(),
    contextId: text().notNull(),
    resourceId: text().notNull(),
    lineItemUrl: text().notNull(),
  },
  (t) => [
    primaryKey({ name: 'lti_line_items_pk', columns: [t.platformId, t.contextId, t.resourceId] }),
    foreignKey({
      name: 'lti_line_items_context_fk',
      columns: [t.platformId, t.contextId],
      foreignColumns: [ltiContexts.platformId, ltiContexts.contextId],
    }).onDelete('cascade'),
  ],
);

/** The score last posted to a line item for a student (posted again only when it changes). */
export const ltiLineItemScores = pgTable(
  'lti_line_item_scores',
  {
    platformId: integer().notNull(),
    contextId: text().notNull(),
    resourceId: text().notNull(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    score: integer().notNull(),
    postedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'lti_line_item_scores_pk', columns: [t.platformId, t.contextId, t.resourceId, t.userId] }),
    foreignKey({
      name: 'lti_line_item_scores_item_fk',
      columns: [t.platformId, t.contextId, t.resourceId],
      foreignColumns: [ltiLineItems.platformId, ltiLineItems.contextId, ltiLineItems.resourceId],
    }).onDelete('cascade'),
  ],
);
