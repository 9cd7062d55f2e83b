// Request schemas for the company domain (see common.ts for the building blocks).
import { z } from 'zod';
import { MAX_BIO_LENGTH, MAX_COMPANY_NAME_LENGTH } from '../constants.ts';
import { controlCharactersMessage, hasNoControlCharacters, hasNoInvisibleCharacters, hasVisibleCharacter } from './common.ts';

export const COMPANY_NAME_INVISIBLE_MESSAGE = 'Company name cannot contain invisible characters (zero-width spaces, joiners)';

/**
 * Company name: trimmed, not empty (spec section 5; invisible characters alone count as empty), at
 * most 80 characters, no control characters (our rules). Names are unique in a world (docs/world.md),
 * so a name may not hold invisible characters either, and a run of spaces inside it counts as one
 * (it is stored so, as the spaces around it are trimmed): neither can make a copy of a name that
 * looks the same on the leaderboard.
 */
export const companyNameSchema = z
  .string()
  .trim()
  .min(1, 'Company name cannot be empty')
  .max(MAX_COMPANY_NAME_LENGTH, `Company name must be ${MAX_COMPANY_NAME_LENGTH} characters or less`)
  .refine((name) => name === '' || hasVisibleCharacter(name), 'Company name cannot be empty')
  .refine((name) => hasNoControlCharacters(name), controlCharactersMessage('Company name'))
  .refine((name) => !hasVisibleCharacter(name) || hasNoInvisibleCharacters(name), COMPANY_NAME_INVISIBLE_MESSAGE)
  .transform((name) => name.replace(/\s+/g, ' '));

/** Bio: trimmed, at most 500 characters; empty becomes null (spec section 5); line breaks but no other control characters (our rule). */
export const companyBioSchema = z
  .string()
  .trim()
  // A refine (not .max) so the player reads the spec's message without a "bio:" prefix.
  .refine((bio) => bio.length <= MAX_BIO_LENGTH, `Bio must be ${MAX_BIO_LENGTH} characters or less`)
  .refine((bio) => hasNoControlCharacters(bio, { multiline: true }), controlCharactersMessage('Bio'))
  .nullable()
  .transform((bio) => (bio === '' ? null : bio));

/** PATCH /api/company/profile {name, bio or null}; an omitted bio keeps the current one. */
export const updateProfileSchema = z.object({
  name: companyNameSchema,
  bio: companyBioSchema.optional(),
});
export type UpdateProfileInput = z.input<typeof updateProfileSchema>;

/** POST /api/company (found a new company after bankruptcy): optional name. */
export const foundCompanySchema = z
  .object({ name: companyNameSchema.optional() })
  .optional()
  .transform((input) => input ?? {});
export type FoundCompanyInput = z.input<typeof foundCompanySchema>;
