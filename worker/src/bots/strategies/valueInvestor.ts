/**
 * Bots (owned by the bots engineer): value_investor. Never builds; runs what it has (staff,
 * inputs, shelves) and buys shares of companies priced at most 0.8x their net worth per share
 * (10 shares per issuer per turn, 3 issuers, never above 20% of a company), selling at 1.25x.
 */
import { DEFAULT_PROFILE, tradeShares, type StrategyProfile } from '../behaviours.ts';
import type { Strategy } from '../types.ts';
import { planTurn } from './turn.ts';

export const VALUE_INVESTOR_PROFILE: StrategyProfile = {
  ...DEFAULT_PROFILE,
  buildChance: 0,
  restockByPurchase: true,
  researchChance: 0.1,
  politicsChance: 0.05,
};

/** Most of its cash a value investor puts into one issuer per turn. */
export const VALUE_INVESTOR_CASH_SHARE = 0.05;

export const valueInvestor: Strategy = (input) =>
  planTurn(input, VALUE_INVESTOR_PROFILE, { moves: (turn) => tradeShares(turn, turn.holdings, VALUE_INVESTOR_CASH_SHARE) });
