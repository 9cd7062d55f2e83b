/**
 * Teams in class worlds (docs/classroom.md, "Teams"): the requests of the instructor's Teams panel
 * and of a student's team card, and the answers they read.
 */
import { z } from 'zod';
import { MAX_TEAM_SIZE, MIN_TEAM_SIZE } from '../constants.ts';
import { COMPANY_STATUSES, TEAM_ROLES } from '../catalog.ts';
import { idSchema, responseIdSchema } from './common.ts';

const roleSchema = z.enum(TEAM_ROLES, { error: 'Choose a role: ceo, operations, finance or sales' });

/** POST /api/worlds/{id}/teams/members {email, company_id, role?}: the instructor places a student in a team (or moves them). */
export const assignTeamMemberSchema = z.object({
  id: idSchema,
  email: z.string().trim().toLowerCase().email('Enter a valid email address'),
  company_id: idSchema,
  role: roleSchema.nullable().optional(),
});

/** PATCH /api/worlds/{id}/teams/members/{user_id} {role}: a member's label (null: none), set by the instructor or a teammate. */
export const updateTeamMemberSchema = z.object({ id: idSchema, user_id: idSchema, role: roleSchema.nullable() });

/** DELETE /api/worlds/{id}/teams/members/{user_id}: the instructor removes a member, or a student leaves their team. */
export const removeTeamMemberSchema = z.object({ id: idSchema, user_id: idSchema });

const memberViewSchema = z.strictObject({
  user_id: responseIdSchema,
  email: z.string(),
  name: z.string().nullable().describe('The name their course system gave (students who launched from one; their address is then lti-…@lti.invalid)'),
  role: z.enum(TEAM_ROLES).nullable().describe('An optional label the team sees'),
  joined_week: z.number().int().positive(),
  is_you: z.boolean(),
});

const teamViewSchema = z.strictObject({
  company_id: responseIdSchema,
  company_name: z.string(),
  status: z.enum(COMPANY_STATUSES),
  team_code: z.string().nullable().describe("What a student types with the world's code to join this team (its members and instructors only)"),
  members: z.array(memberViewSchema),
});

const teamsViewSchema = z.strictObject({
  team_size: z.number().int().min(MIN_TEAM_SIZE).max(MAX_TEAM_SIZE),
  teams: z.array(teamViewSchema).describe("Instructors: every player company's team; a student: their own team only"),
});

const contributionMemberSchema = z.strictObject({
  user_id: responseIdSchema,
  email: z.string(),
  name: z.string().nullable().describe('The name their course system gave (students who launched from one)'),
  is_member: z.boolean().describe('Still in the team (a member who left or was moved keeps the actions they took for it)'),
  actions: z.number().int().nonnegative().describe('Actions applied for the company (refused ones not counted)'),
  refused: z.number().int().nonnegative().describe('Actions the game refused them'),
  share_percent: z.number().min(0).max(100).describe("Their applied actions as a percent of the team's, one decimal"),
});

const contributionsViewSchema = z.strictObject({
  teams: z.array(
    z.strictObject({
      company_id: responseIdSchema,
      company_name: z.string(),
      actions: z.number().int().nonnegative().describe("The team's applied actions, all members"),
      members: z.array(contributionMemberSchema),
      timeline: z
        .array(
          z.strictObject({
            week: z.number().int().positive(),
            actions: z.array(z.strictObject({ user_id: responseIdSchema, actions: z.number().int().nonnegative() })),
          }),
        )
        .describe('Applied actions per week and member, oldest week first (weeks without any left out)'),
    }),
  ),
});

export type ContributionsView = z.infer<typeof contributionsViewSchema>;

export const teamsResponses = {
  list: teamsViewSchema,
  contributions: contributionsViewSchema,
  assign: teamsViewSchema,
  update: teamsViewSchema,
  remove: teamsViewSchema,
};

export type TeamsView = z.infer<typeof teamsViewSchema>;
export type TeamView = z.infer<typeof teamViewSchema>;
