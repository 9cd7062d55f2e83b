/**
 * Bots (owned by the bots engineer): the strategies. Every strategy plays the same turn (planTurn)
 * and differs in its profile: its markup range, staffing, growth limits, whether it builds chains,
 * resells or trades shares. Unknown strategy names (a strategy added to the data before its profile
 * exists, or a hand-edited row) play the balanced default. docs/bots.md has the table.
 */
import type { BotStrategy } from '@marketcraft/shared';
import {
  DEFAULT_PROFILE,
  buyMissingInputs,
  chooseMissingCategories,
  chooseMissingRecipes,
  drawMarkup,
  investInPolitics,
  planChainBuild,
  planStoreBuild,
  raiseEfficiency,
  repriceShelves,
  researchNext,
  restockShelves,
  shelveAndSellSurplus,
  tradeShares,
  type StrategyProfile,
} from '../behaviours.ts';
import type { BotAction, Strategy, StrategyInput } from '../types.ts';

export const PROFILES: Record<BotStrategy, StrategyProfile> = {
  vertical_integration: { ...DEFAULT_PROFILE },
  aggressive_expansion: {
    ...DEFAULT_PROFILE,
    markup: [0.95, 1.15],
    targetEfficiency: 70,
    buildChance: 0.5,
    maxBuildings: 6,
    maxStores: 3,
    politicsChance: 0.2,
  },
  retail_focus: {
    ...DEFAULT_PROFILE,
    markup: [0.95, 1.1],
    buildsChains: false,
    resells: true,
    pricesByDemand: true,
    buildChance: 0.2,
    maxStores: 4,
    maxBuildings: 4,
  },
  commodity_trader: { ...DEFAULT_PROFILE, maxStores: 0, minSalePriceShareOfBase: 0.95, buildChance: 0.15 },
  value_investor: { ...DEFAULT_PROFILE, buildsChains: false, buildChance: 0, maxStores: 0, researchChance: 0.05, politicsChance: 0.02, shareCashShare: 0.05 },
  luxury_specialist: { ...DEFAULT_PROFILE, markup: [1.05, 1.3], preferEquipment: true, researchChance: 0.15 },
  tech_innovator: { ...DEFAULT_PROFILE, preferEquipment: true, researchChance: 0.3, researchCashShare: 0.12, buildChance: 0.25 },
};

/**
 * One bot's turn, in this order:
 * 1. free fixes: a recipe for production buildings without one, a category for stores without one;
 * 2. own goods onto own shelves, the rest sold on the market (the strategy's price rule);
 * 3. shelf prices back into the strategy's markup range around the city's reference price;
 * 4. staffing toward the strategy's target efficiency;
 * 5. the inputs its buildings lack for a week, bought on the market;
 * 6. resellers: shelves restocked from the market;
 * 7. share trades (value investors), then at most one building;
 * 8. research and politics, each with the strategy's chance.
 */
function planTurn(input: StrategyInput, profile: StrategyProfile): BotAction[] {
  const markup = drawMarkup(profile, input.rng);
  const actions: BotAction[] = [
    ...chooseMissingRecipes(input),
    ...chooseMissingCategories(input),
    ...shelveAndSellSurplus(input, profile, markup),
    ...repriceShelves(input, profile, markup),
    ...raiseEfficiency(input, profile),
    ...buyMissingInputs(input),
  ];
  if (profile.resells) actions.push(...restockShelves(input, profile, markup));
  if (profile.shareCashShare > 0) actions.push(...tradeShares(input, profile));
  const build = profile.resells ? planStoreBuild(input, profile) : profile.buildsChains ? planChainBuild(input, profile) : null;
  if (build) actions.push(build);
  const research = researchNext(input, profile);
  if (research) actions.push(research);
  const politics = investInPolitics(input, profile);
  if (politics) actions.push(politics);
  return actions;
}

export const balancedDefault: Strategy = (input) => planTurn(input, DEFAULT_PROFILE);

export const STRATEGIES: Record<BotStrategy, Strategy> = Object.fromEntries(
  Object.entries(PROFILES).map(([name, profile]) => [name, (input: StrategyInput) => planTurn(input, profile)]),
) as Record<BotStrategy, Strategy>;

export function strategyFor(name: string | null): Strategy {
  if (name !== null && Object.hasOwn(STRATEGIES, name)) return STRATEGIES[name as BotStrategy];
  return balancedDefault;
}
