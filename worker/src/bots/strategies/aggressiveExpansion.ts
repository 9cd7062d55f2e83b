/**
 * Bots (owned by the bots engineer): aggressive_expansion. Builds every turn it can afford (chain
 * gaps first, then another copy of its last stage, else a store), up to the 12-building cap, and
 * buys political influence where it builds.
 */
import { DEFAULT_PROFILE, planChainBuild, planStoreBuild, type StrategyProfile } from '../behaviours.ts';
import type { Strategy } from '../types.ts';
import { planTurn } from './turn.ts';

export const AGGRESSIVE_EXPANSION_PROFILE: StrategyProfile = {
  ...DEFAULT_PROFILE,
  markup: [1.25, 1.45],
  buildChance: 1,
  minCashToBuildCents: 20_000_000,
  growWhenBalanced: true,
  maxStores: 3,
  researchChance: 0.1,
  politicsChance: 0.4,
};

export const aggressiveExpansion: Strategy = (input) =>
  planTurn(input, AGGRESSIVE_EXPANSION_PROFILE, {
    build: (turn, profile) => planChainBuild(turn, profile) ?? planStoreBuild(turn, profile),
  });
