/**
 * Pure production and building-economy formulas (spec section 9). The API and the bots use these;
 * the worker mirrors them in SQL for the turn, so every function names its constants and says
 * exactly what it computes. Money here is in integer cents unless a name says dollars.
 */
import {
  BASE_OVERALL_EFFICIENCY,
  BASE_POPULARITY,
  BUILDING_SALE_REFUND_RATE,
  EFFICIENCY_PER_EMPLOYEE,
  EFFICIENCY_PER_EQUIPMENT_LEVEL,
  EFFICIENCY_WARNING_THRESHOLD,
  EQUIPMENT_LEVEL_COST_LADDER,
  HIRE_COST_PER_EMPLOYEE,
  MARKET_SELL_SPREAD,
  MAX_EFFICIENCY,
  MAX_EQUIPMENT_LEVEL,
  MIN_EQUIPMENT_LEVEL,
  POPULARITY_PER_OUTPUT_UNIT,
} from '../constants.ts';

/**
 * Factory efficiency in percent (spec): min(MAX_EFFICIENCY = 100,
 * employees x EFFICIENCY_PER_EMPLOYEE (10) + equipment_level x EFFICIENCY_PER_EQUIPMENT_LEVEL (15)).
 * SQL: least(100, employees * 10 + equipment_level * 15).
 */
export function buildingEfficiency(employees: number, equipmentLevel: number): number {
  return Math.min(MAX_EFFICIENCY, employees * EFFICIENCY_PER_EMPLOYEE + equipmentLevel * EFFICIENCY_PER_EQUIPMENT_LEVEL);
}

/**
 * Units a recipe yields per turn before city and research bonuses (spec):
 * round(output_quantity x production_rate/100 x efficiency/100), rounding half up.
 * SQL: round(output_quantity * production_rate * efficiency / 10000.0) (numeric round is half away
 * from zero, the same as half up for these non-negative values).
 */
export function effectiveOutput(outputQuantity: number, productionRate: number, efficiency: number): number {
  // Integer product first, one division: no floating-point drift before rounding.
  return Math.round((outputQuantity * productionRate * efficiency) / 10_000);
}

/**
 * The building detail's total bonus in percent: the spec's city bonus_value + building
 * efficiency_bonus, plus the research bonus (production_bonus + chain_bonus that apply to the
 * building, `researchOutputBonusPercent`), which the turn adds to the output too
 * (docs/rules-production.md). The city's bonus counts only when its bonus type fits the building
 * type (cityBonusApplies in cityBonus.ts); otherwise the city contributes 0.
 */
export function totalBonusPercent(cityBonusValue: number, cityBonusFits: boolean, efficiencyBonus: number, researchBonus: number): number {
  return (cityBonusFits ? cityBonusValue : 0) + efficiencyBonus + researchBonus;
}

/**
 * The building detail's effective output (spec): production_rate x (1 + total bonus/100), rounded
 * half up. SQL: round(production_rate * (100 + total_bonus) / 100.0).
 */
export function bonusedOutput(productionRate: number, totalBonus: number): number {
  return Math.round((productionRate * (100 + totalBonus)) / 100);
}

/** The building detail's overall efficiency (spec): min(100, BASE_OVERALL_EFFICIENCY (70) + total bonus). */
export function overallEfficiency(totalBonus: number): number {
  return Math.min(MAX_EFFICIENCY, BASE_OVERALL_EFFICIENCY + totalBonus);
}

/** True when the building detail shows its efficiency warning (spec: under EFFICIENCY_WARNING_THRESHOLD = 90). */
export function efficiencyWarning(efficiency: number): boolean {
  return efficiency < EFFICIENCY_WARNING_THRESHOLD;
}

/**
 * Popularity on the building detail (spec): BASE_POPULARITY (250) + effective output x
 * POPULARITY_PER_OUTPUT_UNIT (2), where effective output is `bonusedOutput`.
 */
export function popularity(bonusedOutputUnits: number): number {
  return BASE_POPULARITY + bonusedOutputUnits * POPULARITY_PER_OUTPUT_UNIT;
}

/**
 * Dollars to raise equipment from level `from` to level `to`: the sum of
 * EQUIPMENT_LEVEL_COST_LADDER[level - 1] for every level gained (from + 1 .. to). The ladder is
 * [0, 10000, 25000, 50000, 100000] (index 0 = level 1), so 1 -> 3 costs 10,000 + 25,000 = 35,000
 * and 1 -> 5 costs 185,000. Throws a RangeError unless MIN_EQUIPMENT_LEVEL <= from < to <= MAX_EQUIPMENT_LEVEL.
 */
export function equipmentUpgradeCost(from: number, to: number): number {
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < MIN_EQUIPMENT_LEVEL || to > MAX_EQUIPMENT_LEVEL || to <= from) {
    throw new RangeError(`No equipment upgrade from level ${from} to level ${to}`);
  }
  let cost = 0;
  for (let level = from + 1; level <= to; level += 1) cost += EQUIPMENT_LEVEL_COST_LADDER[level - 1] ?? 0;
  return cost;
}

/** Dollars spent on equipment to reach `level` from the starting level 1 (0 at level 1). */
export function equipmentSpentToLevel(level: number): number {
  return level <= MIN_EQUIPMENT_LEVEL ? 0 : equipmentUpgradeCost(MIN_EQUIPMENT_LEVEL, Math.min(level, MAX_EQUIPMENT_LEVEL));
}

/** Dollars to hire `count` employees: count x HIRE_COST_PER_EMPLOYEE ($5,000). */
export function hireCost(count: number): number {
  return count * HIRE_COST_PER_EMPLOYEE;
}

/**
 * Cents refunded when a building is sold: BUILDING_SALE_REFUND_RATE (50%) of `paidCents` (what was
 * paid for construction plus equipment upgrades), rounded half up to the cent.
 */
export function buildingSaleRefund(paidCents: number): number {
  return Math.round(paidCents * BUILDING_SALE_REFUND_RATE);
}

/**
 * Cents the market pays per unit sold: the current price less MARKET_SELL_SPREAD (5%), rounded half
 * up to the cent. A sale of n units pays n x this. SQL: round(current_price_cents * 0.95).
 */
export function marketSellUnitPriceCents(currentPriceCents: number): number {
  return Math.round(currentPriceCents * (1 - MARKET_SELL_SPREAD));
}

/**
 * Weighted average unit cost in cents after adding `addedQuantity` units at `addedUnitCents` to
 * `heldQuantity` units averaging `heldAverageCents`, rounded half up. SQL:
 * round((q * avg + n * price)::numeric / (q + n)).
 */
export function weightedAverageCents(heldQuantity: number, heldAverageCents: number, addedQuantity: number, addedUnitCents: number): number {
  const total = heldQuantity + addedQuantity;
  if (total <= 0) return addedUnitCents;
  return Math.round((heldQuantity * heldAverageCents + addedQuantity * addedUnitCents) / total);
}
