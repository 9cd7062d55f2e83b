// Request schemas for the politics domain (see common.ts for the building blocks).
import { z } from 'zod';
import { INFLUENCE_UNIT_COST, MAX_POLITICAL_INVESTMENT, POLITICAL_PLATFORMS } from '../constants.ts';
import { formatDollars } from '../money.ts';
import { countSchema, dollarsSchema, idSchema, responseIdSchema, timestampSchema } from './common.ts';
import { POLITICAL_EVENT_TYPES } from '../catalog.ts';

/**
 * POST /api/politics/invest {country_id, amount, platform?}: amount in dollars = units x $1,000;
 * platform: what the influence backs in elections (default lower_taxes; docs/economy.md, "Politics").
 */
const UNITS_MESSAGE = `Amount must be a whole number of units of ${formatDollars(INFLUENCE_UNIT_COST)}`;

export const politicsInvestSchema = z.object({
  country_id: idSchema,
  amount: z
    .number()
    .positive(`Amount must be at least ${formatDollars(INFLUENCE_UNIT_COST)} (one unit)`)
    .max(MAX_POLITICAL_INVESTMENT, `Amount must be at most ${formatDollars(MAX_POLITICAL_INVESTMENT)}`)
    .refine((amount) => Number.isInteger(amount / INFLUENCE_UNIT_COST), { message: UNITS_MESSAGE })
    .meta({
      // A refine is invisible in the OpenAPI document; this tells scripts the unit (the refine stays the
      // check: zod's multipleOf would let float noise such as 3000.0000000000005 through).
      description: `Dollars: a whole number of units of ${formatDollars(INFLUENCE_UNIT_COST)}`,
      multipleOf: INFLUENCE_UNIT_COST,
    }),
  platform: z.enum(POLITICAL_PLATFORMS, { error: 'Platform must be lower_taxes or higher_taxes' }).optional(),
});

// ---------------------------------------------------------------------------------------------
// Responses: what the API answers (api/src/responses.ts wires each to its route for the OpenAPI
// document and the responses test); the db layer's views are these types (z.infer), so a field is
// declared once.

const id = responseIdSchema;
const dollars = dollarsSchema;
const count = countSchema;
const timestamp = timestampSchema;

const politicalEventViewSchema = z.strictObject({
  id,
  country_id: id,
  country_name: z.string(),
  event_type: z.enum(POLITICAL_EVENT_TYPES),
  description: z.string(),
  active_until_week: z.number().int().positive(),
  created_at: timestamp,
});

export const politicsResponses = {
  countries: z.array(z.strictObject({ id, name: z.string(), tax_rate: z.number().describe('Percent') })),
  influence: z.array(z.strictObject({ country_id: id, country_name: z.string(), influence_points: count, platform: z.enum(POLITICAL_PLATFORMS) })),
  events: z.array(politicalEventViewSchema),
  recentEvents: z.array(politicalEventViewSchema),
  invest: z.strictObject({
    country_id: id,
    country_name: z.string(),
    units: z.number().int().positive(),
    amount: dollars,
    points_added: z.number().int().positive(),
    influence_points: count,
    platform: z.enum(POLITICAL_PLATFORMS).describe("What the company's influence in the country backs in elections"),
    cash: dollars,
  }),
};

export type CountryView = z.infer<typeof politicsResponses.countries>[number];
export type InfluenceView = z.infer<typeof politicsResponses.influence>[number];
export type PoliticalEventView = z.infer<typeof politicalEventViewSchema>;
export type InvestResult = z.infer<typeof politicsResponses.invest>;
