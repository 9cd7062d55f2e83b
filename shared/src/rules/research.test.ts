import { describe, expect, it } from 'vitest';
import { discountedResearchCostCents, effectsForBuildingType, researchDiscountPercent, researchOutputBonusPercent, sumResearchEffects } from './research.ts';

describe('research effects', () => {
  it('sums numbers, counts true as 1 and collects strings, globally and per building type', () => {
    const effects = sumResearchEffects([
      { buildingType: null, effects: { production_bonus: 10, unlock_feature: 'bulk', automation: true } },
      { buildingType: null, effects: { production_bonus: 5, unlock_feature: 'bulk' } },
      { buildingType: 'farm', effects: { production_bonus: 25, cost_reduction: 15 } },
    ]);
    expect(effects).toEqual({
      all: { production_bonus: 15, automation: 1 },
      byBuildingType: { farm: { production_bonus: 25, cost_reduction: 15 } },
      features: ['bulk'],
    });
    expect(effectsForBuildingType(effects, 'farm')).toEqual({ production_bonus: 40, automation: 1, cost_reduction: 15 });
    expect(effectsForBuildingType(effects, 'mine')).toEqual({ production_bonus: 15, automation: 1 });
  });
  it('caps the research discount at 50% and rounds the cost to the cent', () => {
    expect(
      researchDiscountPercent(
        sumResearchEffects([
          { buildingType: null, effects: { research_discount: 30 } },
          { buildingType: null, effects: { research_discount: 40 } },
        ]),
      ),
    ).toBe(50);
    expect(researchDiscountPercent(sumResearchEffects([]))).toBe(0);
    expect(discountedResearchCostCents(1_000_001, 15)).toBe(850_001);
    expect(discountedResearchCostCents(10_000_000, 50)).toBe(5_000_000);
  });
  it("gives a building's research output bonus as the turn counts it: production + chain, all types plus its own", () => {
    const effects = sumResearchEffects([
      { buildingType: null, effects: { production_bonus: 10, cost_reduction: 15 } },
      { buildingType: null, effects: { chain_bonus: 5, store_bonus: 20 } },
      { buildingType: 'farm', effects: { production_bonus: 25, material_reduction: 10 } },
      { buildingType: 'mill', effects: { chain_bonus: 99 } },
    ]);
    expect(researchOutputBonusPercent(effects, 'farm')).toBe(40);
    expect(researchOutputBonusPercent(effects, 'mill')).toBe(114);
    expect(researchOutputBonusPercent(effects, 'store')).toBe(15);
    expect(researchOutputBonusPercent(sumResearchEffects([]), 'farm')).toBe(0);
    // Each group's sum is rounded to a whole percent, halves away from zero (SQL round), as in the turn.
    const fractional = sumResearchEffects([
      { buildingType: null, effects: { production_bonus: 2.5 } },
      { buildingType: 'farm', effects: { production_bonus: 2.5, chain_bonus: true } },
    ]);
    expect(researchOutputBonusPercent(fractional, 'farm')).toBe(3 + 3 + 1);
  });
});
