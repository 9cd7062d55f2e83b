// Request schemas of the personal access token routes (the profile's form uses the same ones).
import { z } from 'zod';
import { API_TOKEN_SCOPES, MAX_API_TOKEN_EXPIRY_DAYS, MAX_API_TOKEN_NAME_LENGTH } from '../apiAccess.ts';
import { controlCharactersMessage, countSchema, hasNoControlCharacters, hasVisibleCharacter, idSchema, responseIdSchema, timestampSchema } from './common.ts';

const apiTokenNameSchema = z
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

/** DELETE /api/tokens/{id}, GET /api/tokens/{id}/usage. */
export const apiTokenIdInput = z.object({ id: idSchema });

// ---------------------------------------------------------------------------------------------
// Responses: what the API answers (api/src/responses.ts wires each to its route for the OpenAPI
// document and the responses test); the db layer's views are these types (z.infer), so a field is
// declared once.

const id = responseIdSchema;
const count = countSchema;
const timestamp = timestampSchema;

const apiTokenStatusSchema = z.enum(['active', 'expired', 'revoked']);

/** A personal access token as its owner sees it (never the secret). */
const apiTokenViewSchema = z.strictObject({
  id,
  name: z.string(),
  scope: z.enum(API_TOKEN_SCOPES),
  prefix: z.string().describe("The token's first characters, e.g. 'mc_pat_k3xq…'"),
  status: apiTokenStatusSchema,
  created_at: timestamp,
  expires_at: timestamp.nullable().describe('null: never expires'),
  revoked_at: timestamp.nullable(),
  last_used_at: timestamp.nullable().describe('Refreshed at most once a minute'),
  requests_today: count.describe('UTC day'),
  requests_7_days: count,
});

const requestBudgetSchema = z.strictObject({ requests_per_minute: z.number().int().positive(), mutations_per_minute: z.number().int().positive() });

export const tokensResponses = {
  list: z.strictObject({
    tokens: z.array(apiTokenViewSchema),
    max_active: z.number().int().positive().describe('Active tokens allowed per player'),
    limits: z.strictObject({ token: requestBudgetSchema, session: requestBudgetSchema }),
  }),
  create: apiTokenViewSchema.extend({
    token: z.string().describe('The token, mc_pat_<16>_<32>: shown this once, stored only as a hash. Send it as Authorization: Bearer <token>'),
  }),
  revoke: apiTokenViewSchema,
  usage: z
    .array(
      z.strictObject({
        day: z.iso.date().describe('UTC day'),
        requests: count.describe('Every call counted: reads + mutations + limited'),
        reads: count.describe('Reads within budget'),
        mutations: count.describe('Actions within budget'),
        limited: count.describe('Refused with 429'),
      }),
    )
    .length(30),
  busiest: z
    .array(
      z.strictObject({
        token_id: id,
        name: z.string(),
        scope: z.enum(API_TOKEN_SCOPES),
        status: apiTokenStatusSchema,
        owner_email: z.string(),
        company_id: id.nullable(),
        company_name: z.string().nullable(),
        requests: count.describe('Over the last 7 days, today included'),
        mutations: count,
        limited: count,
        requests_today: count,
        last_used_at: timestamp.nullable(),
      }),
    )
    .max(20),
};
