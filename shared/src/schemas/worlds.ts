/**
 * Request schemas of worlds and classroom worlds (docs/worlds.md): one schema per input, used by
 * the web's forms and the API alike, with the messages a teacher reads.
 */
import { z } from 'zod';
import {
  JOIN_CODE_LENGTH,
  TEAM_CODE_LENGTH,
  MAX_ANNOUNCEMENT_LENGTH,
  MAX_SHOCK_PERCENT,
  MAX_TAX_RATE,
  MAX_FORK_TAX_RATES,
  MAX_FORK_COMPARISON_PRODUCTS,
  MAX_ROW_ID,
  MAX_SHOCK_WEEKS,
  MAX_TURN_INTERVAL_MINUTES,
  MAX_WORLD_BOTS,
  MAX_WORLD_NAME_LENGTH,
  MAX_WORLD_PLAYERS,
  MAX_WORLD_STARTING_CASH,
  MAX_TEAM_SIZE,
  MIN_SHOCK_PERCENT,
  MIN_TEAM_SIZE,
  MIN_WORLD_STARTING_CASH,
} from '../constants.ts';
import { COMPANY_STATUSES, SHOCK_KINDS, WORLD_KINDS, WORLD_ROLES, WORLD_STATUSES } from '../catalog.ts';
import {
  controlCharactersMessage,
  countSchema,
  dollarsSchema,
  hasNoControlCharacters,
  hasVisibleCharacter,
  idSchema,
  responseIdSchema,
  timestampSchema,
} from './common.ts';
import { companyNameSchema } from './company.ts';

/**
 * A whole number between min and max with the messages a teacher reads (refinements, so the
 * answer is the message alone, without the field's name in front).
 */
export function wholeNumberBetween(label: string, min: number, max: number, range: string, whole = `${label} must be a whole number`) {
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

const worldNameSchema = z
  .string()
  .trim()
  .min(1, 'World name cannot be empty')
  .max(MAX_WORLD_NAME_LENGTH, `World name must be ${MAX_WORLD_NAME_LENGTH} characters or less`)
  .refine((name) => name === '' || hasVisibleCharacter(name), 'World name cannot be empty')
  .refine((name) => hasNoControlCharacters(name), controlCharactersMessage('World name'));

/** Minutes between turns, 1-1440; null: turns only when an instructor advances them. */
const turnIntervalSchema = wholeNumberBetween(
  'Turn interval',
  1,
  MAX_TURN_INTERVAL_MINUTES,
  `1 and ${MAX_TURN_INTERVAL_MINUTES} minutes`,
  'Turn interval must be a whole number of minutes',
).nullable();

/** POST /api/worlds: a private world. */
/** Members a company of the world may have (docs/classroom.md, "Teams"). */
const teamSizeSchema = wholeNumberBetween('Team size', MIN_TEAM_SIZE, MAX_TEAM_SIZE, `${MIN_TEAM_SIZE} and ${MAX_TEAM_SIZE}`);

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
  team_size: teamSizeSchema.default(MIN_TEAM_SIZE),
});

/** A join code as typed: spaces and dashes ignored, any case. */
const joinCodeSchema = z
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
/** A company's team code (docs/classroom.md, "Teams"): the join code's letters, spaces and dashes ignored. */
const teamCodeSchema = z
  .string({ error: 'Enter the team code your teammate gave you' })
  .transform((code) => code.replace(/[\s-]/g, '').toUpperCase())
  .pipe(
    z
      .string()
      .max(TEAM_CODE_LENGTH * 2, 'No team in this world has this team code')
      .refine((code) => /^[A-Z0-9]*$/.test(code), 'A team code has only letters and digits'),
  );

/**
 * POST /api/worlds/join: a new company of one's own, or with `team_code` a place in that company's
 * team (an empty team code: a company of one's own).
 */
export const joinWorldSchema = z.object({ code: joinCodeSchema, company_name: companyNameSchema.optional(), team_code: teamCodeSchema.optional() });

