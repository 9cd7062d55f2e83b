/**
 * Request schemas of worlds and classroom worlds (docs/worlds.md): one schema per input, used by
 * the web's forms and the API alike, with the messages a teacher reads.
 */
import { z } from 'zod';
import {
  JOIN_CODE_LENGTH,
  MAX_ANNOUNCEMENT_LENGTH,
  MAX_SHOCK_PERCENT,
  MAX_SHOCK_WEEKS,
  MAX_TURN_INTERVAL_MINUTES,
  MAX_WORLD_BOTS,
  MAX_WORLD_NAME_LENGTH,
  MAX_WORLD_PLAYERS,
  MAX_WORLD_STARTING_CASH,
  MIN_SHOCK_PERCENT,
  MIN_WORLD_STARTING_CASH,
} from '../constants.ts';
import { SHOCK_KINDS } from '../catalog.ts';
import { controlCharactersMessage, hasNoControlCharacters, hasVisibleCharacter, idSchema } from './common.ts';
import { companyNameSchema } from './company.ts';

/**
 * A whole number between min and max with the messages a teacher reads (refinements, so the
 * answer is the message alone, without the field's name in front).
 */
function wholeNumberBetween(label: string, min: number, max: number, range: string, whole = `${label} must be a whole number`) {
  return z
    .number({ error: `${label} must be a number` })
    .refine((value) => Number.isInteger(value), whole)
    .refine((value) => value >= min && value <= max, `${label} must be between ${range}`)
    .meta({
      // Refinements are invisible in the OpenAPI document: this tells a teacher's script the range.
      type: 'integer',
      minimum: min,
      maximum: max,
    });
}

export const worldNameSchema = z
  .string()
  .trim()
  .min(1, 'World name cannot be empty')
  .max(MAX_WORLD_NAME_LENGTH, `World name must be ${MAX_WORLD_NAME_LENGTH} characters or less`)
  .refine((name) => name === '' || hasVisibleCharacter(name), 'World name cannot be empty')
  .refine((name) => hasNoControlCharacters(name), controlCharactersMessage('World name'));

/** Minutes between turns, 1-1440; null: turns only when an instructor advances them. */
export const turnIntervalSchema = wholeNumberBetween(
  'Turn interval',
  1,
  MAX_TURN_INTERVAL_MINUTES,
  `1 and ${MAX_TURN_INTERVAL_MINUTES} minutes`,
  'Turn interval must be a whole number of minutes',
).nullable();

/** POST /api/worlds: a private world. */
export const createWorldSchema = z.object({
  name: worldNameSchema,
  turn_interval_minutes: turnIntervalSchema.default(null),
  starting_cash: wholeNumberBetween(
    'Starting cash',
    MIN_WORLD_STARTING_CASH,
    MAX_WORLD_STARTING_CASH,
    `$${MIN_WORLD_STARTING_CASH.toLocaleString('en-US')} and $${MAX_WORLD_STARTING_CASH.toLocaleString('en-US')}`,
    'Starting cash must be whole dollars',
  ).default(100_000),
  bots: wholeNumberBetween('Bots', 0, MAX_WORLD_BOTS, `0 and ${MAX_WORLD_BOTS}`).default(10),
  seed: wholeNumberBetween('Seed', 0, 2_147_483_647, '0 and 2,147,483,647').optional(),
  max_players: wholeNumberBetween('Players', 1, MAX_WORLD_PLAYERS, `1 and ${MAX_WORLD_PLAYERS}`).default(MAX_WORLD_PLAYERS),
});
export type CreateWorldInput = z.input<typeof createWorldSchema>;

/** A join code as typed: spaces and dashes ignored, any case. */
export const joinCodeSchema = z
  .string({ error: 'Enter the join code your instructor gave you' })
  .transform((code) => code.replace(/[\s-]/g, '').toUpperCase())
  .pipe(
    z
      .string()
      .min(1, 'Enter the join code your instructor gave you')
      .max(JOIN_CODE_LENGTH * 2, 'No world has this join code')
      .refine((code) => /^[A-Z0-9]*$/.test(code), 'A join code has only letters and digits'),
  );

/** POST /api/worlds/join. */
export const joinWorldSchema = z.object({ code: joinCodeSchema, company_name: companyNameSchema.optional() });
export type JoinWorldInput = z.input<typeof joinWorldSchema>;

/** Routes of one world: /api/worlds/{id}/... */
export const worldIdInput = z.object({ id: idSchema });

/** PATCH /api/worlds/{id}: the clock (pause or resume, interval). */
export const updateWorldSchema = z.object({
  id: idSchema,
  status: z.enum(['active', 'paused'], { error: 'Status must be active or paused' }).optional(),
  turn_interval_minutes: turnIntervalSchema.optional(),
});

/** POST /api/worlds/{id}/co-instructors {email}. */
export const addCoInstructorSchema = z.object({ id: idSchema, email: z.string().trim().toLowerCase().email('Enter a valid email address') });

/** DELETE /api/worlds/{id}/co-instructors/{user_id}: a co-instructor removed, or leaving. */
export const removeCoInstructorSchema = z.object({ id: idSchema, user_id: idSchema });

/** POST /api/worlds/{id}/shocks. */
export const shockSchema = z
  .object({
    id: idSchema,
    kind: z.enum(SHOCK_KINDS, { error: 'Choose what the shock changes: tax_rate, demand or price' }),
    country_id: idSchema.optional(),
    product_id: idSchema.optional(),
    percent: z
      .number({ error: 'Percent must be a number' })
      .refine((value) => Number.isInteger(value), 'Percent must be a whole number')
      .refine((value) => value >= MIN_SHOCK_PERCENT && value <= MAX_SHOCK_PERCENT, `Percent must be between ${MIN_SHOCK_PERCENT} and +${MAX_SHOCK_PERCENT}`)
      .refine((percent) => percent !== 0, 'A shock of 0% changes nothing')
      .meta({ type: 'integer', minimum: MIN_SHOCK_PERCENT, maximum: MAX_SHOCK_PERCENT, not: { const: 0 } }),
    weeks: wholeNumberBetween('Weeks', 1, MAX_SHOCK_WEEKS, `1 and ${MAX_SHOCK_WEEKS}`),
  })
  .superRefine((shock, ctx) => {
    if (shock.kind === 'tax_rate' && shock.country_id === undefined) ctx.addIssue({ code: 'custom', path: ['country_id'], message: 'Choose the country whose tax rate changes' });
    if (shock.kind !== 'tax_rate' && shock.product_id === undefined) ctx.addIssue({ code: 'custom', path: ['product_id'], message: 'Choose the product the shock changes' });
  });
export type ShockInput = z.input<typeof shockSchema>;

/** POST /api/worlds/{id}/announcements. */
export const announcementSchema = z.object({
  id: idSchema,
  message: z
    .string()
    .trim()
    .min(1, 'Announcement cannot be empty')
    .max(MAX_ANNOUNCEMENT_LENGTH, `Announcement must be ${MAX_ANNOUNCEMENT_LENGTH} characters or less`)
    .refine((text) => text === '' || hasVisibleCharacter(text), 'Announcement cannot be empty')
    .refine((text) => hasNoControlCharacters(text, { multiline: true }), controlCharactersMessage('Announcement')),
});

/** GET /api/worlds/{id}/export/{kind}.csv */
export const WORLD_EXPORTS = ['companies', 'transactions', 'prices'] as const;
export const worldExportSchema = z.object({ id: idSchema, kind: z.enum(WORLD_EXPORTS, { error: 'Export companies, transactions or prices' }) });
