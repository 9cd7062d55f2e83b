/**
 * Bots (owned by the bots engineer): vertical_integration. Owns whole chains (farm -> mill ->
 * bakery -> store): builds whatever input its chain lacks most, in the city whose bonus fits,
 * with the recipe selected; with no shortage, a store or another copy of its last stage.
 */
import { DEFAULT_PROFILE, planChainBuild, type StrategyProfile } from '../behaviours.ts';
import type { Strategy } from '../types.ts';
import { planTurn } from './turn.ts';

export const VERTICAL_INTEGRATION_PROFILE: StrategyProfile = {
  ...DEFAULT_PROFILE,
  markup: [1.3, 1.5],
  buildChance: 0.35,
  growWhenBalanced: true,
  maxStores: 2,
  researchChance: 0.15,
  politicsChance: 0.25,
};

export const verticalIntegration: Strategy = (input) => planTurn(input, VERTICAL_INTEGRATION_PROFILE, { build: planChainBuild });
