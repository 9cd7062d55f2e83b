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

/**
 * The consumer goods: what stores sell (a store shelves nothing else) and what the exchange sells
 * with the wholesale margin (WHOLESALE_MARGIN_BP). docs/economy.md, "Store sales" and "The market".
 */
export const CONSUMER_CATEGORIES: readonly ProductCategory[] = ['Food Products', 'Consumer Goods', 'Luxury Goods'];

export function isConsumerGood(category: string): boolean {
  return (CONSUMER_CATEGORIES as readonly string[]).includes(category);
}

/** 422 when something other than consumer goods is put on a store's shelf. */
export function storeSellsConsumerGoodsOnly(productName: string, category: string): string {
  return `A store sells consumer goods only (food products, consumer goods and luxury goods): ${productName} is ${category.toLowerCase()}`;
}

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

/** Worlds (docs/worlds.md): the public world every sign-up joins, and private (classroom) worlds. */
export const PUBLIC_WORLD_ID = 1;
export const PUBLIC_WORLD_NAME = 'Public world';
export const WORLD_KINDS = ['public', 'private'] as const;
export type WorldKind = (typeof WORLD_KINDS)[number];
/** active: the clock runs; paused: no scheduled turns (an instructor can still advance); ended: read-only. */
export const WORLD_STATUSES = ['active', 'paused', 'ended'] as const;
export type WorldStatus = (typeof WORLD_STATUSES)[number];
/** Who runs a private world: its creator (instructor) and the co-instructors they add. */
export const WORLD_ROLES = ['instructor', 'co_instructor'] as const;
export type WorldRole = (typeof WORLD_ROLES)[number];
/** The optional labels a team's members carry (docs/classroom.md, "Teams"); they change nothing a member may do. */
export const TEAM_ROLES = ['ceo', 'operations', 'finance', 'sales'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
/** What an instructor's shock moves: a country's tax rate, a product's consumer demand, or its exchange price. */
export const SHOCK_KINDS = ['tax_rate', 'demand', 'price'] as const;
export type ShockKind = (typeof SHOCK_KINDS)[number];
