import { z } from 'zod';

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

export interface LtiPlatformView {
  id: number;
  issuer: string;
  client_id: string;
  deployment_ids: string[];
  auth_login_url: string;
  auth_token_url: string;
  jwks_url: string;
  created_at: string;
}

/** The addresses a platform's registration asks for (GET /api/lti/config). */
export interface LtiToolConfig {
  login_url: string;
  launch_url: string;
  jwks_url: string;
  deep_link_url: string;
}
