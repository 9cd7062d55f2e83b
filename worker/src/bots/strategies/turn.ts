/**
 * Bots (owned by the bots engineer): the common shape of a bot's turn. Every strategy runs the
 * same housekeeping in the same order and differs in its profile and its own moves:
 * 1. free fixes: a recipe for production buildings without one, a category for stores without one;
 * 2. shelves and surplus: own consumer goods onto its shelves, other surplus sold on the market;
 * 3. shelf prices back into 1.2x-1.6x the city market price;
 * 4. efficiency: hire (or buy equipment) toward 100% in up to 3 buildings;
 * 5. inputs its buildings lack for one week, bought on the market;
 * 6. (restocking strategies) shelves refilled and new products bought from the city market;
 * 7. the strategy's own moves (trading goods or shares), then at most one build;
 * 8. research and politics, each with the strategy's chance.
 */
import {
  buyMissingInputs,
  chooseMissingCategories,
  chooseMissingRecipes,
  drawMarkup,
  investInPolitics,
  raiseEfficiency,
  repriceShelves,
  researchNext,
  restockShelves,
  shelveAndSellSurplus,
  type StrategyProfile,
} from '../behaviours.ts';
import type { BotAction, StrategyInput } from '../types.ts';

export interface TurnPlan {
  /** The strategy's own moves (after housekeeping, before building). */
  moves?: (input: StrategyInput, profile: StrategyProfile) => BotAction[];
  /** At most one building per turn. */
  build?: (input: StrategyInput, profile: StrategyProfile) => BotAction | null;
}

export function planTurn(input: StrategyInput, profile: StrategyProfile, plan: TurnPlan): BotAction[] {
  const markup = drawMarkup(profile, input.rng);
  const actions: BotAction[] = [
    ...chooseMissingRecipes(input),
    ...chooseMissingCategories(input),
    ...shelveAndSellSurplus(input, profile, markup),
    ...repriceShelves(input, markup),
    ...raiseEfficiency(input, profile),
    ...buyMissingInputs(input),
  ];
  if (profile.restockByPurchase) actions.push(...restockShelves(input, markup));
  if (plan.moves) actions.push(...plan.moves(input, profile));
  const build = plan.build?.(input, profile);
  if (build) actions.push(build);
  const research = researchNext(input, profile);
  if (research) actions.push(research);
  const politics = investInPolitics(input, profile);
  if (politics) actions.push(politics);
  return actions;
}
