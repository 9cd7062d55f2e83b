// Request schemas for the politics domain (see common.ts for the building blocks).
import { z } from 'zod';
import { INFLUENCE_UNIT_COST, MAX_POLITICAL_INVESTMENT, POLITICAL_PLATFORMS } from '../constants.ts';
import { formatDollars } from '../money.ts';
import { idSchema } from './common.ts';

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
export type PoliticsInvestInput = z.input<typeof politicsInvestSchema>;
