/**
 * Assignments, the gradebook and the scoring weights of a class world (docs/classroom.md,
 * "Assignments"): the request schemas (the editor's form and the API check with them) and the
 * answers.
 */
import { z } from 'zod';
import {
  CHECKPOINT_CATALOGUE,
  CHECKPOINT_KINDS,
  MAX_ASSIGNMENT_TITLE_LENGTH,
  MAX_CHECKPOINT_POINTS,
  MAX_CHECKPOINT_WEEKS,
  MAX_CHECKPOINTS_PER_ASSIGNMENT,
  PROFIT_TERM_NAMES,
  TEAM_WEIGHTINGS,
} from '../assignments.ts';
import { controlCharactersMessage, countSchema, hasNoControlCharacters, hasVisibleCharacter, idSchema, responseIdSchema } from './common.ts';
import { wholeNumberBetween } from './worlds.ts';

const titleSchema = z
  .string({ error: 'Title is required' })
  .trim()
  .min(1, 'Title cannot be empty')
  .max(MAX_ASSIGNMENT_TITLE_LENGTH, `Title must be ${MAX_ASSIGNMENT_TITLE_LENGTH} characters or less`)
  .refine((text) => text === '' || hasVisibleCharacter(text), 'Title cannot be empty')
  .refine((text) => hasNoControlCharacters(text), controlCharactersMessage('Title'));

const dueWeekSchema = wholeNumberBetween('Due week', 1, 10_000, '1 and 10,000');

const checkpointInputSchema = z
  .object({
    kind: z.enum(CHECKPOINT_KINDS, { error: `Choose a kind of checkpoint: ${CHECKPOINT_KINDS.join(', ')}` }),
    points: wholeNumberBetween('Points', 1, MAX_CHECKPOINT_POINTS, `1 and ${MAX_CHECKPOINT_POINTS}`),
    target: z.number({ error: 'Target must be a number' }).optional(),
    weeks: z.number({ error: 'Weeks must be a number' }).optional(),
  })
  .superRefine((checkpoint, ctx) => {
    const entry = CHECKPOINT_CATALOGUE[checkpoint.kind];
    if (entry.target) {
      const { label, min, max } = entry.target;
      if (checkpoint.target === undefined) ctx.addIssue({ code: 'custom', path: ['target'], message: `${entry.label}: enter the ${label.toLowerCase()}` });
      else if (!Number.isInteger(checkpoint.target) || checkpoint.target < min || checkpoint.target > max)
        ctx.addIssue({ code: 'custom', path: ['target'], message: `${label} must be a whole number between ${min} and ${max.toLocaleString('en-US')}` });
    } else if (checkpoint.target !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['target'], message: `${entry.label} takes no target` });
    }
    if (entry.weeks) {
      if (checkpoint.weeks === undefined) ctx.addIssue({ code: 'custom', path: ['weeks'], message: `${entry.label}: enter the number of weeks` });
      else if (!Number.isInteger(checkpoint.weeks) || checkpoint.weeks < 1 || checkpoint.weeks > MAX_CHECKPOINT_WEEKS)
        ctx.addIssue({ code: 'custom', path: ['weeks'], message: `Weeks must be a whole number between 1 and ${MAX_CHECKPOINT_WEEKS}` });
    } else if (checkpoint.weeks !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['weeks'], message: `${entry.label} takes no number of weeks` });
    }
  });
export type CheckpointInput = z.infer<typeof checkpointInputSchema>;

/** POST /api/worlds/{id}/assignments. */
export const createAssignmentSchema = z.object({
  id: idSchema,
  title: titleSchema,
  due_week: dueWeekSchema,
  checkpoints: z
    .array(checkpointInputSchema, { error: 'Checkpoints must be a list' })
    .min(1, 'Add at least one checkpoint')
    .max(MAX_CHECKPOINTS_PER_ASSIGNMENT, `An assignment has at most ${MAX_CHECKPOINTS_PER_ASSIGNMENT} checkpoints`),
});

/** PATCH /api/worlds/{id}/assignments/{assignment_id}: the title or the due week (checkpoints stay as graded). */
export const updateAssignmentSchema = z.object({ id: idSchema, assignment_id: idSchema, title: titleSchema.optional(), due_week: dueWeekSchema.optional() });

/** DELETE /api/worlds/{id}/assignments/{assignment_id}. */
export const assignmentIdInput = z.object({ id: idSchema, assignment_id: idSchema });

const weightSchema = (label: string) => wholeNumberBetween(label, 0, 100, '0 and 100');
/** PUT /api/worlds/{id}/score-weights: the final score's weights in percent, adding up to 100. */
export const scoreWeightsSchema = z
  .object({
    id: idSchema,
    net_worth_rank: weightSchema('Net worth rank'),
    profit: weightSchema('Profit'),
    checkpoints: weightSchema('Checkpoints'),
    team_weighting: z.enum(TEAM_WEIGHTINGS, { error: 'Team weighting is equal or contribution' }).default('equal'),
  })
  .refine((weights) => weights.net_worth_rank + weights.profit + weights.checkpoints === 100, {
    message: 'The weights must add up to 100',
    path: ['checkpoints'],
  });