/** Routes of one world: /api/worlds/{id}/... */
export const worldIdInput = z.object({ id: idSchema });

/** PATCH /api/worlds/{id}: the clock (pause or resume, interval) and the team size. */
export const updateWorldSchema = z.object({
  id: idSchema,
  status: z.enum(['active', 'paused'], { error: 'Status must be active or paused' }).optional(),
  turn_interval_minutes: turnIntervalSchema.optional(),
  team_size: teamSizeSchema.optional(),
});

/** POST /api/worlds/{id}/co-instructors {email}. */
export const addCoInstructorSchema = z.object({ id: idSchema, email: z.string().trim().toLowerCase().email('Enter a valid email address') });

/** DELETE /api/worlds/{id}/co-instructors/{user_id}: a co-instructor removed, or leaving. */
export const removeCoInstructorSchema = z.object({ id: idSchema, user_id: idSchema });

/** POST /api/worlds/{id}/shocks. */
const shockFields = {
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
};

/** A shock names its target: a country for a tax shock, a product for the others. */
function shockTargetIssues(shock: { kind: string; country_id?: number; product_id?: number }, ctx: z.RefinementCtx) {
  if (shock.kind === 'tax_rate' && shock.country_id === undefined)
    ctx.addIssue({ code: 'custom', path: ['country_id'], message: 'Choose the country whose tax rate changes' });
  if (shock.kind !== 'tax_rate' && shock.product_id === undefined)
    ctx.addIssue({ code: 'custom', path: ['product_id'], message: 'Choose the product the shock changes' });
}

export const shockSchema = z.object({ id: idSchema, ...shockFields }).superRefine(shockTargetIssues);

/** A country's tax rate set at a fork: a whole percent (elections go on moving it from there). */
const forkTaxRateSchema = z.strictObject({
  country_id: idSchema,
  tax_rate: wholeNumberBetween('Tax rate', 0, MAX_TAX_RATE, `0 and ${MAX_TAX_RATE}`),
});

/**
 * POST /api/worlds/{id}/fork (docs/replay.md, "Forking a world"): the week it starts at, its name
 * (default: "<world> from week N"), the changes applied once it is replayed (a shock, countries'
 * tax rates, the bots on or off), and `private: true` for a sandbox (a player's own fork of the
 * public world, "Sandbox backtests").
 */
export const forkWorldSchema = z
  .object({
    id: idSchema,
    week: wholeNumberBetween('Week', 1, 100_000, "1 and the world's week now"),
    name: worldNameSchema.optional(),
    private: z.boolean({ error: 'private must be true or false' }).optional(),
    shock: z.object(shockFields).superRefine(shockTargetIssues).optional(),
    tax_rates: z
      .array(forkTaxRateSchema, { error: 'tax_rates must be a list of {country_id, tax_rate}' })
      .max(MAX_FORK_TAX_RATES, `At most ${MAX_FORK_TAX_RATES} tax rates`)
      .optional(),
    bots: z.boolean({ error: 'bots must be true (they keep playing) or false (they stop)' }).optional(),
  })
  .superRefine((fork, ctx) => {
    const countries = (fork.tax_rates ?? []).map((rate) => rate.country_id);
    if (new Set(countries).size !== countries.length) ctx.addIssue({ code: 'custom', path: ['tax_rates'], message: 'Each country can have one tax rate' });
  });

/** The changes a fork takes (forkWorldSchema's), as the worker applies them after the replay. */
export type ForkChanges = Pick<z.infer<typeof forkWorldSchema>, 'shock' | 'tax_rates' | 'bots'>;

/** GET /api/worlds/{id}/fork-comparison?product_ids=1,2: the fork's instructors (and a sandbox's owner). */
export const forkComparisonSchema = z.object({
  id: idSchema,
  product_ids: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'product_ids must be ids separated by commas')
    .optional()
    .transform((text) => (text ? [...new Set(text.split(',').map(Number))] : []))
    .pipe(
      z
        .array(z.number().int().min(1).max(MAX_ROW_ID, 'This id does not exist'))
        .max(MAX_FORK_COMPARISON_PRODUCTS, `Choose at most ${MAX_FORK_COMPARISON_PRODUCTS} products`),
    ),
});

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
const WORLD_EXPORTS = ['companies', 'transactions', 'prices'] as const;
export const worldExportSchema = z.object({ id: idSchema, kind: z.enum(WORLD_EXPORTS, { error: 'Export companies, transactions or prices' }) });

