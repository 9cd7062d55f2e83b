/**
 * Research effects (spec section 3). Each upgrade has an `effects` map and an optional
 * building_type (null: every building type). A company's effects are the sums over its researched
 * upgrades; numbers add up, `true` counts as 1, strings (e.g. unlock_feature names) are collected.
 */
import { MAX_RESEARCH_DISCOUNT_PERCENT } from '../constants.ts';
import type { Cents } from '../money.ts';

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

/** PostgreSQL's numeric round: to the nearest whole number, halves away from zero. */
function roundLikeSql(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value));
}

/**
 * Research's share of a building's output bonus in percent, exactly as the turn counts it (worker
 * production phase, `worker/src/turn/research.ts`): production_bonus + chain_bonus of the
 * researched upgrades for every building type plus those for this building's type. The turn sums
 * each effect per group (all types / this type) and rounds each sum to a whole percent, so this
 * does too. The building detail's research_bonus (GET /api/buildings/{id}).
 */
export function researchOutputBonusPercent(effects: ResearchEffects, buildingType: string): number {
  const groups = [effects.all, effects.byBuildingType[buildingType] ?? {}];
  let bonus = 0;
  for (const group of groups) bonus += roundLikeSql(group.production_bonus ?? 0) + roundLikeSql(group.chain_bonus ?? 0);
  return bonus;
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
