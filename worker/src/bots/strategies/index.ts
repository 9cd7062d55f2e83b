/**
 * Bots (owned by the bots engineer): strategy name -> strategy. Unknown names (a strategy added
 * to the data before its module exists, or a hand-edited row) play the balanced default: the
 * vertical integrator's housekeeping and chain building with the default profile.
 */
import type { BotStrategy } from '@marketcraft/shared';
import { DEFAULT_PROFILE, planChainBuild } from '../behaviours.ts';
import type { Strategy } from '../types.ts';
import { aggressiveExpansion } from './aggressiveExpansion.ts';
import { commodityTrader } from './commodityTrader.ts';
import { luxurySpecialist } from './luxurySpecialist.ts';
import { retailFocus } from './retailFocus.ts';
import { techInnovator } from './techInnovator.ts';
import { planTurn } from './turn.ts';
import { valueInvestor } from './valueInvestor.ts';
import { verticalIntegration } from './verticalIntegration.ts';

export const STRATEGIES: Record<BotStrategy, Strategy> = {
  vertical_integration: verticalIntegration,
  retail_focus: retailFocus,
  commodity_trader: commodityTrader,
  aggressive_expansion: aggressiveExpansion,
  value_investor: valueInvestor,
  luxury_specialist: luxurySpecialist,
  tech_innovator: techInnovator,
};

export const balancedDefault: Strategy = (input) => planTurn(input, DEFAULT_PROFILE, { build: planChainBuild });

/** Strategies that trade shares (the turn loads share valuations once for them). */
export const SHARE_TRADING_STRATEGIES: ReadonlySet<string> = new Set(['value_investor', 'commodity_trader']);
/** Strategies that look for cheap goods in their own cities. */
export const CITY_DEAL_STRATEGIES: ReadonlySet<string> = new Set(['commodity_trader']);

export function strategyFor(name: string | null): Strategy {
  if (name !== null && Object.hasOwn(STRATEGIES, name)) return STRATEGIES[name as BotStrategy];
  return balancedDefault;
}
