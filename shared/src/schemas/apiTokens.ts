// Request schemas of the personal access token routes (the profile's form uses the same ones).
import { z } from 'zod';
import { API_TOKEN_SCOPES, MAX_API_TOKEN_EXPIRY_DAYS, MAX_API_TOKEN_NAME_LENGTH } from '../apiAccess.ts';
import { controlCharactersMessage, hasNoControlCharacters, hasVisibleCharacter, idSchema } from './common.ts';

export const apiTokenNameSchema = z
  .string()
  .trim()
  .min(1, 'Token name cannot be empty')
  .max(MAX_API_TOKEN_NAME_LENGTH, `Token name must be ${MAX_API_TOKEN_NAME_LENGTH} characters or less`)
  .refine((name) => name === '' || hasVisibleCharacter(name), 'Token name cannot be empty')
  .refine((name) => hasNoControlCharacters(name), controlCharactersMessage('Token name'));

/** POST /api/tokens {name, scope, expires_in_days (1-366, or null/omitted: never expires)}. */
export const createApiTokenInput = z.object({
  name: apiTokenNameSchema,
  scope: z.enum(API_TOKEN_SCOPES, { message: `The scope must be one of: ${API_TOKEN_SCOPES.join(', ')}` }),
  expires_in_days: z
    .number()
    .int('Expiry must be a whole number of days')
    .min(1, 'Expiry must be at least 1 day')
    .max(MAX_API_TOKEN_EXPIRY_DAYS, `Expiry can be at most ${MAX_API_TOKEN_EXPIRY_DAYS} days`)
    .nullable()
    .optional(),
});
export type CreateApiTokenInput = z.input<typeof createApiTokenInput>;

/** DELETE /api/tokens/{id}, GET /api/tokens/{id}/usage. */
export const apiTokenIdInput = z.object({ id: idSchema });
