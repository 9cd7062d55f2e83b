/**
 * A building's live economics, derived in the browser from what the API already returns (the API
 * has no per-building ledger: its transactions are per company). The formulas are the turn's own
 * (docs/economy.md), taken from @marketcraft/shared so they cannot drift from the worker:
 *
 * - production building: next turn's planned output (recipe x rate x staff efficiency x bonuses),
 *   limited by the inputs in the company warehouse; revenue = that output at today's market price,
 *   materials = the inputs it uses at today's market price;
 * - store: last turn = units sold last turn x today's retail price; next turn = the turn's sales
 *   formula over the shelf as it is now;
 * - both: wages (employees x $50) and the type's operating cost less cost_reduction research.
 *
 * Everything is in integer cents; taxes and subsidies are per country, so they are not included.
 */
import type { RouterOutputs } from '../../trpc';
import {
  EFFICIENCY_PER_EMPLOYEE,
  EFFICIENCY_PER_EQUIPMENT_LEVEL,
  HIRE_COST_PER_EMPLOYEE,
  MAX_EFFICIENCY,
  MAX_EQUIPMENT_LEVEL,
  SALES_NEUTRAL_DEMAND,
  WAGE_PER_EMPLOYEE_WEEKLY_CENTS,
  buildingEfficiency,
  cappedReduction,
  dollarsToCents,
  effectsForBuildingType,
  equipmentUpgradeCost,
  inputNeeded,
  operatingCostCents,
  outputFromInput,
  plannedOutput,
  storeRevenueCents,
  storeUnitsSold,
  sumResearchEffects,
  type ResearchEffectValue,
} from '@marketcraft/shared';

export interface ResearchUpgradeLike {
  researched: boolean;
  building_type: string | null;
  effects: Record<string, ResearchEffectValue>;
}

/** The numeric research effects that apply to one building type (global upgrades plus its own). */
export function buildingResearchEffects(upgrades: readonly ResearchUpgradeLike[], buildingType: string): Record<string, number> {
  const researched = upgrades.filter((upgrade) => upgrade.researched).map((upgrade) => ({ buildingType: upgrade.building_type, effects: upgrade.effects }));
  return effectsForBuildingType(sumResearchEffects(researched), buildingType);
}

export interface RecipeLike {
  output_product_id: number;
  output_product_name: string;
  output_quantity: number;
  inputs: ReadonlyArray<{ product_id: number; product_name: string; quantity: number }>;
}

export interface InputUse {
  productId: number;
  name: string;
  /** Units the planned output needs. */
  need: number;
  /** Units in the company warehouse. */
  have: number;
  /** Units the forecast output actually uses. */
  used: number;
}

export interface ProductionForecast {
  /** Units planned before inputs limit them. */
  planned: number;
  /** Units the warehouse's inputs allow (= planned when nothing is short). */
  units: number;
  /** The output bonus it was planned with, percent. */
  bonusPercent: number;
  inputs: InputUse[];
  /** Inputs that are short of the planned output. */
  short: InputUse[];
}

export interface ProductionSettings {
  recipe: RecipeLike;
  productionRate: number;
  efficiency: number;
  /** The turn's output bonus: the city's bonus (when it fits) + the building's research_bonus (API), percent. */
  bonusPercent: number;
  /** Research effects that apply to the building: material_reduction cuts the inputs. */
  research: Record<string, number>;
}

/**
 * Next turn's output of a production building, as the turn computes it (worker phase 2), with the
 * company warehouse as it is now. (When several buildings need the same input, the turn serves the
 * oldest first; this forecast looks at one building alone.)
 */
export function productionForecast(settings: ProductionSettings, warehouse: ReadonlyMap<number, number>): ProductionForecast {
  const { recipe } = settings;
  const { bonusPercent } = settings;
  const reduction = cappedReduction(settings.research.material_reduction ?? 0);
  const planned = plannedOutput(recipe.output_quantity, settings.productionRate, settings.efficiency, bonusPercent);
  let units = planned;
  for (const input of recipe.inputs) {
    const have = warehouse.get(input.product_id) ?? 0;
    if (planned > 0 && have < inputNeeded(planned, input.quantity, recipe.output_quantity, reduction)) {
      units = Math.min(units, outputFromInput(have, input.quantity, recipe.output_quantity, reduction));
    }
  }
  const inputs = recipe.inputs.map((input) => ({
    productId: input.product_id,
    name: input.product_name,
    need: planned > 0 ? inputNeeded(planned, input.quantity, recipe.output_quantity, reduction) : 0,
    have: warehouse.get(input.product_id) ?? 0,
    used: units > 0 ? inputNeeded(units, input.quantity, recipe.output_quantity, reduction) : 0,
  }));
  return { planned, units, bonusPercent, inputs, short: inputs.filter((input) => input.have < input.need) };
}

/** One week of a building's money, in cents. */
export interface WeekFinance {
  units: number;
  revenueCents: number;
  /** Production: the inputs used at today's price. Store: the cost price of the units sold. */
  materialsCents: number;
  wagesCents: number;
  operatingCents: number;
  netCents: number;
}

export function wagesCents(employees: number): number {
  return employees * WAGE_PER_EMPLOYEE_WEEKLY_CENTS;
}

/** The type's weekly operating cost less cost_reduction research (the turn's rule), in cents. */
export function buildingOperatingCostCents(weeklyOperatingCostDollars: number, research: Record<string, number>): number {
  return operatingCostCents(dollarsToCents(weeklyOperatingCostDollars), research.cost_reduction ?? 0);
}

