/**
 * Bots (owned by the bots engineer): tech_innovator. Researches most (60% chance a turn, upgrades
 * up to 25% of its cash), buys equipment before staff, and grows its chain like a vertical
 * integrator, less often.
 */
import { DEFAULT_PROFILE, planChainBuild, type StrategyProfile } from '../behaviours.ts';
import type { Strategy } from '../types.ts';
import { planTurn } from './turn.ts';

export const TECH_INNOVATOR_PROFILE: StrategyProfile = {
  ...DEFAULT_PROFILE,
  buildChance: 0.3,
  growWhenBalanced: true,
  restockByPurchase: true,
  preferEquipment: true,
  researchChance: 0.6,
  researchCashShare: 0.25,
  politicsChance: 0.05,
};

export const techInnovator: Strategy = (input) => planTurn(input, TECH_INNOVATOR_PROFILE, { build: planChainBuild });
