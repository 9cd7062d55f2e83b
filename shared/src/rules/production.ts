/**
 * Production and building costs (docs/economy.md, "Production" and "Costs"). Rules written once
 * (expr.ts): the turn's SQL embeds them, the API explains them, the bots evaluate them. Money in
 * integer cents.
 */
import {
  BUILDING_SALE_REFUND_RATE,
  EFFICIENCY_PER_EMPLOYEE,
  EFFICIENCY_PER_EQUIPMENT_LEVEL,
  EQUIPMENT_LEVEL_COST_LADDER,
  HIRE_COST_PER_EMPLOYEE,
  MAX_EFFICIENCY,
  MAX_EQUIPMENT_LEVEL,
  MARKET_HALF_SPREAD_BP,
  MAX_PRODUCTION_RATE,
  MAX_REDUCTION_PERCENT,
  MIN_EQUIPMENT_LEVEL,
  MIN_PRODUCTION_RATE,
  OVERTIME_OUTPUT_LIMIT_POINTS,
  OVERTIME_WAGE_PREMIUM_PERCENT,
  OVERTIME_WEAR_PERCENT,
  SIZE_OVERHEAD_PERCENT_PER_BUILDING,
  WAGE_PER_EMPLOYEE_WEEKLY_CENTS,
} from '../constants.ts';
import { E, defineRule, type InputSpec } from './expr.ts';

const employees: InputSpec = { label: 'Employees', unit: 'count', min: 0, max: 1_000 };
const equipmentLevel: InputSpec = { label: 'Equipment level', unit: 'count', min: MIN_EQUIPMENT_LEVEL, max: MAX_EQUIPMENT_LEVEL };
const productionRate: InputSpec = { label: 'Production rate', unit: 'percent', min: MIN_PRODUCTION_RATE, max: MAX_PRODUCTION_RATE };
const reduction = (label: string): InputSpec => ({ label, unit: 'percent', min: -20, max: 200 });

/** The research reduction that counts: whole percent, between 0 and MAX_REDUCTION_PERCENT (50). */
const cappedReduction = (percent: ReturnType<typeof E.add>) => E.clamp(percent, 0, MAX_REDUCTION_PERCENT);

/** Spec: efficiency = min(100, employees x 10 + equipment_level x 15). */
export const efficiencyRule = defineRule({
  name: 'efficiency',
  description: 'How well a building is staffed and equipped',
  unit: 'percent',
  inputs: { employees, equipmentLevel },
  formula: (v) => E.min(MAX_EFFICIENCY, E.add(E.mul(v.employees, EFFICIENCY_PER_EMPLOYEE), E.mul(v.equipmentLevel, EFFICIENCY_PER_EQUIPMENT_LEVEL))),
});

/**
 * The rate that counts for output, in 1/(2 x L)ths of a percent (L = OVERTIME_OUTPUT_LIMIT_POINTS, 50):
 * up to 100 the rate itself; above it each point adds less (tired crews), the extra being
 * over - over^2 / (2 x L) with over = min(rate - 100, L), so 125% counts as 118.75%, 150% and more as 125%.
 * Written times 2L to stay in whole numbers: min(rate, 100) x 2L + over x 2L - over^2.
 */
function outputRateTimes2L(rate: ReturnType<typeof E.add>) {
  const twoL = 2 * OVERTIME_OUTPUT_LIMIT_POINTS;
  const over = E.clamp(E.sub(rate, 100), 0, OVERTIME_OUTPUT_LIMIT_POINTS);
  return E.sub(E.add(E.mul(E.min(rate, 100), twoL), E.mul(over, twoL)), E.mul(over, over));
}

/**
 * Units a building plans to make this week before its inputs limit it (spec's effective output with
 * the city's and research's bonus, and tired crews above 100%): round(output_quantity x output rate/100 x
 * efficiency/100 x (100 + bonus)/100), the output rate being the production rate up to 100 and
 * 100 + over - over^2/100 above it (over = min(rate - 100, 50)): 125% makes 118.75%, 150% to 200% make 125%.
 */
