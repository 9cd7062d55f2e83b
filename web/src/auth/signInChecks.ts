/** The form's checks (zod), a chunk of their own: SignInPage loads them on first focus. */
export { signInInputSchema, signUpInputSchema } from '@marketcraft/shared';
