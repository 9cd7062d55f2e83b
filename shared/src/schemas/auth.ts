// Request schemas for the auth domain (see common.ts for the building blocks).
// The web's sign-in form reuses these, so the browser and the API agree on the rules.
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../constants.ts';
import { responseIdSchema } from './common.ts';

/** The longest address SMTP allows. */
const MAX_EMAIL_LENGTH = 254;

/** An email address, surrounding spaces removed. Case is kept; uniqueness ignores it. */
const emailSchema = z
  .string()
  .trim()
  .pipe(
    z.email({ message: 'Enter a valid email address' }).max(MAX_EMAIL_LENGTH, { message: `The email address can be at most ${MAX_EMAIL_LENGTH} characters` }),
  );

/** A new password: the spec's minimum of 6 characters, and a ceiling that bounds hashing work. */
const newPasswordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, { message: `The password must be at least ${MIN_PASSWORD_LENGTH} characters` })
  .max(MAX_PASSWORD_LENGTH, { message: `The password can be at most ${MAX_PASSWORD_LENGTH} characters` });

/** POST /api/auth/signup */
export const signUpInputSchema = z.object({ email: emailSchema, password: newPasswordSchema });
export type SignUpInput = z.infer<typeof signUpInputSchema>;

/**
 * POST /api/auth/signin. The password is only required and bounded here: any wrong password,
 * however short, gets the same generic answer.
 */
export const signInInputSchema = z.object({
  email: emailSchema,
  password: z
    .string()
    .min(1, { message: 'Enter your password' })
    .max(MAX_PASSWORD_LENGTH, { message: `The password can be at most ${MAX_PASSWORD_LENGTH} characters` }),
});
export type SignInInput = z.infer<typeof signInInputSchema>;

/** What the auth endpoints say about the signed-in user. */
export interface AuthUser {
  id: number;
  email: string;
  isAdmin: boolean;
}

/** GET /api/auth/providers */
export interface AuthProviders {
  google: boolean;
}

// ---------------------------------------------------------------------------------------------
// Responses of the auth routes (api/src/auth): the session user as they tell it.
const authUserSchema = z.strictObject({ id: responseIdSchema, email: z.string(), isAdmin: z.boolean() });
/** POST /api/auth/signup and /api/auth/signin. */
export const signedInResponseSchema = z.strictObject({
  user: authUserSchema,
  token: z.string().describe('The session token: also set as the HttpOnly cookie; scripts send it as Authorization: Bearer <token>'),
});
/** GET /api/auth/session. */
export const sessionResponseSchema = z.strictObject({ user: authUserSchema.nullable() });
/** GET /api/auth/providers. */
export const providersResponseSchema = z.strictObject({ google: z.boolean() });
