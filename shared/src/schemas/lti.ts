import { z } from 'zod';
import { idSchema } from './common.ts';

/**
 * LTI 1.3 platform registration (docs/classroom.md, "Launch from your course system"): what a
 * course platform's admin page shows for the tool's "developer key" or "external tool".
 */
const platformUrl = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), { message: `${label} must be an http(s) address` });

export const registerLtiPlatformSchema = z.object({
  issuer: z.string({ error: 'Issuer is required' }).trim().min(1, 'Issuer is required').max(500, 'Issuer is at most 500 characters'),
  client_id: z.string({ error: 'Client id is required' }).trim().min(1, 'Client id is required').max(500, 'Client id is at most 500 characters'),
  deployment_ids: z
    .array(z.string().trim().min(1, 'A deployment id cannot be empty').max(500, 'A deployment id is at most 500 characters'), {
      error: 'Deployment ids are required',
    })
    .min(1, 'Add at least one deployment id')
    .max(50, 'At most 50 deployment ids'),
  auth_login_url: platformUrl('Authentication request URL'),
  auth_token_url: platformUrl('Access token URL'),
  jwks_url: platformUrl('Keyset (JWKS) URL'),
});
export type RegisterLtiPlatformInput = z.input<typeof registerLtiPlatformSchema>;

/** A registered course platform (GET/POST /api/lti/platforms). */
const ltiPlatformViewSchema = z.strictObject({
  id: z.number().int(),
  issuer: z.string(),
  client_id: z.string(),
  deployment_ids: z.array(z.string()),
  auth_login_url: z.string(),
  auth_token_url: z.string(),
  jwks_url: z.string(),
  created_at: z.string(),
});
export type LtiPlatformView = z.infer<typeof ltiPlatformViewSchema>;

/** A member of the course as its platform reports them (Names and Role Provisioning). */
const rosterMemberSchema = z.strictObject({
  user_id: z.string().describe("The platform's user id (sub)"),
  name: z.string().nullable(),
  email: z.string().nullable(),
  roles: z.array(z.string()),
  status: z.string(),
  launched: z.boolean().describe('Whether they have launched Marketcraft (and so play in the world, for learners)'),
});

/** A course that launches into a world. */
const ltiCourseViewSchema = z.strictObject({
  title: z.string().nullable(),
  issuer: z.string(),
  can_move: z.boolean().describe('No student has joined the world yet: the course can still be linked to another of your worlds'),
});
export type LtiCourseView = z.infer<typeof ltiCourseViewSchema>;

/** POST /api/worlds/{id}/lti/link: the course of world `id` plays in `world_id` from now on. */
export const linkLtiCourseSchema = z.object({
  id: idSchema,
  world_id: idSchema.describe('One of your open class worlds'),
});

export const ltiResponses = {
  platforms: z.array(ltiPlatformViewSchema),
  registerPlatform: ltiPlatformViewSchema,
  postScores: z.strictObject({
    posted: z.number().int().describe('Scores sent now (new or changed)'),
    unchanged: z.number().int().describe('Scores the platform already had'),
  }),
  roster: z.array(rosterMemberSchema),
  courses: z.array(ltiCourseViewSchema),
  linkCourse: z.strictObject({ ok: z.literal(true) }),
};

/** The addresses a platform's registration asks for (GET /api/lti/config). */
export interface LtiToolConfig {
  login_url: string;
  launch_url: string;
  jwks_url: string;
  deep_link_url: string;
}