export const plannedOutputRule = defineRule({
  name: 'plannedOutput',
  description: 'Units the building makes this week if it has all its inputs',
  unit: 'units',
  inputs: {
    outputQuantity: { label: 'Recipe output per week', unit: 'units', min: 0, max: 100_000 },
    productionRate,
    efficiency: { label: 'Efficiency', unit: 'percent', min: 0, max: MAX_EFFICIENCY },
    bonus: { label: 'City and research bonus', unit: 'percent', min: -150, max: 300 },
  },
  formula: (v) =>
    E.divRound(
      E.mul(v.outputQuantity, outputRateTimes2L(v.productionRate), v.efficiency, E.max(0, E.add(100, v.bonus))),
      2 * OVERTIME_OUTPUT_LIMIT_POINTS * 1_000_000,
    ),
});

/** Units of one input needed for `units` of output: ceil(units x input_quantity x (100 - material_reduction) / (output_quantity x 100)). */
export const inputNeededRule = defineRule({
  name: 'inputNeeded',
  description: 'Units of an input the output needs',
  unit: 'units',
  inputs: {
    units: { label: 'Units made', unit: 'units', min: 0, max: 1_000_000 },
    inputQuantity: { label: 'Input per recipe', unit: 'units', min: 1, max: 100_000 },
    outputQuantity: { label: 'Recipe output', unit: 'units', min: 1, max: 100_000 },
    materialReduction: reduction('Material reduction (research)'),
  },
  formula: (v) => E.divCeil(E.mul(v.units, v.inputQuantity, E.sub(100, cappedReduction(v.materialReduction))), E.mul(v.outputQuantity, 100)),
});

/** The most output `available` units of one input allow: floor(available x output_quantity x 100 / (input_quantity x (100 - material_reduction))). */
export const outputFromInputRule = defineRule({
  name: 'outputFromInput',
  description: 'Units of output the stock of one input allows',
  unit: 'units',
  inputs: {
    available: { label: 'Input in stock', unit: 'units', min: 0, max: 10_000_000 },
    inputQuantity: { label: 'Input per recipe', unit: 'units', min: 1, max: 100_000 },
    outputQuantity: { label: 'Recipe output', unit: 'units', min: 1, max: 100_000 },
    materialReduction: reduction('Material reduction (research)'),
  },
  formula: (v) => E.divFloor(E.mul(v.available, v.outputQuantity, 100), E.mul(v.inputQuantity, E.sub(100, cappedReduction(v.materialReduction)))),
});

/**
 * A building's weekly wages: employees x $100, plus overtime above rate 100 paid at 1.5x:
 * round(employees x wage x (10,000 + 150 x max(0, rate - 100)) / 10,000).
 */
export const wagesRule = defineRule({
  name: 'wages',
  description: 'Weekly wages, with overtime above 100%',
  unit: 'dollars',
  cents: true,
  inputs: { employees, productionRate },
  formula: (v) =>
    E.divRound(
      E.mul(v.employees, E.cents(WAGE_PER_EMPLOYEE_WEEKLY_CENTS), E.add(10_000, E.mul(OVERTIME_WAGE_PREMIUM_PERCENT, E.max(0, E.sub(v.productionRate, 100))))),
      10_000,
    ),
});

/**
 * A building's weekly operating cost: its type's cost, less cost_reduction research (whole, at most
 * 50%), plus wear above rate 100 (+1% per point), plus the company's overhead of size (+2% per
 * building beyond its first): round(cost x (100 - reduction) x (100 + max(0, rate - 100)) x
 * (100 + 2 x (buildings - 1)) / 1,000,000).
 */
