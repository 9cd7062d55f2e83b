/**
 * Store sales to consumers (docs/economy.md, phase 3). The worker computes the same in SQL for
 * every store product at once; these functions are the reference the unit tests pin down.
 */
import { SALES_MAX_PRICE_MULTIPLE, SALES_NEUTRAL_DEMAND, SALES_PRICE_ELASTICITY } from '../constants.ts';

/** (market / retail)^2: 1 at the market price, falling as retail rises, at most 2 (pricing below market), 0 above 3x market. */
export function salesPriceFactor(retailCents: number, marketCents: number): number {
  if (retailCents <= 0 || marketCents <= 0) return 0;
  if (retailCents > SALES_MAX_PRICE_MULTIPLE * marketCents) return 0;
  return Math.min(2, (marketCents / retailCents) ** SALES_PRICE_ELASTICITY);
}

/** demand_level / 50: 1 at neutral demand, 2 at full demand, 0 at none. */
export function salesDemandFactor(demandLevel: number): number {
  return Math.max(0, demandLevel) / SALES_NEUTRAL_DEMAND;
}

/**
 * Units one store product sells in a turn:
 * min(stock, floor(baseUnits x demandFactor x priceFactor x (1 + bonusPercent/100))),
 * where bonusPercent = the city's retail bonus (when the city's bonus type is retail) + store_bonus research.
 */
export function storeUnitsSold(input: {
  stock: number;
  baseUnits: number;
  demandLevel: number;
  retailCents: number;
  marketCents: number;
  bonusPercent: number;
}): number {
  const units = Math.floor(
    input.baseUnits * salesDemandFactor(input.demandLevel) * salesPriceFactor(input.retailCents, input.marketCents) * (1 + input.bonusPercent / 100) + 1e-9,
  );
  return Math.max(0, Math.min(input.stock, units));
}

/** Revenue in cents: units x retail price, raised by price_bonus research percent, rounded half up. */
export function storeRevenueCents(units: number, retailCents: number, priceBonusPercent: number): number {
  return Math.round((units * retailCents * (100 + priceBonusPercent)) / 100);
}
