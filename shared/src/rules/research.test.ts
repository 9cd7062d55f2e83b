import { describe, expect, it } from 'vitest';
import { discountedResearchCostCents, effectsForBuildingType, researchDiscountPercent, sumResearchEffects } from './research.ts';

describe('research effects', () => {
  it('sums numbers, counts true as 1 and collects strings, globally and per building type', () => {
    const effects = sumResearchEffects([
      { buildingType: null, effects: { production_bonus: 10, unlock_feature: 'bulk', automation: true } },
      { buildingType: null, effects: { production_bonus: 5, unlock_feature: 'bulk' } },
      { buildingType: 'farm', effects: { production_bonus: 25, cost_reduction: 15 } },
    ]);
    expect(effects).toEqual({ all: { production_bonus: 15, automation: 1 }, byBuildingType: { farm: { production_bonus: 25, cost_reduction: 15 } }, features: ['bulk'] });
    expect(effectsForBuildingType(effects, 'farm')).toEqual({ production_bonus: 40, automation: 1, cost_reduction: 15 });
    expect(effectsForBuildingType(effects, 'mine')).toEqual({ production_bonus: 15, automation: 1 });
  });
  it('caps the research discount at 50% and rounds the cost to the cent', () => {
    expect(researchDiscountPercent(sumResearchEffects([{ buildingType: null, effects: { research_discount: 30 } }, { buildingType: null, effects: { research_discount: 40 } }]))).toBe(50);
    expect(researchDiscountPercent(sumResearchEffects([]))).toBe(0);
    expect(discountedResearchCostCents(1_000_001, 15)).toBe(850_001);
    expect(discountedResearchCostCents(10_000_000, 50)).toBe(5_000_000);
  });
});
