/**
 * Production and profit rules of the turn (docs/economy.md, phases 2 and 4). The worker computes
 * them in SQL for every building at once; these are the reference implementations.
 */
import { MAX_REDUCTION_PERCENT } from '../constants.ts';

/**
 * Units a building plans to make before inputs limit it:
 * round(output_quantity x production_rate/100 x efficiency/100 x (100 + city bonus + production_bonus + chain_bonus)/100).
 */
export function plannedOutput(outputQuantity: number, productionRate: number, efficiency: number, bonusPercent: number): number {
  return Math.round((outputQuantity * productionRate * efficiency * (100 + bonusPercent)) / 1_000_000 + 1e-9);
}

/** A reduction percent from research, rounded to a whole percent and capped at 50. */
export function cappedReduction(percent: number): number {
  return Math.round(Math.max(0, Math.min(MAX_REDUCTION_PERCENT, percent)));
}

/**
 * A building's weekly operating cost after cost_reduction research, in cents:
 * round(cost x (100 - reduction) / 100), the reduction whole and capped at 50 (cappedReduction).
 * SQL (costs phase): (cost * (100 - reduction) + 50) / 100 in integers.
 */
export function operatingCostCents(weeklyOperatingCostCents: number, costReductionPercent: number): number {
  return Math.round((weeklyOperatingCostCents * (100 - cappedReduction(costReductionPercent))) / 100);
}

/**
 * Units of one input needed to make `units` of output: ceil(units x input_quantity / output_quantity
 * x (100 - material_reduction)/100). The recipe's inputs are per `output_quantity` units.
 */
export function inputNeeded(units: number, inputQuantity: number, outputQuantity: number, materialReduction: number): number {
  const reduction = cappedReduction(materialReduction);
  return Math.ceil((units * inputQuantity * (100 - reduction)) / (outputQuantity * 100) - 1e-9);
}

/** Most output units `available` units of one input allow (the inverse of inputNeeded). */
export function outputFromInput(available: number, inputQuantity: number, outputQuantity: number, materialReduction: number): number {
  const reduction = cappedReduction(materialReduction);
  return Math.floor((available * outputQuantity * 100) / (inputQuantity * (100 - reduction)) + 1e-9);
}

/** Tax in cents on a country's profit: round(profit x rate / 100) when the profit is positive, else 0. */
export function taxCents(profitCents: number, ratePercent: number): number {
  return profitCents > 0 ? Math.round((profitCents * ratePercent) / 100) : 0;
}
