/** Fixed vocabularies of the spec (section 3). */
export const PRODUCT_CATEGORIES = [
  'Raw Materials',
  'Agricultural',
  'Processed Materials',
  'Food Products',
  'Industrial Goods',
  'Consumer Goods',
  'Luxury Goods',
] as const;
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];

export const CITY_BONUS_TYPES = [
  'agricultural',
  'mining',
  'extraction',
  'forestry',
  'milling',
  'industrial',
  'food_production',
  'manufacturing',
  'baking',
  'brewing',
  'beverage',
  'luxury',
  'retail',
] as const;
export type CityBonusType = (typeof CITY_BONUS_TYPES)[number];

export const RESEARCH_CATEGORIES = ['productivity', 'efficiency', 'unlock', 'automation'] as const;
export type ResearchCategory = (typeof RESEARCH_CATEGORIES)[number];

export const RESEARCH_EFFECT_KEYS = [
  'production_bonus',
  'cost_reduction',
  'price_bonus',
  'material_reduction',
  'chain_bonus',
  'store_bonus',
  'research_discount',
  'unlock_feature',
  'automation',
] as const;
export type ResearchEffectKey = (typeof RESEARCH_EFFECT_KEYS)[number];

export const TRANSACTION_TYPES = ['production', 'sale', 'purchase', 'stock_trade', 'building', 'other'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const POLITICAL_EVENT_TYPES = ['tax_cut', 'tax_increase', 'subsidy', 'election'] as const;
export type PoliticalEventType = (typeof POLITICAL_EVENT_TYPES)[number];

export const COMPANY_STATUSES = ['active', 'bankrupt'] as const;
export type CompanyStatus = (typeof COMPANY_STATUSES)[number];
