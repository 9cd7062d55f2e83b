import { describe, expect, it } from 'vitest';
import { researchEffectText, researchEffectsText } from './researchEffects';

describe('researchEffectText', () => {
  it('describes the known effect keys', () => {
    expect(researchEffectText('production_bonus', 10)).toBe('+10% production');
    expect(researchEffectText('cost_reduction', 15)).toBe('-15% costs');
    expect(researchEffectText('research_discount', 5)).toBe('-5% research costs');
    expect(researchEffectText('unlock_feature', 'bulk_trading')).toBe('Unlocks bulk trading');
  });

  it("shows unknown keys as 'key: value'", () => {
    expect(researchEffectText('mystery', 3)).toBe('mystery: 3');
    expect(researchEffectsText({ price_bonus: 5, odd: true })).toEqual(['+5% selling price', 'odd: true']);
  });
});
