/** Research effect keys as player-readable text (spec section 3); unknown keys as 'key: value'. */
type EffectValue = number | string | boolean;

const EFFECT_TEXT: Record<string, (value: EffectValue) => string> = {
  production_bonus: (value) => `+${value}% production`,
  cost_reduction: (value) => `-${value}% costs`,
  price_bonus: (value) => `+${value}% selling price`,
  material_reduction: (value) => `-${value}% materials required`,
  chain_bonus: (value) => `+${value}% chain efficiency`,
  store_bonus: (value) => `+${value}% store sales`,
  research_discount: (value) => `-${value}% research costs`,
  unlock_feature: (value) => `Unlocks ${String(value).replaceAll('_', ' ')}`,
  automation: (value) => (typeof value === 'boolean' ? 'Automation' : `Automation level ${value}`),
};

export function researchEffectText(key: string, value: EffectValue): string {
  const describe = EFFECT_TEXT[key];
  return describe ? describe(value) : `${key}: ${String(value)}`;
}

export function researchEffectsText(effects: Record<string, EffectValue>): string[] {
  return Object.entries(effects).map(([key, value]) => researchEffectText(key, value));
}
