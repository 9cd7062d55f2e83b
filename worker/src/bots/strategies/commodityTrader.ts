/**
 * Bots (owned by the bots engineer): commodity_trader. Buys raw and agricultural goods when cheap
 * (market price at most 90% of base, or a city price at most 88% of the market in one of its own
 * cities) and sells what it holds only when the market pays 5% over its average cost or at least
 * the base price (or half of a pile above 2,000 units). Now and then builds the extraction site of the best-paying raw good,
 * and buys a few undervalued shares.
 */
import { DEFAULT_PROFILE, planExtractionBuild, tradeCommodities, tradeShares, type StrategyProfile } from '../behaviours.ts';
import type { Strategy } from '../types.ts';
import { planTurn } from './turn.ts';

export const COMMODITY_TRADER_PROFILE: StrategyProfile = {
  ...DEFAULT_PROFILE,
  buildChance: 0.1,
  minMarginOverCost: 1.05,
  researchChance: 0.1,
  politicsChance: 0.1,
};

/** Chance per turn a commodity trader also looks at shares, and the share of cash per issuer. */
export const TRADER_SHARES_CHANCE = 0.2;
export const TRADER_SHARES_CASH_SHARE = 0.02;

export const commodityTrader: Strategy = (input) =>
  planTurn(input, COMMODITY_TRADER_PROFILE, {
    moves: (turn) => [
      ...tradeCommodities(turn),
      ...(turn.rng() < TRADER_SHARES_CHANCE ? tradeShares(turn, turn.holdings, TRADER_SHARES_CASH_SHARE) : []),
    ],
    build: planExtractionBuild,
  });
