import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { recordWorldId } from './world.ts';

/** An entry's outcome: applied with what it changed, or the refusal the player got. */
export type LoggedOutcome = { applied: true; result?: unknown } | { applied: false; code: string; message: string };

/**
 * The action log (docs/replay.md): every state-changing action of a world (players' actions through
 * the action door, the bots' moves, foundings, the instructors' shocks, clock and announcements,
 * and each turn), appended in the action's own transaction. `seq` is the commit order in the world
 * (taken under the world's log lock, held to commit: appendToLog); replay re-runs the entries in
 * that order. Never edited (a trigger refuses updates). No foreign keys: an append-only record
 * written by the hundred each turn (the bots' moves), like the ledger.
 */
export const worldActions = pgTable(
  'world_actions',
  {
    worldId: recordWorldId(),
    seq: bigint({ mode: 'number' }).notNull(),
    /** The world's week when the action committed. */
    week: integer().notNull(),
    /** The acting company; null for the world's own entries (a shock, the clock, a turn). */
    companyId: integer(),
    /** The signed-in user (a team member, an instructor); null for a bot or the turn. */
    actingUserId: integer(),
    action: text().notNull(),
    /** The validated input (the action schema's output). */
    input: jsonb().notNull(),
    outcome: jsonb().$type<LoggedOutcome>().notNull(),
    /** Written by the turn (the bots' moves): replay gets them again from the turn, not from the log. */
    byTurn: boolean().notNull().default(false),
    /** When it was logged, for people only: replay never reads it. */
    loggedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.worldId, t.seq] }),
    index('world_actions_company_idx').on(t.worldId, t.companyId, t.seq),
    check('world_actions_seq_positive', sql`${t.seq} >= 1`),
  ],
);