// ---------------------------------------------------------------------------------------------
// Responses: what the API answers (api/src/responses.ts wires each to its route for the OpenAPI
// document and the responses test); the db layer's views are these types (z.infer), so a field is
// declared once.

const id = responseIdSchema;
const dollars = dollarsSchema;
const count = countSchema;
const timestamp = timestampSchema;

/** GET /api/world and GET /api/admin/world-state. */
const worldStateSchema = z.strictObject({
  current_week: z.number().int().positive(),
  last_turn_at: timestamp.nullable(),
  next_turn_at: timestamp.nullable(),
  status: z
    .enum(WORLD_STATUSES)
    .describe("The clock: 'active' turns on schedule; 'paused' skips scheduled turns (next_turn_at stays the schedule's next slot); 'ended' never turns again"),
  turns: z
    .string()
    .describe(
      "How its turns come now, as the app shows it: 'Every 12 hours', 'Every 5 min', 'Manual turns' (no schedule: an admin or instructor advances them), 'Paused', 'Ended'",
    ),
});

/** A world as the caller sees it (docs/worlds.md). */
const worldViewSchema = z.strictObject({
  id,
  name: z.string(),
  kind: z.enum(WORLD_KINDS),
  status: z.enum(WORLD_STATUSES),
  current_week: z.number().int().positive(),
  turn_interval_minutes: z.number().int().positive().nullable().describe('Minutes between turns; null: the public schedule or manual turns'),
  turns: z
    .string()
    .describe(
      "How its turns come now, as the app shows it: 'Every 12 hours', 'Every 5 min', 'Manual turns' (no schedule: an admin or instructor advances them), 'Paused', 'Ended'",
    ),
  next_turn_at: timestamp.nullable(),
  last_turn_at: timestamp.nullable(),
  starting_cash: dollars.nullable(),
  bots: count,
  max_players: z.number().int().positive().nullable(),
  team_size: z.number().int().min(MIN_TEAM_SIZE).max(MAX_TEAM_SIZE).describe('Members a company may have (1: everyone plays alone)'),
  players: count.describe('Player companies (active)'),
  role: z.enum(['instructor', 'co_instructor', 'admin', 'player', 'visitor']).nullable().describe("The caller's part in the world"),
  joined: z.boolean().describe('The caller has an active company there'),
  join_code: z.string().nullable().describe('Instructors and admins only'),
  created_at: timestamp,
  ended_at: timestamp.nullable(),
  forked_from_world_id: id.nullable().describe('A fork (docs/replay.md): the world it was replayed from'),
  forked_at_week: z.number().int().positive().nullable().describe("A fork: the week it starts at (the original's state at that week's start)"),
  bots_active: z.boolean().describe('false: the bots make no more moves (a change at the fork)'),
  sandbox: z.boolean().describe("A player's private fork of the public world: only its owner sees it"),
  deletes_at: timestamp.nullable().describe('A sandbox: when the worker deletes it (7 days after its creation)'),
});

const shockViewSchema = z.strictObject({
  id,
  kind: z.enum(SHOCK_KINDS),
  country_id: id.nullable(),
  country_name: z.string().nullable(),
  product_id: id.nullable(),
  product_name: z.string().nullable(),
  percent: z.number().int(),
  start_week: z.number().int().positive(),
  end_week: z.number().int().positive(),
  description: z.string(),
  active: z.boolean(),
  created_at: timestamp,
});

const instructorsViewSchema = z.array(
  z.strictObject({
    user_id: id,
    email: z.string(),
    role: z.enum(WORLD_ROLES),
    is_you: z.boolean().describe('Whether this is you (a co-instructor may leave)'),
  }),
);

