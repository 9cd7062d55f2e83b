/**
 * Bots (owned by the bots engineer): luxury_specialist. A chain builder with high margins: prices
 * at 1.4x-1.6x the market, buys equipment (to level 3) before staff, keeps luxury shelves stocked
 * and researches a little more than most.
 */
import { DEFAULT_PROFILE, planChainBuild, type StrategyProfile } from '../behaviours.ts';
import type { Strategy } from '../types.ts';
import { planTurn } from './turn.ts';

export const LUXURY_SPECIALIST_PROFILE: StrategyProfile = {
  ...DEFAULT_PROFILE,
  markup: [1.4, 1.6],
  buildChance: 0.3,
  maxStores: 2,
  restockByPurchase: true,
  preferEquipment: true,
  researchChance: 0.2,
  researchCashShare: 0.15,
  politicsChance: 0.15,
};

export const luxurySpecialist: Strategy = (input) => planTurn(input, LUXURY_SPECIALIST_PROFILE, { build: planChainBuild });
