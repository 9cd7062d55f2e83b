/**
 * Bots (owned by the bots engineer): retail_focus. Keeps its shelves full (buys stock at the city
 * market price, prices it at 1.2x-1.4x the market), adds its cities' best-demanded products and
 * opens stores in new retail cities, up to 6 stores.
 */
import { DEFAULT_PROFILE, planStoreBuild, type StrategyProfile } from '../behaviours.ts';
import type { Strategy } from '../types.ts';
import { planTurn } from './turn.ts';

export const RETAIL_FOCUS_PROFILE: StrategyProfile = {
  ...DEFAULT_PROFILE,
  markup: [1.2, 1.4],
  buildChance: 0.3,
  minCashToBuildCents: 20_000_000,
  maxStores: 6,
  restockByPurchase: true,
  researchChance: 0.15,
  politicsChance: 0.1,
};

export const retailFocus: Strategy = (input) => planTurn(input, RETAIL_FOCUS_PROFILE, { build: planStoreBuild });