export const worldsResponses = {
  list: z.array(worldViewSchema),
  current: worldViewSchema,
  switch: worldViewSchema,
  create: worldViewSchema,
  join: worldViewSchema,
  get: worldViewSchema,
  update: worldViewSchema,
  advance: z.strictObject({ current_week: z.number().int().positive().describe('The week after the turn') }),
  fork: worldViewSchema,
  end: worldViewSchema,
  rotateCode: worldViewSchema,
  instructors: instructorsViewSchema,
  addCoInstructor: instructorsViewSchema,
  removeCoInstructor: instructorsViewSchema,
  shocks: z.array(shockViewSchema),
  addShock: shockViewSchema,
  announce: z.strictObject({ id, message: z.string(), week: z.number().int().positive(), created_at: timestamp }),
  companies: z.array(
    z.strictObject({
      id,
      name: z.string(),
      is_bot: z.boolean(),
      owner_email: z.string().nullable(),
      status: z.enum(COMPANY_STATUSES),
      cash: dollars,
      net_worth: dollars,
      buildings: count,
      last_week_profit: dollars.nullable(),
    }),
  ),
  debrief: z.strictObject({
    weeks: z.array(z.number().int().positive()),
    companies: z.array(
      z.strictObject({ id, name: z.string(), is_bot: z.boolean(), points: z.array(z.strictObject({ week: z.number().int().positive(), net_worth: dollars })) }),
    ),
    prices: z.array(
      z.strictObject({ product_id: id, name: z.string(), points: z.array(z.strictObject({ week: z.number().int().positive(), price: dollars })) }),
    ),
    shocks: z.array(shockViewSchema),
  }),
  export: z.strictObject({ filename: z.string(), csv: z.string().describe('RFC 4180 CSV, money in dollars') }),
  forkComparison: z.strictObject({
    fork: z.strictObject({ id, name: z.string() }),
    original: z.strictObject({ id, name: z.string() }),
    fork_week: z.number().int().positive().describe("The fork's first week; the series start at the week before it (both worlds alike then)"),
    weeks: z.array(z.number().int().positive()),
    companies: z.array(
      z.strictObject({
        name: z.string().describe("The company's name in the fork"),
        is_bot: z.boolean(),
        fork_company_id: id,
        original_company_id: id,
        points: z.array(z.strictObject({ week: z.number().int().positive(), fork: dollars.nullable(), original: dollars.nullable() })),
      }),
    ),
    products: z.array(
      z.strictObject({
        product_id: id,
        name: z.string(),
        points: z.array(z.strictObject({ week: z.number().int().positive(), fork: dollars.nullable(), original: dollars.nullable() })),
      }),
    ),
    product_choices: z.array(z.strictObject({ product_id: id, name: z.string() })).describe('Products the picker offers (every product of the catalogue)'),
  }),
};

export const worldResponses = {
  state: worldStateSchema,
  community: z.strictObject({ discord_invite_url: z.string().nullable().describe('The Discord invite link; null when none is configured') }),
};

export const adminResponses = {
  check: z.strictObject({ isAdmin: z.boolean() }),
  worldState: worldStateSchema,
  cronStatus: z.strictObject({
    jobname: z.string().describe("'advance-game-turn'"),
    schedule: z.string().describe("Cron expression in UTC, e.g. '30 */12 * * *'"),
    active: z.boolean(),
  }),
  advanceTurn: z.strictObject({ current_week: z.number().int().positive().describe('The week after the turn') }),
};

export type WorldState = z.infer<typeof worldStateSchema>;
export type WorldView = z.infer<typeof worldViewSchema>;
export type ShockView = z.infer<typeof shockViewSchema>;
export type AnnouncementView = z.infer<typeof worldsResponses.announce>;
export type WorldCompanyFigures = z.infer<typeof worldsResponses.companies>[number];
export type DebriefView = z.infer<typeof worldsResponses.debrief>;
export type ForkComparisonView = z.infer<typeof worldsResponses.forkComparison>;
