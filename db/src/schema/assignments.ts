/**
 * Graded assignments of class worlds (docs/classroom.md, "Assignments"): an instructor's assignments
 * and their checkpoints, what each company earned with its evidence, and the world's scoring weights.
 */
import { sql } from 'drizzle-orm';
import { bigint, check, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { CHECKPOINT_KINDS, TEAM_WEIGHTINGS, type CheckpointEvidence } from '@marketcraft/shared';
import { inList } from './sqlHelpers.ts';
import { users } from './users.ts';
import { worldId, worlds } from './world.ts';
import { companies } from './companies.ts';

export const assignments = pgTable(
  'assignments',
  {
    worldId: worldId(),
    id: integer().generatedAlwaysAsIdentity(),
    title: text().notNull(),
    /** The last week whose turn counts: checkpoints earned in later weeks earn no points. */
    dueWeek: integer().notNull(),
    createdByUserId: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'assignments_pk', columns: [t.worldId, t.id] }),
    check('assignments_due_week', sql`${t.dueWeek} >= 1`),
    check('assignments_title_length', sql`length(trim(${t.title})) between 1 and 100`),
  ],
);

export const assignmentCheckpoints = pgTable(
  'assignment_checkpoints',
  {
    worldId: worldId(),
    id: integer().generatedAlwaysAsIdentity(),
    assignmentId: integer().notNull(),
    /** Its place in the assignment (0, 1, ...). */
    position: integer().notNull(),
    kind: text().notNull(),
    points: integer().notNull(),
    /** Net worth in cents, efficiency in percent, or a number of cities; null for the other kinds. */
    target: bigint({ mode: 'number' }),
    /** Weeks in a row (weekly_profit, no_debt). */
    weeks: integer(),
  },
  (t) => [
    primaryKey({ name: 'assignment_checkpoints_pk', columns: [t.worldId, t.id] }),
    foreignKey({
      name: 'assignment_checkpoints_assignment_fk',
      columns: [t.worldId, t.assignmentId],
      foreignColumns: [assignments.worldId, assignments.id],
    }).onDelete('cascade'),
    check('assignment_checkpoints_kind', inList(t.kind, CHECKPOINT_KINDS)),
    check('assignment_checkpoints_points', sql`${t.points} between 1 and 100`),
    check('assignment_checkpoints_target', sql`${t.target} is null or ${t.target} >= 1`),
    check('assignment_checkpoints_weeks', sql`${t.weeks} is null or ${t.weeks} between 1 and 52`),
    index('assignment_checkpoints_assignment_idx').on(t.worldId, t.assignmentId, t.position),
  ],
);

/**
 * A checkpoint a company earned (or answered: a wrong answer is a row of 0 points, so a question is
 * answered once), the week that earned it and the figures that did (evidence).
 */
export const checkpointResults = pgTable(
  'checkpoint_results',
  {
    worldId: worldId(),
    checkpointId: integer().notNull(),
    companyId: integer().notNull(),
    week: integer().notNull(),
    points: integer().notNull(),
    evidence: jsonb().$type<CheckpointEvidence>().notNull(),
    answeredByUserId: integer().references(() => users.id, { onDelete: 'set null' }),
    earnedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'checkpoint_results_pk', columns: [t.worldId, t.checkpointId, t.companyId] }),
    foreignKey({
      name: 'checkpoint_results_checkpoint_fk',
      columns: [t.worldId, t.checkpointId],
      foreignColumns: [assignmentCheckpoints.worldId, assignmentCheckpoints.id],
    }).onDelete('cascade'),
    foreignKey({ name: 'checkpoint_results_company_fk', columns: [t.worldId, t.companyId], foreignColumns: [companies.worldId, companies.id] }).onDelete(
      'cascade',
    ),
    check('checkpoint_results_points', sql`${t.points} >= 0`),
    index('checkpoint_results_company_idx').on(t.worldId, t.companyId),
  ],
);

/** The instructor's weights of the world's final score, in percent (none: DEFAULT_SCORE_WEIGHTS). */
export const worldScoreWeights = pgTable(
  'world_score_weights',
  {
    worldId: integer()
      .primaryKey()
      .references(() => worlds.id),
    netWorthRank: integer().notNull(),
    profit: integer().notNull(),
    checkpoints: integer().notNull(),
    /** How a team's checkpoint points reach its members: 'equal' or 'contribution'. */
    teamWeighting: text().notNull().default('equal'),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('world_score_weights_range', sql`${t.netWorthRank} between 0 and 100 and ${t.profit} between 0 and 100 and ${t.checkpoints} between 0 and 100`),
    check('world_score_weights_team_weighting', inList(t.teamWeighting, TEAM_WEIGHTINGS)),
    check('world_score_weights_sum', sql`${t.netWorthRank} + ${t.profit} + ${t.checkpoints} = 100`),
  ],
);