export const operatingCostRule = defineRule({
  name: 'operatingCost',
  description: 'Weekly operating cost, with wear above 100% and the overhead of a large company',
  unit: 'dollars',
  cents: true,
  inputs: {
    typeCostCents: { label: 'Operating cost of the type', unit: 'dollars', cents: true, min: 0, max: 10_000_000 },
    costReduction: reduction('Cost reduction (research)'),
    productionRate,
    companyBuildings: { label: 'Buildings of the company', unit: 'count', min: 1, max: 10_000 },
  },
  formula: (v) =>
    E.divRound(
      E.mul(
        v.typeCostCents,
        E.sub(100, cappedReduction(v.costReduction)),
        E.add(100, E.divRound(E.mul(OVERTIME_WEAR_PERCENT, E.max(0, E.sub(v.productionRate, 100))), 100)),
        E.add(100, E.mul(SIZE_OVERHEAD_PERCENT_PER_BUILDING, E.sub(v.companyBuildings, 1))),
      ),
      1_000_000,
    ),
});

/** A building's book value in net worth = what selling it refunds: 50% of construction + equipment paid. */
export const buildingBookValueRule = defineRule({
  name: 'buildingBookValue',
  description: 'What the building counts for in net worth: what selling it refunds',
  unit: 'dollars',
  cents: true,
  inputs: { paidCents: { label: 'Paid for construction and equipment', unit: 'dollars', cents: true, min: 0, max: 100_000_000_000 } },
  formula: (v) => E.divRound(E.mul(v.paidCents, Math.round(BUILDING_SALE_REFUND_RATE * 100)), 100),
});

/**
 * The bonus on a building's output, in percent: the city's bonus (0 unless the city's bonus type
 * fits the building type, shared/src/cityBonus.ts) + the production_bonus and chain_bonus research
 * that apply to its type (researchEffectRule). The turn's plan, the forecast and the building
 * detail's total_bonus all read it here.
 */
export const outputBonusRule = defineRule({
  name: 'outputBonus',
  description: "The bonus on the building's output: the city's (when it fits the type) and research's",
  unit: 'percent',
  inputs: {
    cityBonus: { label: 'City bonus (when it fits the type)', unit: 'percent', min: -100, max: 100 },
    productionBonus: { label: 'Production bonus (research)', unit: 'percent', min: -100, max: 200 },
    chainBonus: { label: 'Chain bonus (research)', unit: 'percent', min: -100, max: 200 },
  },
  formula: (v) => E.add(v.cityBonus, v.productionBonus, v.chainBonus),
});

/**
 * Money paid for equipment to reach a level from the starting level 1: the ladder's cost of every
 * level gained (EQUIPMENT_LEVEL_COST_LADDER[level - 1] for level 2 .. this one), so level 3 cost
 * $10,000 + $25,000 = $35,000 and level 5 $185,000. A building's invested money (its sale refund, its
 * book value in net worth, the forecast's return on investment) counts it.
 */
export const equipmentSpentRule = defineRule({
  name: 'equipmentSpent',
  description: 'Money paid for equipment to reach this level from level 1',
  unit: 'dollars',
  cents: true,
  inputs: { equipmentLevel },
  formula: (v) =>
    E.add(
      ...EQUIPMENT_LEVEL_COST_LADDER.slice(MIN_EQUIPMENT_LEVEL).map((dollars, index) =>
        E.if(E.cmp(v.equipmentLevel, '>=', MIN_EQUIPMENT_LEVEL + 1 + index), E.cents(dollars * 100), 0),
      ),
    ),
});

// -------------------------------------------------------------------------------------------------
// The overtime table: a production building's week at every production rate.

