/**
 * Research effects (spec section 3). Each upgrade has an `effects` map and an optional
 * building_type (null: every building type). A company's effects are the sums over its researched
 * upgrades; numbers add up, `true` counts as 1, strings (e.g. unlock_feature names) are collected.
 */
import { MAX_RESEARCH_DISCOUNT_PERCENT } from '../constants.ts';
import type { Cents } from '../money.ts';
import { E, defineRule, type InputSpec, type Node } from './expr.ts';
import { outputBonusRule } from './production.ts';

export type ResearchEffectValue = number | string | boolean;

export interface ResearchedUpgradeEffects {
  buildingType: string | null;
  effects: Record<string, ResearchEffectValue>;
}

/**
 * The summed effects of a company's research:
 * - `all`: effects of upgrades without a building type (they apply to every building), by key;
 * - `byBuildingType[type]`: effects of upgrades restricted to that type, by key (not including `all`);
 * - `features`: string values (unlock_feature names), deduplicated.
 * Use `effectsForBuildingType` for what applies to one building.
 */
export interface ResearchEffects {
  all: Record<string, number>;
  byBuildingType: Record<string, Record<string, number>>;
  features: string[];
}

function numericValue(value: ResearchEffectValue): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return null;
}

export function sumResearchEffects(upgrades: readonly ResearchedUpgradeEffects[]): ResearchEffects {
  const result: ResearchEffects = { all: {}, byBuildingType: {}, features: [] };
  for (const upgrade of upgrades) {
    const target = upgrade.buildingType ? (result.byBuildingType[upgrade.buildingType] ??= {}) : result.all;
    for (const [key, value] of Object.entries(upgrade.effects)) {
      const amount = numericValue(value);
      if (amount === null) {
        if (typeof value === 'string' && !result.features.includes(value)) result.features.push(value);
        continue;
      }
      target[key] = (target[key] ?? 0) + amount;
    }
  }
  return result;
}

/** What applies to one building type: the global effects plus that type's own. */
export function effectsForBuildingType(effects: ResearchEffects, buildingType: string): Record<string, number> {
  const combined: Record<string, number> = { ...effects.all };
  for (const [key, value] of Object.entries(effects.byBuildingType[buildingType] ?? {})) {
    combined[key] = (combined[key] ?? 0) + value;
  }
  return combined;
}

/** To the nearest whole number, halves away from zero (as PostgreSQL's numeric round does). */
const roundHalfAwayFromZero = (value: Node) => E.if(E.cmp(value, '>=', 0), E.roundHalfUp(value), E.sub(0, E.roundHalfUp(E.sub(0, value))));

const effectSum = (label: string): InputSpec => ({ label, unit: 'percent', integer: false, min: -1_000, max: 1_000 });

/**
 * One research effect (production_bonus, cost_reduction, ...) as it applies to a building: the sum
 * over the company's upgrades for every building type, rounded to a whole percent, plus the sum
 * over its upgrades for this building's type, rounded too. The turn (db/src/game/research/researchPlan.ts)
 * and the building screens count it so; every seeded effect is whole, the rounding only matters
 * for an upgrade an operator adds with a fraction.
 */
export const researchEffectRule = defineRule({
  name: 'researchEffect',
  description: "A research effect on this building: the upgrades for every type and those for this building's type",
  unit: 'percent',
  inputs: {
    allTypes: effectSum('Upgrades for every building type'),
    ownType: effectSum("Upgrades for this building's type"),
  },
  formula: (v) => E.add(roundHalfAwayFromZero(v.allTypes), roundHalfAwayFromZero(v.ownType)),
});

/** One research effect as it applies to a building of `buildingType` (researchEffectRule). */
export function researchEffectPercent(effects: ResearchEffects, buildingType: string, key: string): number {
  return researchEffectRule.evaluate({ allTypes: effects.all[key] ?? 0, ownType: effects.byBuildingType[buildingType]?.[key] ?? 0 });
}

/**
 * Research's share of a building's output bonus in percent, exactly as the turn counts it:
 * outputBonusRule without the city's bonus. The building detail's research_bonus (GET /api/buildings/{id}).
 */
export function researchOutputBonusPercent(effects: ResearchEffects, buildingType: string): number {
  return outputBonusRule.evaluate({
    cityBonus: 0,
    productionBonus: researchEffectPercent(effects, buildingType, 'production_bonus'),
    chainBonus: researchEffectPercent(effects, buildingType, 'chain_bonus'),
  });
}

/** The research discount in percent: every researched research_discount, summed, capped at 50. */
export function researchDiscountPercent(effects: ResearchEffects): number {
  let total = effects.all.research_discount ?? 0;
  for (const byKey of Object.values(effects.byBuildingType)) total += byKey.research_discount ?? 0;
  return Math.min(MAX_RESEARCH_DISCOUNT_PERCENT, Math.max(0, total));
}

/** The cost after the discount, rounded to the cent. */
export function discountedResearchCostCents(costCents: Cents, discountPercent: number): Cents {
  return Math.round((costCents * (100 - discountPercent)) / 100);
}