function week(units: number, revenueCents: number, materialsCents: number, fixed: { wagesCents: number; operatingCents: number }): WeekFinance {
  return {
    units,
    revenueCents,
    materialsCents,
    wagesCents: fixed.wagesCents,
    operatingCents: fixed.operatingCents,
    netCents: revenueCents - materialsCents - fixed.wagesCents - fixed.operatingCents,
  };
}

export interface FixedCosts {
  wagesCents: number;
  operatingCents: number;
}

/** A production building's next week: output and inputs valued at today's market prices (dollars by product id). */
export function productionWeek(forecast: ProductionForecast | null, outputProductId: number | null, prices: ReadonlyMap<number, number>, fixed: FixedCosts): WeekFinance {
  if (!forecast || outputProductId === null) return week(0, 0, 0, fixed);
  const revenue = forecast.units * dollarsToCents(prices.get(outputProductId) ?? 0);
  const materials = forecast.inputs.reduce((sum, input) => sum + input.used * dollarsToCents(prices.get(input.productId) ?? 0), 0);
  return week(forecast.units, revenue, materials, fixed);
}

/** The shelf fields the store figures read, as the API answers them (GET /api/stores/{id}/products). */
export type ShelfProductLike = Pick<
  RouterOutputs['stores']['products'][number],
  'product_id' | 'quantity' | 'retail_price' | 'cost_price' | 'is_active' | 'market_price' | 'demand_level' | 'units_sold_last_turn'
>;

/** A store's last turn: the units each shelf product sold, at its retail price (as it is now) and cost price. */
export function storeLastWeek(shelf: readonly ShelfProductLike[], research: Record<string, number>, fixed: FixedCosts): WeekFinance {
  let units = 0;
  let revenue = 0;
  let materials = 0;
  for (const product of shelf) {
    units += product.units_sold_last_turn;
    revenue += storeRevenueCents(product.units_sold_last_turn, dollarsToCents(product.retail_price), research.price_bonus ?? 0);
    materials += product.units_sold_last_turn * dollarsToCents(product.cost_price);
  }
  return week(units, revenue, materials, fixed);
}

/**
 * A store's next turn with the shelf as it is (worker phase 3): every active product with stock
 * sells min(stock, floor(base x demand/50 x priceFactor x (1 + bonus/100))). `fallbackPrices` is
 * the product's current price, which the turn uses when the city has no market data for it.
 */
export function storeNextWeek(
  shelf: readonly ShelfProductLike[],
  store: { baseCapacity: number; cityBonusPercent: number },
  research: Record<string, number>,
  fallbackPrices: ReadonlyMap<number, number>,
  fixed: FixedCosts,
): WeekFinance {
  let units = 0;
  let revenue = 0;
  let materials = 0;
  for (const product of shelf) {
    if (!product.is_active || product.quantity <= 0) continue;
    const market = product.market_price ?? fallbackPrices.get(product.product_id) ?? 0;
    const sold = storeUnitsSold({
      stock: product.quantity,
      baseUnits: store.baseCapacity,
      demandLevel: product.demand_level ?? SALES_NEUTRAL_DEMAND,
      retailCents: dollarsToCents(product.retail_price),
      marketCents: dollarsToCents(market),
      bonusPercent: store.cityBonusPercent + (research.store_bonus ?? 0),
    });
    units += sold;
    revenue += storeRevenueCents(sold, dollarsToCents(product.retail_price), research.price_bonus ?? 0);
    materials += sold * dollarsToCents(product.cost_price);
  }
  return week(units, revenue, materials, fixed);
}

/** Weekly return on what was invested (construction + equipment), percent; null without an investment. */
export function roiPercent(netCents: number, investedDollars: number): number | null {
  const invested = dollarsToCents(investedDollars);
  if (invested <= 0) return null;
  return (netCents / invested) * 100;
}

/** Weeks of this net profit to earn back the investment; null when the building does not make money. */
export function paybackWeeks(netCents: number, investedDollars: number): number | null {
  if (netCents <= 0) return null;
  return Math.ceil(dollarsToCents(investedDollars) / netCents);
}

/** A change the player can make to raise staff efficiency, and what it gives. */
export interface EfficiencyStep {
  kind: 'equipment' | 'hire';
  label: string;
  costDollars: number;
  efficiency: number;
}

/**
 * The Efficiency tab's forecast: the next equipment level and the hires that would bring staff
 * efficiency (min(100, employees x 10 + equipment x 15)) to 100%.
 */
export function efficiencySteps(employees: number, equipmentLevel: number): EfficiencyStep[] {
  const steps: EfficiencyStep[] = [];
  if (equipmentLevel < MAX_EQUIPMENT_LEVEL) {
    const next = equipmentLevel + 1;
    steps.push({
      kind: 'equipment',
      label: `Upgrade equipment to level ${next}`,
      costDollars: equipmentUpgradeCost(equipmentLevel, next),
      efficiency: buildingEfficiency(employees, next),
    });
  }
  const missing = Math.max(0, Math.ceil((MAX_EFFICIENCY - equipmentLevel * EFFICIENCY_PER_EQUIPMENT_LEVEL) / EFFICIENCY_PER_EMPLOYEE) - employees);
  if (missing > 0) {
    steps.push({
      kind: 'hire',
      label: `Hire ${missing} ${missing === 1 ? 'employee' : 'employees'}`,
      costDollars: missing * HIRE_COST_PER_EMPLOYEE,
      efficiency: buildingEfficiency(employees + missing, equipmentLevel),
    });
  }
  return steps;
}