/** A production building as the overtime table prices it (the forecast's facts; money in cents). */
export interface RateFacts {
  outputQuantity: number;
  efficiency: number;
  /** City + research output bonus, percent. */
  bonus: number;
  /** The output's posted market price; it sells at this less the half-spread. */
  outputPriceCents: number;
  /** Each recipe input: per recipe, its posted price, and its wholesale margin (basis points) on top of the half-spread when bought. */
  inputs: readonly { quantity: number; priceCents: number; marginBp: number }[];
  employees: number;
  typeCostCents: number;
  costReduction: number;
  materialReduction: number;
  companyBuildings: number;
}

export interface RateWeek {
  rate: number;
  units: number;
  revenueCents: number;
  costsCents: number;
  profitCents: number;
}

/**
 * The week at `rate` by the turn's rules: the planned output (tired crews above 100%) at the
 * market's sell price, less its inputs at the buy price (all bought), wages and operating cost.
 */
export function weekAtRate(facts: RateFacts, rate: number): RateWeek {
  const units = plannedOutputRule.evaluate({ outputQuantity: facts.outputQuantity, productionRate: rate, efficiency: facts.efficiency, bonus: facts.bonus });
  const revenueCents = Math.floor((units * facts.outputPriceCents * (10_000 - MARKET_HALF_SPREAD_BP)) / 10_000);
  const inputsCents = Math.ceil(
    facts.inputs.reduce((sum, input) => {
      const needed = inputNeededRule.evaluate({
        units,
        inputQuantity: input.quantity,
        outputQuantity: facts.outputQuantity,
        materialReduction: facts.materialReduction,
      });
      return sum + (needed * input.priceCents * (10_000 + MARKET_HALF_SPREAD_BP + input.marginBp)) / 10_000;
    }, 0),
  );
  const wagesCents = wagesRule.evaluate({ employees: facts.employees, productionRate: rate });
  const operatingCents = operatingCostRule.evaluate({
    typeCostCents: facts.typeCostCents,
    costReduction: facts.costReduction,
    productionRate: rate,
    companyBuildings: facts.companyBuildings,
  });
  const costsCents = inputsCents + wagesCents + operatingCents;
  return { rate, units, revenueCents, costsCents, profitCents: revenueCents - costsCents };
}

/** The whole-number rate from 10 to 200 with the highest week's profit (the lowest of equals): where the extra output stops paying. */
export function bestProductionRate(facts: RateFacts): RateWeek {
  let best = weekAtRate(facts, MIN_PRODUCTION_RATE);
  for (let rate = MIN_PRODUCTION_RATE + 1; rate <= MAX_PRODUCTION_RATE; rate += 1) {
    const week = weekAtRate(facts, rate);
    if (week.profitCents > best.profitCents) best = week;
  }
  return best;
}

// -------------------------------------------------------------------------------------------------
// Plain rules of actions (no SQL side): costs of hiring and equipment, the sale refund.

/**
 * Dollars to raise equipment from level `from` to level `to`: what reaching `to` costs from level 1
 * less what reaching `from` cost (equipmentSpentRule), so 1 -> 3 costs 35,000 and 1 -> 5 185,000.
 * Throws a RangeError unless MIN_EQUIPMENT_LEVEL <= from < to <= MAX_EQUIPMENT_LEVEL.
 */
export function equipmentUpgradeCost(from: number, to: number): number {
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < MIN_EQUIPMENT_LEVEL || to > MAX_EQUIPMENT_LEVEL || to <= from) {
    throw new RangeError(`No equipment upgrade from level ${from} to level ${to}`);
  }
  return (equipmentSpentRule.evaluate({ equipmentLevel: to }) - equipmentSpentRule.evaluate({ equipmentLevel: from })) / 100;
}

/** Dollars to hire `count` employees: count x HIRE_COST_PER_EMPLOYEE ($5,000). */
export function hireCost(count: number): number {
  return count * HIRE_COST_PER_EMPLOYEE;
}

/** Cents refunded when a building is sold: its book value (buildingBookValueRule). */
export function buildingSaleRefund(paidCents: number): number {
  return buildingBookValueRule.evaluate({ paidCents });
}
