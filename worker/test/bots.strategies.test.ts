/** Bots (owned by the bots engineer): the pure planning rules, without a database. */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '@marketcraft/shared';
import { planChainBuild, repriceShelves, DEFAULT_PROFILE } from '../src/bots/behaviours.ts';
import { BOT_BUILDING_CAP, planBudget, turnSpendingCents } from '../src/bots/budget.ts';
import { balancedDefault, strategyFor, STRATEGIES } from '../src/bots/strategies/index.ts';
import type { BotBuilding, BotSnapshot, BotWorld, StrategyInput, WorldRecipe } from '../src/bots/types.ts';

const WHEAT = 1;
const FLOUR = 2;
const farmRecipe: WorldRecipe = { id: 10, buildingType: 'farm', outputProductId: WHEAT, outputQuantity: 100, inputs: [] };
const millRecipe: WorldRecipe = { id: 11, buildingType: 'mill', outputProductId: FLOUR, outputQuantity: 80, inputs: [{ productId: WHEAT, quantity: 150 }] };

function world(): BotWorld {
  const cities = [
    { id: 1, countryId: 1, bonusType: 'agricultural', bonusValue: 10 },
    { id: 2, countryId: 2, bonusType: 'agricultural', bonusValue: 20 },
    { id: 3, countryId: 1, bonusType: 'retail', bonusValue: 15 },
  ];
  return {
    week: 1,
    products: new Map([
      [WHEAT, { id: WHEAT, category: 'Agricultural', basePriceCents: 1_200, currentPriceCents: 1_200 }],
      [FLOUR, { id: FLOUR, category: 'Processed Materials', basePriceCents: 3_190, currentPriceCents: 3_190 }],
    ]),
    recipes: new Map([
      [10, farmRecipe],
      [11, millRecipe],
    ]),
    recipeByOutput: new Map([
      [WHEAT, farmRecipe],
      [FLOUR, millRecipe],
    ]),
    cities,
    citiesById: new Map(cities.map((city) => [city.id, city])),
    upgrades: [],
    valuations: null,
  };
}

function mill(id: number): BotBuilding {
  return { id, type: 'mill', cityId: 1, countryId: 1, employees: 9, equipmentLevel: 1, productionRate: 100, selectedRecipeId: 11, selectedCategory: null };
}

function bot(buildings: BotBuilding[], cashCents = 100_000_000): BotSnapshot {
  return {
    id: 1,
    strategy: 'vertical_integration',
    cashCents,
    buildings,
    warehouse: new Map(),
    shelves: [],
    storeCandidates: [],
    cityDeals: [],
    researched: new Set(),
    researchDiscountPercent: 0,
    influence: new Map(),
    portfolio: new Map(),
  };
}

function input(snapshot: BotSnapshot, budgetCents: number): StrategyInput {
  return { bot: snapshot, world: world(), rng: () => 0, budget: planBudget(budgetCents), holdings: [] };
}

describe('bot planning rules', () => {
  it('the turn budget is 30% of cash, never below the $50,000 reserve', () => {
    expect(turnSpendingCents(100_000_000)).toBe(30_000_000);
    expect(turnSpendingCents(6_000_000)).toBe(1_000_000);
    expect(turnSpendingCents(4_000_000)).toBe(0);
  });

  it('a chain short of wheat builds a farm in the best agricultural city, with its recipe', () => {
    const action = planChainBuild(input(bot([mill(1)]), 30_000_000), { ...DEFAULT_PROFILE, buildChance: 1 });
    expect(action).toEqual({ kind: 'build', type: 'farm', cityId: 2, recipeId: 10, costCents: 2_000_000 });
  });

  it('no building past the cap, without the budget, or below the cash floor', () => {
    const profile = { ...DEFAULT_PROFILE, buildChance: 1 };
    const full = Array.from({ length: BOT_BUILDING_CAP }, (_, index) => mill(index + 1));
    expect(planChainBuild(input(bot(full), 30_000_000), profile)).toBeNull();
    expect(planChainBuild(input(bot([mill(1)]), 1_000_000), profile)).toBeNull();
    expect(planChainBuild(input(bot([mill(1)], 10_000_000), 3_000_000), profile)).toBeNull();
  });

  it('shelf prices outside 1.2x-1.6x the market are reset; prices inside are left alone', () => {
    const snapshot = bot([]);
    snapshot.shelves = [
      { buildingId: 5, productId: FLOUR, quantity: 10, retailPriceCents: 2_000, marketPriceCents: 1_000, isActive: true },
      { buildingId: 5, productId: WHEAT, quantity: 10, retailPriceCents: 1_400, marketPriceCents: 1_000, isActive: true },
    ];
    expect(repriceShelves(input(snapshot, 0), 1.4)).toEqual([{ kind: 'reprice', buildingId: 5, productId: FLOUR, retailPriceCents: 1_400, costCents: 0 }]);
  });

  it('every seeded strategy has a module; unknown names play the balanced default', () => {
    for (const name of ['vertical_integration', 'retail_focus', 'commodity_trader', 'aggressive_expansion', 'value_investor', 'luxury_specialist', 'tech_innovator']) {
      expect(strategyFor(name)).toBe(STRATEGIES[name as keyof typeof STRATEGIES]);
    }
    expect(strategyFor('moon_mining')).toBe(balancedDefault);
    expect(strategyFor(null)).toBe(balancedDefault);
  });

  it('a strategy plans the same actions from the same snapshot and seed', () => {
    const plan = () => STRATEGIES.aggressive_expansion({ ...input(bot([mill(1)]), 30_000_000), rng: mulberry32(7) });
    expect(plan()).toEqual(plan());
    expect(plan().map((action) => action.kind)).toContain('build');
  });
});
