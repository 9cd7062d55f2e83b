/**
 * The research tree: 15 upgrades in 5 tiers of 3 (spec sections 1 and 3). Every upgrade of tier n
 * requires one of tier n-1. Effects use only the spec's keys: percents for production_bonus,
 * cost_reduction, price_bonus, material_reduction, chain_bonus, store_bonus and research_discount;
 * unlock_feature is a feature name; automation is a level.
 */
import type { BuildingType, ResearchCategory, ResearchEffectKey } from '@marketcraft/shared';

type ResearchEffectsSeed = { [Key in ResearchEffectKey]?: Key extends 'unlock_feature' ? string : number };

export interface ResearchSeed {
  name: string;
  description: string;
  category: ResearchCategory;
  tier: 1 | 2 | 3 | 4 | 5;
  researchCostCents: number;
  /** Name of an upgrade one tier lower; null on tier 1. */
  prerequisite: string | null;
  /** Null: applies to every building type. */
  buildingType: BuildingType | null;
  effects: ResearchEffectsSeed;
}

/** Research cost per tier, in cents: $15k, $40k, $100k, $200k, $400k. */
const RESEARCH_TIER_COST_CENTS = [1_500_000, 4_000_000, 10_000_000, 20_000_000, 40_000_000] as const;

export const RESEARCH_UPGRADES = [
  // Tier 1
  {
    name: 'Lean Production',
    description: '+10% output in every building.',
    category: 'productivity',
    tier: 1,
    researchCostCents: RESEARCH_TIER_COST_CENTS[0],
    prerequisite: null,
    buildingType: null,
    effects: { production_bonus: 10 },
  },
  {
    name: 'Cost Control',
    description: '-15% costs: lower weekly operating costs in every building.',
    category: 'efficiency',
    tier: 1,
    researchCostCents: RESEARCH_TIER_COST_CENTS[0],
    prerequisite: null,
    buildingType: null,
    effects: { cost_reduction: 15 },
  },
  {
    name: 'Retail Analytics',
    description: 'Unlocks demand forecasts for your stores and +5% store sales.',
    category: 'unlock',
    tier: 1,
    researchCostCents: RESEARCH_TIER_COST_CENTS[0],
    prerequisite: null,
    buildingType: 'store',
    effects: { unlock_feature: 'demand_forecast', store_bonus: 5 },
  },
  // Tier 2
  {
    name: 'Precision Farming',
    description: '+25% efficiency on farms: more crops from the same fields.',
    category: 'productivity',
    tier: 2,
    researchCostCents: RESEARCH_TIER_COST_CENTS[1],
    prerequisite: 'Lean Production',
    buildingType: 'farm',
    effects: { production_bonus: 25 },
  },
  {
    name: 'Supply Chain Integration',
    description: '+10% chain efficiency and -5% materials required.',
    category: 'efficiency',
    tier: 2,
    researchCostCents: RESEARCH_TIER_COST_CENTS[1],
    prerequisite: 'Cost Control',
    buildingType: null,
    effects: { chain_bonus: 10, material_reduction: 5 },
  },
  {
    name: 'Basic Automation',
    description: 'Automation level 1 in every building and -5% costs.',
    category: 'automation',
    tier: 2,
    researchCostCents: RESEARCH_TIER_COST_CENTS[1],
    prerequisite: 'Lean Production',
    buildingType: null,
    effects: { automation: 1, cost_reduction: 5 },
  },
  // Tier 3
  {
    name: 'Advanced Metallurgy',
    description: '+25% efficiency in steel mills.',
    category: 'productivity',
    tier: 3,
    researchCostCents: RESEARCH_TIER_COST_CENTS[2],
    prerequisite: 'Basic Automation',
    buildingType: 'steel_mill',
    effects: { production_bonus: 25 },
  },
  {
    name: 'Lean Materials',
    description: '-15% materials required by every recipe.',
    category: 'efficiency',
    tier: 3,
    researchCostCents: RESEARCH_TIER_COST_CENTS[2],
    prerequisite: 'Supply Chain Integration',
    buildingType: null,
    effects: { material_reduction: 15 },
  },
  {
    name: 'Brand Marketing',
    description: 'Category bonuses: unlocks premium pricing, +10% selling price and +10% store sales.',
    category: 'unlock',
    tier: 3,
    researchCostCents: RESEARCH_TIER_COST_CENTS[2],
    prerequisite: 'Supply Chain Integration',
    buildingType: null,
    effects: { unlock_feature: 'premium_pricing', price_bonus: 10, store_bonus: 10 },
  },
  // Tier 4
  {
    name: 'Robotic Assembly',
    description: 'Automation level 2 and +20% output in factories.',
    category: 'automation',
    tier: 4,
    researchCostCents: RESEARCH_TIER_COST_CENTS[3],
    prerequisite: 'Advanced Metallurgy',
    buildingType: 'factory',
    effects: { automation: 2, production_bonus: 20 },
  },
  {
    name: 'R&D Partnerships',
    description: '-20% research costs for every later upgrade.',
    category: 'efficiency',
    tier: 4,
    researchCostCents: RESEARCH_TIER_COST_CENTS[3],
    prerequisite: 'Lean Materials',
    buildingType: null,
    effects: { research_discount: 20 },
  },
  {
    name: 'Global Distribution',
    description: 'Unlocks export markets: +15% store sales and +5% selling price.',
    category: 'unlock',
    tier: 4,
    researchCostCents: RESEARCH_TIER_COST_CENTS[3],
    prerequisite: 'Brand Marketing',
    buildingType: null,
    effects: { unlock_feature: 'export_markets', store_bonus: 15, price_bonus: 5 },
  },
  // Tier 5
  {
    name: 'Elite Manufacturing',
    description: 'Elite bonuses: +30% output, +25% chain efficiency and +10% selling price.',
    category: 'productivity',
    tier: 5,
    researchCostCents: RESEARCH_TIER_COST_CENTS[4],
    prerequisite: 'Robotic Assembly',
    buildingType: null,
    effects: { production_bonus: 30, chain_bonus: 25, price_bonus: 10 },
  },
  {
    name: 'Full Automation',
    description: 'Elite bonuses: automation level 3 in every building and -20% costs.',
    category: 'automation',
    tier: 5,
    researchCostCents: RESEARCH_TIER_COST_CENTS[4],
    prerequisite: 'Robotic Assembly',
    buildingType: null,
    effects: { automation: 3, cost_reduction: 20 },
  },
  {
    name: 'Flagship Stores',
    description: 'Elite bonuses: unlocks flagship stores, +25% store sales and +15% selling price in stores.',
    category: 'unlock',
    tier: 5,
    researchCostCents: RESEARCH_TIER_COST_CENTS[4],
    prerequisite: 'Global Distribution',
    buildingType: 'store',
    effects: { unlock_feature: 'flagship_stores', store_bonus: 25, price_bonus: 15 },
  },
] as const satisfies readonly ResearchSeed[];