/** POST /api/me/assignments/{assignment_id}/answers: the answer to a question checkpoint, about a week of one's own reports. */
export const answerCheckpointSchema = z.object({
  assignment_id: idSchema,
  checkpoint_id: idSchema,
  week: wholeNumberBetween('Week', 1, 10_000, '1 and 10,000'),
  answer: z.enum(PROFIT_TERM_NAMES, { error: `Choose one of the terms: ${PROFIT_TERM_NAMES.join(', ')}` }),
});

// ---------------------------------------------------------------------------------------------
// Responses

const id = responseIdSchema;
const week = z.number().int().positive();
const points = countSchema;

const evidenceSchema = z
  .strictObject({
    summary: z.string(),
    figures: z.array(z.strictObject({ label: z.string(), value: z.number(), unit: z.enum(['dollars', 'units', 'percent', 'count', 'weeks', 'ratio']) })),
  })
  .describe('What earned the checkpoint: a sentence and the figures of the week that did');

const checkpointViewSchema = z.strictObject({
  id,
  kind: z.enum(CHECKPOINT_KINDS),
  label: z.string().describe("The catalogue's name of the kind"),
  measures: z.string().describe('What it measures, in a sentence'),
  points: z.number().int().positive(),
  target: z.number().nullable().describe('Dollars of net worth, percent of efficiency or a number of cities; null for the other kinds'),
  weeks: z.number().int().positive().nullable().describe('Weeks in a row (weekly profit, no debt)'),
});

const assignmentViewSchema = z.strictObject({
  id,
  title: z.string(),
  due_week: week,
  points_possible: points,
  checkpoints: z.array(checkpointViewSchema),
});

const questionSchema = z
  .strictObject({
    week,
    prompt: z.string(),
    options: z.array(z.strictObject({ name: z.enum(PROFIT_TERM_NAMES), label: z.string() })),
  })
  .describe('The question to answer now (about your latest reported week); null once answered, closed or before a week with two moving terms');

const myCheckpointSchema = checkpointViewSchema.extend({
  status: z
    .enum(['earned', 'wrong', 'open', 'missed'])
    .describe('earned; wrong (the question was answered wrongly); open (can still be earned); missed (due week passed)'),
  points_earned: points,
  week: week.nullable().describe('The week that earned it (or was asked about)'),
  evidence: evidenceSchema.nullable(),
  question: questionSchema.nullable(),
});

const myAssignmentSchema = assignmentViewSchema.extend({
  status: z.enum(['open', 'closed']).describe('open until the turn of its due week has run'),
  points_earned: points,
  checkpoints: z.array(myCheckpointSchema),
});

const weightsSchema = z
  .strictObject({
    net_worth_rank: countSchema,
    profit: countSchema,
    checkpoints: countSchema,
    team_weighting: z.enum(TEAM_WEIGHTINGS).describe("A team's checkpoint points to each member: equal, or by their share of the team's actions"),
  })
  .describe('Percent; they add up to 100');

const gradebookSchema = z.strictObject({
  current_week: week,
  weights: weightsSchema,
  assignments: z.array(z.strictObject({ id, title: z.string(), due_week: week, points_possible: points })),
  students: z.array(
    z.strictObject({
      user_id: id,
      name: z.string().describe("The course's name for them (an LTI launch), else their e-mail"),
      email: z.string(),
      company_id: id,
      company_name: z.string(),
      assignments: z.array(
        z.strictObject({
          assignment_id: id,
          points,
          checkpoints: z.array(z.strictObject({ checkpoint_id: id, points, week, evidence: evidenceSchema })),
        }),
      ),
      total_points: points,
      net_worth_rank_score: points.describe('0-100 by net-worth rank'),
      profit_score: points.describe('0-100 by rank of profit over all weeks'),
      checkpoint_score: points.describe('0-100: points earned of all points possible'),
      final_score: points.describe('0-100, the weights applied (what the course platform receives)'),
    }),
  ),
});

export const assignmentsResponses = {
  list: z.array(assignmentViewSchema),
  create: assignmentViewSchema,
  update: assignmentViewSchema,
  remove: z.strictObject({ ok: z.literal(true) }),
  gradebook: gradebookSchema,
  setWeights: weightsSchema,
  mine: z.array(myAssignmentSchema),
  answer: myCheckpointSchema,
};

export type AssignmentView = z.infer<typeof assignmentViewSchema>;
export type CheckpointView = z.infer<typeof checkpointViewSchema>;
export type MyAssignmentView = z.infer<typeof myAssignmentSchema>;
export type MyCheckpointView = z.infer<typeof myCheckpointSchema>;
export type GradebookView = z.infer<typeof gradebookSchema>;
export type ScoreWeights = z.infer<typeof weightsSchema>;
