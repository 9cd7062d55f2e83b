// Request schemas for the politics domain (see common.ts for the building blocks).
import { z } from 'zod';
import { INFLUENCE_UNIT_COST, MAX_POLITICAL_INVESTMENT } from '../constants.ts';
import { formatDollars } from '../money.ts';
import { idSchema, numberInput } from './common.ts';

/** POST /api/politics/invest {country_id, amount}: amount in dollars = units x $1,000. */
export const politicsInvestSchema = z.object({
  country_id: idSchema,
  amount: numberInput(
    z
      .number()
      .positive(`Amount must be at least ${formatDollars(INFLUENCE_UNIT_COST)} (one unit)`)
      .max(MAX_POLITICAL_INVESTMENT, `Amount must be at most ${formatDollars(MAX_POLITICAL_INVESTMENT)}`)
      .refine((amount) => Number.isInteger(amount / INFLUENCE_UNIT_COST), {
        message: `Amount must be a whole number of units of ${formatDollars(INFLUENCE_UNIT_COST)}`,
      }),
  ),
});
export type PoliticsInvestInput = z.input<typeof politicsInvestSchema>;
