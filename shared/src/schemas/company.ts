// Request schemas for the company domain (see common.ts for the building blocks).
import { z } from 'zod';
import { MAX_BIO_LENGTH, MAX_COMPANY_NAME_LENGTH } from '../constants.ts';
import {
  controlCharactersMessage,
  countSchema,
  dollarsSchema,
  hasNoControlCharacters,
  hasNoInvisibleCharacters,
  hasVisibleCharacter,
  responseIdSchema,
  timestampSchema,
} from './common.ts';
import { figureSchema } from '../figures.ts';
import { COMPANY_STATUSES } from '../catalog.ts';
import { pageResponseFields } from './lists.ts';

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

/** POST /api/company (found a new company after bankruptcy): optional name. */
export const foundCompanySchema = z
  .object({ name: companyNameSchema.optional() })
  .optional()
  .transform((input) => input ?? {});

// ---------------------------------------------------------------------------------------------
// Responses: what the API answers (api/src/responses.ts wires each to its route for the OpenAPI
// document and the responses test); the db layer's views are these types (z.infer), so a field is
// declared once.

const id = responseIdSchema;
const dollars = dollarsSchema;
const count = countSchema;
const timestamp = timestampSchema;

const companyViewSchema = z.strictObject({
  id,
  name: z.string(),
  bio: z.string().nullable(),
  cash: dollars.describe('What the company can spend now'),
  cash_in_escrow: dollars.describe(
    'Cash its open buy orders on the exchange hold (docs/exchange.md): back when they fill at a lower price, are cancelled or expire',
  ),
  founded_at: timestamp,
  is_bot: z.boolean(),
  strategy: z.string().nullable(),
  status: z.enum(COMPANY_STATUSES),
  share_price: dollars,
  total_shares: z.number().int().positive(),
  net_worth: dollars.describe(
    'Cash + goods + buildings + shares held in other companies - the shares other companies hold in this one (docs/economy.md, "Net worth")',
  ),
  net_worth_why: figureSchema,
  tax_loss_carried: dollars.describe('Losses carried forward against future taxes'),
  negative_turns: count.describe('Turns in a row that ended with negative cash; reset to 0 by a turn ending with cash >= 0'),
  bankruptcy_turns: z.number().int().positive().describe('Negative turns in a row after which the company goes bankrupt (4)'),
});

const rankedCompanyViewSchema = z.strictObject({
  rank: z.number().int().positive().describe('Place on the whole leaderboard (1 = richest), whatever the page or search'),
  id,
  name: z.string(),
  is_bot: z.boolean(),
  strategy: z.string().nullable(),
  cash: dollars,
  share_price: dollars,
  total_shares: z.number().int().positive(),
  net_worth: dollars,
  founded_at: timestamp,
  is_you: z.boolean(),
  uses_api: z.boolean().describe('A personal access token acted for the company in the last 7 days (the leaderboard\'s "API" badge)'),
});

export const companyResponses = {
  get: companyViewSchema,
  found: companyViewSchema,
  financialHistory: z.array(
    z.strictObject({
      week: z.number().int().positive(),
      amount: dollars.describe('Cash change of that turn'),
      cash_after: dollars,
      profit: dollars.describe("The week's profit after tax"),
      net_worth: dollars.nullable().describe('Net worth after the turn (null before economy v2)'),
    }),
  ),
  updateProfile: companyViewSchema,
  list: z.array(rankedCompanyViewSchema).describe('One page (docs/api.md, "Lists of companies"): X-Total-Count and Link headers say where it is'),
  leaderboard: z.strictObject({
    companies: z.array(rankedCompanyViewSchema).describe('The page, richest first'),
    ...pageResponseFields,
    you: rankedCompanyViewSchema.nullable().describe('Your company wherever it ranks (null when it is not active)'),
  }),
};

export type CompanyDetails = z.infer<typeof companyViewSchema>;
export type FinancialHistoryEntry = z.infer<typeof companyResponses.financialHistory>[number];
