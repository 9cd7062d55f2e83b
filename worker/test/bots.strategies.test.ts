/** Bots (owned by the bots engineer): the pure planning rules, without a database. */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '@marketcraft/shared';
import { DEFAULT_PROFILE, RESALE_MIN_MARGIN, hiresFor, planChainBuild, repriceShelves, restockShelves, shelveAndSellSurplus } from '../src/bots/behaviours.ts';
import { BOT_BUILDING_CAP, BOT_MAX_DEMAND_PRICE_MULTIPLE, BOT_MAX_SALE_DEPTH_SHARE, planBudget, quoteBuy, turnSpendingCents } from '../src/bots/budget.ts';
import { demandKey } from '../src/bots/snapshot.ts';
import { PROFILES, balancedDefault, strategyFor, STRATEGIES } from '../src/bots/strategies/index.ts';
import type { BotBuilding, BotSnapshot, BotWorld, StrategyInput, WorldRecipe } from '../src/bots/types.ts';

const WHEAT = 1;
const FLOUR = 2;
const BREAD = 3;
const farmRecipe: WorldRecipe = { id: 10, buildingType: 'farm', outputProductId: WHEAT, outputQuantity: 100, inputs: [] };
const millRecipe: WorldRecipe = { id: 11, buildingType: 'mill', outputProductId: FLOUR, outputQuantity: 80, inputs: [{ productId: WHEAT, quantity: 150 }] };
const bakeryRecipe: WorldRecipe = { id: 12, buildingType: 'bakery', outputProductId: BREAD, outputQuantity: 100, inputs: [{ productId: FLOUR, quantity: 50 }] };

function world(): BotWorld {
  const cities = [
    { id: 1, countryId: 1, population: 500_000, bonusType: 'agricultural', bonusValue: 10 },
    { id: 2, countryId: 2, population: 500_000, bonusType: 'agricultural', bonusValue: 20 },
    { id: 3, countryId: 1, population: 500_000, bonusType: 'retail', bonusValue: 15 },
    { id: 4, countryId: 1, population: 2_000_000, bonusType: 'milling', bonusValue: 10 },
  ];
  const product = (id: number, name: string, category: string, price: number) => ({
    id,
    name,
    category,
    basePriceCents: price,
    currentPriceCents: price,
    depthUnits: 4_000,
    flow: 0,
  });
  const demand = new Map(
    cities.map((city) => [
      demandKey(city.id, BREAD),
      { cityId: city.id, productId: BREAD, referenceCents: 6_000, baseDemand: city.population / 5_000, storesSelling: city.id === 4 ? 3 : 0 },
    ]),
  );
  return {
    week: 1,
    products: new Map([
      [WHEAT, product(WHEAT, 'Wheat', 'Agricultural', 1_200)],
      [FLOUR, product(FLOUR, 'Flour', 'Processed Materials', 3_190)],
      [BREAD, product(BREAD, 'Bread', 'Food Products', 4_700)],
    ]),
    recipes: new Map([
      [10, farmRecipe],
      [11, millRecipe],
      [12, bakeryRecipe],
    ]),
    recipeByOutput: new Map([
      [WHEAT, farmRecipe],
      [FLOUR, millRecipe],
      [BREAD, bakeryRecipe],
    ]),
    cities,
    citiesById: new Map(cities.map((city) => [city.id, city])),
    upgrades: [],
    demand,
    valuations: [],
  };
}

function building(id: number, type: 'farm' | 'mill' | 'bakery' | 'store', recipeId: number | null): BotBuilding {
  return {
    id,
    type,
    cityId: type === 'store' ? 3 : 1,
    countryId: 1,
    employees: 9,
    equipmentLevel: 1,
    productionRate: 100,
    selectedRecipeId: recipeId,
    selectedCategory: null,
  };
}

function bot(buildings: BotBuilding[], cashCents = 100_000_000): BotSnapshot {
  return {
    id: 1,
    strategy: 'vertical_integration',
    cashCents,
    buildings,
    warehouse: new Map(),
    shelves: [],
    researched: new Set(),
    researchDiscountPercent: 0,
    storeResearchBonus: 0,
    influence: new Map(),
    portfolio: new Map(),
  };
}

function input(snapshot: BotSnapshot, budgetCents: number, theWorld = world()): StrategyInput {
  return { bot: snapshot, world: theWorld, rng: () => 0, budget: planBudget(budgetCents) };
}

const always = { ...DEFAULT_PROFILE, buildChance: 1 };

describe('bot planning rules', () => {
  it('the turn budget is 30% of cash, never below the $50,000 reserve', () => {
    expect(turnSpendingCents(100_000_000)).toBe(30_000_000);
    expect(turnSpendingCents(6_000_000)).toBe(1_000_000);
    expect(turnSpendingCents(4_000_000)).toBe(0);
  });

  it('a chain short of wheat builds a farm in the best agricultural city, with its recipe and its first hires', () => {
    const action = planChainBuild(input(bot([building(1, 'mill', 11)]), 30_000_000), always);
    const hire = hiresFor({ employees: 1, equipmentLevel: 1 }, DEFAULT_PROFILE.targetEfficiency);
    expect(hire).toBe(6);
    expect(action).toEqual({ kind: 'build', type: 'farm', cityId: 2, recipeId: 10, hire, costCents: 2_000_000 + hire * 500_000 });
  });

  it('a maker of consumer goods without a store opens one where its goods find most shoppers per store, with the retail bonus', () => {
    const chain = [building(1, 'bakery', 12)];
    const snapshot = bot(chain);
    snapshot.warehouse.set(FLOUR, { productId: FLOUR, quantity: 10_000, averageCostCents: 3_000 });
    // City 4 has four times the shoppers but three stores selling bread already; city 3 has the retail bonus.
    const action = planChainBuild(input(snapshot, 30_000_000), always);
    expect(action).toMatchObject({ kind: 'build', type: 'store', cityId: 3 });
  });

  it('grows its last stage only while its goods sell (no pile-up in the warehouse, the market near its base price)', () => {
    // A balanced chain (2 farms feed the mill, the mill feeds the bakery) and its one store.
    const chain = [building(1, 'farm', 10), building(2, 'farm', 10), building(3, 'mill', 11), building(4, 'bakery', 12), building(5, 'store', null)];
    const grow = (snapshot: BotSnapshot, theWorld = world()) =>
      planChainBuild(input(snapshot, 30_000_000, theWorld), { ...always, maxStores: 1, maxBuildings: 12 });
    const selling = bot(chain);
    selling.warehouse.set(BREAD, { productId: BREAD, quantity: 50, averageCostCents: 3_000 });
    expect(grow(selling)).toMatchObject({ kind: 'build', type: 'bakery', recipeId: 12 });
    const piled = bot(chain);
    piled.warehouse.set(BREAD, { productId: BREAD, quantity: 5_000, averageCostCents: 3_000 });
    expect(grow(piled)).toBeNull();
    const cheap = world();
    cheap.products.get(BREAD)!.currentPriceCents = 4_000;
    expect(grow(selling, cheap)).toBeNull();
  });

  it('no building past the strategy limit, the cap, without the budget, or below the cash floor', () => {
    const full = Array.from({ length: DEFAULT_PROFILE.maxBuildings }, (_, index) => building(index + 1, 'mill', 11));
    expect(planChainBuild(input(bot(full), 30_000_000), always)).toBeNull();
    const capped = Array.from({ length: BOT_BUILDING_CAP }, (_, index) => building(index + 1, 'mill', 11));
    expect(planChainBuild(input(bot(capped), 30_000_000), { ...always, maxBuildings: 100 })).toBeNull();
    expect(planChainBuild(input(bot([building(1, 'mill', 11)]), 1_000_000), always)).toBeNull();
    expect(planChainBuild(input(bot([building(1, 'mill', 11)], 10_000_000), 3_000_000), always)).toBeNull();
  });

  it('own goods go onto own shelves first (two weeks of expected sales), only the rest to the market, never more than a quarter of its depth', () => {
    const snapshot = bot([building(1, 'bakery', 12), building(2, 'store', null)]);
    snapshot.warehouse.set(BREAD, { productId: BREAD, quantity: 5_000, averageCostCents: 3_000 });
    const actions = shelveAndSellSurplus(input(snapshot, 0), DEFAULT_PROFILE, 1.1);
    // City 3: 100 shoppers a week at the reference price, nobody else selling: 200 units at 1.1 x $60.
    expect(actions[0]).toEqual({ kind: 'shelve', buildingId: 2, productId: BREAD, quantity: 200, retailPriceCents: 6_600, costCents: 0 });
    expect(actions[1]).toEqual({ kind: 'market_sell', productId: BREAD, quantity: 4_000 * BOT_MAX_SALE_DEPTH_SHARE, costCents: 0 });
  });

  it('shelf prices outside the strategy markup range (on the reference price) are reset; prices inside are left alone', () => {
    const snapshot = bot([]);
    snapshot.shelves = [
      { buildingId: 5, productId: FLOUR, quantity: 10, retailPriceCents: 2_000, referenceCents: 1_000, unitsSoldLastTurn: 0, isActive: true },
      { buildingId: 5, productId: WHEAT, quantity: 10, retailPriceCents: 1_100, referenceCents: 1_000, unitsSoldLastTurn: 0, isActive: true },
    ];
    expect(repriceShelves(input(snapshot, 0), DEFAULT_PROFILE, 1.1)).toEqual([
      { kind: 'reprice', buildingId: 5, productId: FLOUR, retailPriceCents: 1_100, costCents: 0 },
    ]);
  });

  it('every seeded strategy has a profile; unknown names play the balanced default', () => {
    for (const name of [
      'vertical_integration',
      'retail_focus',
      'commodity_trader',
      'aggressive_expansion',
      'value_investor',
      'luxury_specialist',
      'tech_innovator',
    ]) {
      expect(strategyFor(name)).toBe(STRATEGIES[name as keyof typeof STRATEGIES]);
      expect(PROFILES[name as keyof typeof PROFILES].maxBuildings).toBeLessThanOrEqual(BOT_BUILDING_CAP);
    }
    expect(strategyFor('moon_mining')).toBe(balancedDefault);
    expect(strategyFor(null)).toBe(balancedDefault);
  });

  describe('retail focus prices by demand', () => {
    const retail = PROFILES.retail_focus;
    // A store in city 3 (retail +15%) at 100% efficiency: capacity $30,000 x 1.15 = $34,500 a week.
    const store = { ...building(7, 'store', null), employees: 9 };
    const breadShelf = (retailPriceCents: number, quantity: number, unitsSoldLastTurn: number) => ({
      buildingId: 7,
      productId: BREAD,
      quantity,
      retailPriceCents,
      referenceCents: 6_000,
      unitsSoldLastTurn,
      isActive: true,
    });
    const repriced = (shelves: ReturnType<typeof breadShelf>[]) => {
      const snapshot = { ...bot([store]), strategy: 'retail_focus', shelves };
      return repriceShelves(input(snapshot, 0), retail, 1);
    };

    it('raises its prices a step while the store sells its whole capacity, lowers a slow shelf a step, keeps one that sells what it holds', () => {
      // $34,500 of bread sold last week at $75: the store is full.
      expect(repriced([breadShelf(7_500, 100, 460)])).toEqual([{ kind: 'reprice', buildingId: 7, productId: BREAD, retailPriceCents: 7_875, costCents: 0 }]);
      // 100 sold, 200 left (two weeks): slow.
      expect(repriced([breadShelf(7_500, 200, 100)])).toEqual([{ kind: 'reprice', buildingId: 7, productId: BREAD, retailPriceCents: 7_125, costCents: 0 }]);
      // 100 sold, 100 left: the price stays.
      expect(repriced([breadShelf(7_500, 100, 100)])).toEqual([]);
    });

    it('never prices under its cost plus 15%, nor over 2.5x the reference price', () => {
      const cost = quoteBuy(world().products.get(BREAD)!, 1)!;
      // Bread costs $47 + the spread and the 20% wholesale margin, about $57.60: a slow shelf at $62 stops at the floor.
      expect(repriced([breadShelf(6_200, 500, 10)])).toEqual([
        { kind: 'reprice', buildingId: 7, productId: BREAD, retailPriceCents: Math.ceil(cost * RESALE_MIN_MARGIN), costCents: 0 },
      ]);
      expect(repriced([breadShelf(16_000, 10, 200)])).toEqual([
        { kind: 'reprice', buildingId: 7, productId: BREAD, retailPriceCents: 6_000 * BOT_MAX_DEMAND_PRICE_MULTIPLE, costCents: 0 },
      ]);
    });

    it('stocks a new product at the price that earns most on its cost (4/3 of it), with what the city buys at that price', () => {
      const snapshot = { ...bot([store]), strategy: 'retail_focus' };
      const actions = restockShelves(input(snapshot, 30_000_000), retail, 1);
      const cost = quoteBuy(world().products.get(BREAD)!, 1)!;
      const price = Math.round((cost * 4) / 3);
      // City 3: 100 shoppers a week at the reference price $60, nobody else selling; at the higher price fewer.
      const units = Math.floor(100 * (6_000 / price) ** 4);
      expect(actions).toEqual([expect.objectContaining({ kind: 'restock', buildingId: 7, productId: BREAD, quantity: units * 2, retailPriceCents: price })]);
      expect(price).toBeGreaterThan(6_000);
    });
  });

  it('a strategy plans the same actions from the same snapshot and seed', () => {
    const plan = () => STRATEGIES.aggressive_expansion({ ...input(bot([building(1, 'mill', 11)]), 30_000_000), rng: mulberry32(7) });
    expect(plan()).toEqual(plan());
    expect(plan().map((action) => action.kind)).toContain('build');
  });
});
