/**
 * Bots (owned by the bots engineer): the building blocks strategies are made of. Each is a pure
 * function of the bot's snapshot, the turn's world, the rng and the planning budget, returning
 * actions; none touches the database. A strategy is a profile (numbers below) plus the order in
 * which it calls these. See docs/bots.md.
 *
 * Economy v2 (docs/economy.md): shoppers of a city are shared by every store selling the same
 * product there, so a maker earns most by shelving its own goods in its own stores, in cities where
 * few others sell them, and selling only the rest on the market. Bots grow their chains only while
 * what they make sells. Their growth is bounded on purpose (a building limit per strategy, efficiency
 * kept under 100%, shelf prices drawn around the reference price rather than at the best price), so
 * that a player who plays the Learning Base's chain well can beat them.
 */
import {
  BUILDING_TYPES,
  INFLUENCE_POINTS_PER_UNIT,
  INFLUENCE_UNIT_COST,
  MAX_EQUIPMENT_LEVEL,
  MAX_HIRE_PER_ACTION,
  MAX_INFLUENCE_POINTS,
  MAX_TRADE_QUANTITY,
  DEMAND_PRICE_ELASTICITY,
  cityBonusApplies,
  discountedResearchCostCents,
  dollarsToCents,
  efficiencyRule,
  equipmentUpgradeCost,
  hireCost,
  isBuildingType,
  isConsumerGood,
  plannedOutputRule,
  randomInt,
  storeCapacityRule,
  type BuildingType,
  type ProductCategory,
  type Rng,
  storeBonusRule,
  storeShoppersRule,
} from '@marketcraft/shared';
import {
  BOT_BUILDING_CAP,
  BOT_CASH_RESERVE_CENTS,
  BOT_DEMAND_PRICE_STEP,
  BOT_INPUT_WEEKS_KEPT,
  BOT_MAX_HOLDING_SHARE,
  BOT_MAX_DEMAND_PRICE_MULTIPLE,
  BOT_MAX_MARKUP,
  BOT_MAX_SALE_DEPTH_SHARE,
  BOT_MAX_SHARES_PER_TRADE,
  BOT_MAX_SHELF_PRODUCTS,
  BOT_MIN_MARKUP,
  BOT_SHARE_ISSUERS_PER_TURN,
  BOT_SHELF_WEEKS,
  BOT_SLOW_SHELF_WEEKS,
  BOT_STORE_FULL_SHARE,
  moveFlow,
  quoteBuy,
  quoteSell,
} from './budget.ts';
import { demandKey } from './snapshot.ts';
import type { BotAction, BotBuilding, BotShelf, BotSnapshot, BotWorld, CityDemand, StrategyInput, WorldProduct, WorldRecipe } from './types.ts';

/** The numbers that make one strategy differ from another. */
export interface StrategyProfile {
  /** Shelf price = the city's reference price x a markup drawn per bot and turn in [min, max]. */
  markup: readonly [number, number];
  /** Staff (or equipment) up to this efficiency, not beyond: bots run their buildings a little under 100%. */
  targetEfficiency: number;
  /** Raise efficiency by equipment (up to level 3) before hiring. */
  preferEquipment: boolean;
  /** Chance per turn to build one building (when budget, limits and sales allow). */
  buildChance: number;
  /** No building while cash is below this. */
  minCashToBuildCents: number;
  /** The most buildings this strategy owns (its growth bound; never above BOT_BUILDING_CAP). */
  maxBuildings: number;
  /** The most stores it owns. */
  maxStores: number;
  /** Builds chains (inputs it lacks, stores for its goods, another last stage while its goods sell). */
  buildsChains: boolean;
  /** Builds stores in new cities and keeps them stocked with goods bought on the market (a reseller). */
  resells: boolean;
  /**
   * Prices its shelves by demand (what a shopkeeper does) instead of a markup drawn on the
   * reference price: new products at the price that earns most on their cost, then up a step while
   * the store sells its whole capacity or a shelf sells out, down a step while a shelf sells slowly;
   * never under cost x RESALE_MIN_MARGIN nor over BOT_MAX_DEMAND_PRICE_MULTIPLE x the reference price.
   */
  pricesByDemand: boolean;
  /** Sells its surplus on the market only at or above this share of the base price (unless it piles up). */
  minSalePriceShareOfBase: number;
  /** Chance per turn to research the next affordable upgrade, and the most of its cash one may cost. */
  researchChance: number;
  researchCashShare: number;
  /** Chance per turn to invest in politics where it has most buildings. */
  politicsChance: number;
  /** Share of cash per issuer put into undervalued shares (0: no share trading). */
  shareCashShare: number;
}

export const DEFAULT_PROFILE: StrategyProfile = {
  markup: [1.0, 1.2],
  targetEfficiency: 80,
  preferEquipment: false,
  buildChance: 0.25,
  minCashToBuildCents: 20_000_000,
  maxBuildings: 6,
  maxStores: 3,
  buildsChains: true,
  resells: false,
  pricesByDemand: false,
  minSalePriceShareOfBase: 0,
  researchChance: 0.1,
  researchCashShare: 0.1,
  politicsChance: 0.05,
  shareCashShare: 0,
};

/** Value investors: buy shares priced at most this multiple of book value per share, sell at this one. */
const SHARE_BUY_RATIO = 1;
const SHARE_SELL_RATIO = 1.2;
/** Share traders look at the exchange on this share of turns (one draw a turn). */
const SHARE_TRADE_CHANCE = 0.25;
/** A reseller adds a product only where the reference price beats what buying it costs by this factor. */
export const RESALE_MIN_MARGIN = 1.15;
/** Makers grow their last stage only while their own goods do not pile up beyond this many weeks of output. */
const GROW_MAX_STOCK_WEEKS = 1;
/** ...and the market pays at least this share of the base price for them. */
const GROW_MIN_PRICE_SHARE = 0.95;

// ---------------------------------------------------------------------------------------------
// Reading the snapshot

export function drawMarkup(profile: StrategyProfile, rng: Rng): number {
  const [low, high] = profile.markup;
  return Math.min(BOT_MAX_MARKUP, Math.max(BOT_MIN_MARKUP, low + (high - low) * rng()));
}

function shelfPrice(referenceCents: number, markup: number): number {
  return Math.max(1, Math.round(referenceCents * markup));
}

function efficiencyOf(building: BotBuilding): number {
  return efficiencyRule.evaluate({ employees: building.employees, equipmentLevel: building.equipmentLevel });
}

function recipeOf(building: BotBuilding, world: BotWorld): WorldRecipe | undefined {
  return building.selectedRecipeId === null ? undefined : world.recipes.get(building.selectedRecipeId);
}

function producing(bot: BotSnapshot): BotBuilding[] {
  return bot.buildings.filter((building) => building.type !== 'store');
}

function stores(bot: BotSnapshot): BotBuilding[] {
  return bot.buildings.filter((building) => building.type === 'store');
}

function add(map: Map<number, number>, key: number, value: number): void {
  map.set(key, (map.get(key) ?? 0) + value);
}

/** Products shoppers buy, the only ones a store may carry (shared isConsumerGood). */
function isConsumer(world: BotWorld, productId: number): boolean {
  return isConsumerGood(world.products.get(productId)?.category ?? '');
}

/** The city bonus a building of this type gets in this city (research bonuses left out). */
function cityBonus(world: BotWorld, type: BuildingType, cityId: number): number {
  const city = world.citiesById.get(cityId);
  return city && cityBonusApplies(type, city.bonusType) ? city.bonusValue : 0;
}

/** Units a building makes a week with all its inputs (the turn's plannedOutput rule), at its efficiency or at `efficiency`. */
function plannedOutput(world: BotWorld, building: BotBuilding, recipe: WorldRecipe, efficiency = efficiencyOf(building)): number {
  return plannedOutputRule.evaluate({
    outputQuantity: recipe.outputQuantity,
    productionRate: building.productionRate,
    efficiency,
    bonus: cityBonus(world, building.type, building.cityId),
  });
}

/** Units of each input the bot's buildings use per week (at their efficiency, or at `efficiency`). */
function weeklyInputNeed(bot: BotSnapshot, world: BotWorld, efficiency?: number): Map<number, number> {
  const need = new Map<number, number>();
  for (const building of producing(bot)) {
    const recipe = recipeOf(building, world);
    if (!recipe) continue;
    const units = plannedOutput(world, building, recipe, efficiency);
    for (const input of recipe.inputs) add(need, input.productId, Math.ceil((units * input.quantity) / recipe.outputQuantity));
  }
  return need;
}

/** Units of each product the bot's buildings make per week (at their efficiency, or at `efficiency`). */
function weeklyOutput(bot: BotSnapshot, world: BotWorld, efficiency?: number): Map<number, number> {
  const output = new Map<number, number>();
  for (const building of producing(bot)) {
    const recipe = recipeOf(building, world);
    if (recipe) add(output, recipe.outputProductId, plannedOutput(world, building, recipe, efficiency));
  }
  return output;
}

function priceOf(world: BotWorld, productId: number): number {
  return world.products.get(productId)?.currentPriceCents ?? 0;
}

/** The value a recipe adds per run at today's prices: output less inputs. */
function recipeMargin(world: BotWorld, recipe: WorldRecipe): number {
  const inputs = recipe.inputs.reduce((sum, input) => sum + input.quantity * priceOf(world, input.productId), 0);
  return recipe.outputQuantity * priceOf(world, recipe.outputProductId) - inputs;
}

/** The city's shoppers one store can expect at a price (storeShoppersRule), counting itself among the sellers. */
function storeShoppers(demand: CityDemand, selling: boolean, priceCents: number): number {
  return storeShoppersRule.evaluate({
    baseDemand: demand.baseDemand,
    stores: demand.storesSelling + (selling ? 0 : 1),
    referenceCents: demand.referenceCents,
    priceCents,
  });
}

/** Units one store can expect to sell a week: last week's sales, or its share of the city's shoppers. */
function expectedSales(world: BotWorld, cityId: number, productId: number, soldLastTurn: number, selling: boolean): number {
  const demand = world.demand.get(demandKey(cityId, productId));
  const share = demand ? Math.floor(storeShoppers(demand, selling, demand.referenceCents)) : 0;
  return Math.max(soldLastTurn, share);
}

// ---------------------------------------------------------------------------------------------
// The market, as the bot plans (the shared rules; each order moves the flow for the next)

/** Plans a purchase if it fits the budget: its cost comes from the market rule at the current flow. */
function planBuy(world: BotWorld, budget: StrategyInput['budget'], productId: number, quantity: number): { product: WorldProduct; costCents: number } | null {
  const product = world.products.get(productId);
  if (!product || quantity <= 0 || quantity > MAX_TRADE_QUANTITY) return null;
  const costCents = quoteBuy(product, quantity);
  if (costCents === null || !budget.take(costCents)) return null;
  moveFlow(product, quantity, 'buy');
  return { product, costCents };
}

// ---------------------------------------------------------------------------------------------
// Free housekeeping: recipes and store categories

/** Production buildings without a recipe get the best-margin recipe of their type. */
export function chooseMissingRecipes({ bot, world }: StrategyInput): BotAction[] {
  const actions: BotAction[] = [];
  for (const building of producing(bot)) {
    if (building.selectedRecipeId !== null) continue;
    let best: WorldRecipe | undefined;
    for (const recipe of world.recipes.values()) {
      if (recipe.buildingType !== building.type) continue;
      if (!best || recipeMargin(world, recipe) > recipeMargin(world, best)) best = recipe;
    }
    if (best) actions.push({ kind: 'select_recipe', buildingId: building.id, recipeId: best.id, costCents: 0 });
  }
  return actions;
}

/** Stores without a category take the category of most of what they shelve (else the bot's own goods, else consumer goods). */
export function chooseMissingCategories({ bot, world }: StrategyInput): BotAction[] {
  const actions: BotAction[] = [];
  const made = [...weeklyOutput(bot, world).keys()].filter((productId) => isConsumer(world, productId));
  for (const store of stores(bot)) {
    if (store.selectedCategory !== null) continue;
    const counts = new Map<string, number>();
    const products = bot.shelves.filter((shelf) => shelf.buildingId === store.id).map((shelf) => shelf.productId);
    for (const productId of products.length > 0 ? products : made) {
      const category = world.products.get(productId)?.category;
      if (category) counts.set(category, (counts.get(category) ?? 0) + 1);
    }
    const [category] = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0] ?? ['Consumer Goods'];
    actions.push({ kind: 'select_category', buildingId: store.id, category: category as ProductCategory, costCents: 0 });
  }
  return actions;
}

// ---------------------------------------------------------------------------------------------
// Efficiency

/** Employees to hire for `target` efficiency at the building's equipment level (at most 10 per hire). */
export function hiresFor(building: Pick<BotBuilding, 'employees' | 'equipmentLevel'>, target: number): number {
  const missing = target - efficiencyRule.evaluate({ employees: building.employees, equipmentLevel: building.equipmentLevel });
  return missing <= 0 ? 0 : Math.min(MAX_HIRE_PER_ACTION, Math.ceil(missing / 10));
}

/**
 * Raises buildings toward the strategy's target efficiency: hires the employees still missing (at
 * most 10 per hire), or, when the strategy prefers equipment and the building is under level 3,
 * buys the next equipment level first.
 */
export function raiseEfficiency({ bot, budget }: StrategyInput, profile: StrategyProfile): BotAction[] {
  const actions: BotAction[] = [];
  for (const building of bot.buildings) {
    if (efficiencyOf(building) >= profile.targetEfficiency) continue;
    if (profile.preferEquipment && building.equipmentLevel < 3 && building.equipmentLevel < MAX_EQUIPMENT_LEVEL) {
      const targetLevel = building.equipmentLevel + 1;
      const costCents = dollarsToCents(equipmentUpgradeCost(building.equipmentLevel, targetLevel));
      if (budget.take(costCents)) {
        actions.push({ kind: 'upgrade_equipment', buildingId: building.id, fromLevel: building.equipmentLevel, targetLevel, costCents });
        continue;
      }
    }
    const count = hiresFor(building, profile.targetEfficiency);
    const costCents = dollarsToCents(hireCost(count));
    if (count > 0 && budget.take(costCents)) actions.push({ kind: 'hire', buildingId: building.id, count, costCents });
  }
  return actions;
}

// ---------------------------------------------------------------------------------------------
// Inputs

/** Buys on the market what the bot's buildings need for one week and neither hold nor make themselves. */
export function buyMissingInputs({ bot, world, budget }: StrategyInput): BotAction[] {
  const actions: BotAction[] = [];
  const need = weeklyInputNeed(bot, world);
  const made = weeklyOutput(bot, world);
  for (const [productId, units] of [...need.entries()].sort((a, b) => a[0] - b[0])) {
    const missing = units - (bot.warehouse.get(productId)?.quantity ?? 0) - (made.get(productId) ?? 0);
    const order = planBuy(world, budget, productId, missing);
    if (order) actions.push({ kind: 'buy_inputs', buildingId: null, productId, quantity: missing, costCents: order.costCents });
  }
  return actions;
}

// ---------------------------------------------------------------------------------------------
// Shelf prices: a markup drawn on the reference price, or by demand

/** How a bot prices its shelves, and how many units it expects a store to sell a week at a price. */
interface ShelfPricing {
  /** The price for a product in a store (its shelf, when it has one), or null when no price pays. */
  price(store: BotBuilding, productId: number, referenceCents: number, shelf: BotShelf | undefined): number | null;
  /** Units the store can expect to sell a week at `priceCents`. */
  sales(store: BotBuilding, productId: number, priceCents: number, shelf: BotShelf | undefined): number;
}

/** The strategy's pricing: by demand (retail focus) or the drawn markup on the reference price. */
function shelfPricing(input: StrategyInput, profile: StrategyProfile, markup: number): ShelfPricing {
  if (profile.pricesByDemand) return demandPricing(input, markup);
  const { world } = input;
  return {
    price: (_store, _productId, referenceCents) => shelfPrice(referenceCents, markup),
    sales: (store, productId, _priceCents, shelf) => expectedSales(world, store.cityId, productId, shelf?.unitsSoldLastTurn ?? 0, (shelf?.quantity ?? 0) > 0),
  };
}

/** What a store can sell a week, valued at its shelf prices (the turn's storeCapacity rule; city and research bonus). */
function storeCapacityCents(bot: BotSnapshot, world: BotWorld, store: BotBuilding): number {
  return storeCapacityRule.evaluate({
    efficiency: efficiencyOf(store),
    productionRate: store.productionRate,
    bonus: storeBonusRule.evaluate({ cityBonus: cityBonus(world, 'store', store.cityId), researchBonus: bot.storeResearchBonus }),
  });
}

/**
 * Pricing by demand, what a shopkeeper does with what a player sees (last week's sales, the
 * store's capacity, the city's shoppers at the reference price):
 * - a new product starts at the price that earns most on its cost when units fall with the 4th
 *   power of the price (cost x 4/3), or the drawn markup on the reference price when higher;
 * - a shelf goes up a step while its store sold its whole capacity (shoppers want more than it can
 *   serve: a higher price serves them for the same dollars with fewer goods bought) or the shelf
 *   sold out, and down a step while it sells slowly (more than 1.5 weeks of last week's sales left);
 * - never under its cost x RESALE_MIN_MARGIN, nor over BOT_MAX_DEMAND_PRICE_MULTIPLE x the reference price.
 * A unit's cost: its own goods what selling them on the market pays, bought goods what buying one
 * costs (the wholesale margin included). Expected sales are scaled to the store's capacity.
 */
function demandPricing({ bot, world }: StrategyInput, markup: number): ShelfPricing {
  const made = weeklyOutput(bot, world);
  const costOf = (productId: number): number | null => {
    const product = world.products.get(productId);
    if (!product) return null;
    return made.has(productId) ? (quoteSell(product, 1) ?? product.currentPriceCents) : quoteBuy(product, 1);
  };
  const capacity = new Map<number, number>();
  const soldValue = new Map<number, number>();
  for (const store of stores(bot)) capacity.set(store.id, storeCapacityCents(bot, world, store));
  for (const shelf of bot.shelves) add(soldValue, shelf.buildingId, shelf.unitsSoldLastTurn * shelf.retailPriceCents);

  const price = (store: BotBuilding, productId: number, referenceCents: number, shelf: BotShelf | undefined): number | null => {
    const cost = costOf(productId);
    if (cost === null || referenceCents <= 0) return null;
    const floor = Math.ceil(cost * RESALE_MIN_MARGIN);
    const ceiling = Math.floor(referenceCents * BOT_MAX_DEMAND_PRICE_MULTIPLE);
    if (floor > ceiling) return null;
    let target: number;
    if (shelf && shelf.isActive && (shelf.quantity > 0 || shelf.unitsSoldLastTurn > 0)) {
      target = shelf.retailPriceCents;
      const full = (soldValue.get(store.id) ?? 0) >= (capacity.get(store.id) ?? 0) * BOT_STORE_FULL_SHARE;
      const soldOut = shelf.quantity === 0;
      const slow = shelf.quantity > shelf.unitsSoldLastTurn * BOT_SLOW_SHELF_WEEKS;
      if (full || soldOut) target *= 1 + BOT_DEMAND_PRICE_STEP;
      else if (slow) target *= 1 - BOT_DEMAND_PRICE_STEP;
    } else {
      target = Math.max(referenceCents * markup, (cost * DEMAND_PRICE_ELASTICITY) / (DEMAND_PRICE_ELASTICITY - 1));
    }
    return Math.round(Math.min(ceiling, Math.max(floor, target)));
  };

  const unscaledSales = (store: BotBuilding, productId: number, priceCents: number, shelf: BotShelf | undefined): number => {
    const demand = world.demand.get(demandKey(store.cityId, productId));
    const selling = (shelf?.quantity ?? 0) > 0;
    const shoppers = demand ? storeShoppers(demand, selling, priceCents) : 0;
    const observed = shelf && shelf.unitsSoldLastTurn > 0 ? shelf.unitsSoldLastTurn * (shelf.retailPriceCents / priceCents) ** DEMAND_PRICE_ELASTICITY : 0;
    return Math.max(shoppers, observed);
  };
  // Each store's expected sales at its new prices, valued: shelves are filled for what its capacity can sell.
  const scale = new Map<number, number>();
  for (const store of stores(bot)) {
    let value = 0;
    for (const shelf of bot.shelves) {
      if (shelf.buildingId !== store.id || !shelf.isActive) continue;
      const shelfPriceCents = price(store, shelf.productId, shelf.referenceCents, shelf);
      if (shelfPriceCents !== null) value += unscaledSales(store, shelf.productId, shelfPriceCents, shelf) * shelfPriceCents;
    }
    scale.set(store.id, value > 0 ? Math.min(1, (capacity.get(store.id) ?? 0) / value) : 1);
  }
  return {
    price,
    sales: (store, productId, priceCents, shelf) => Math.floor(unscaledSales(store, productId, priceCents, shelf) * (scale.get(store.id) ?? 1)),
  };
}

// ---------------------------------------------------------------------------------------------
// Shelves and surplus

/**
 * Own goods first onto own shelves, the rest on the market:
 * 1. each store carrying (or with room for) a consumer good the bot holds gets up to two weeks of
 *    its expected sales (last week's, or its share of the city's shoppers), stores that sold most first;
 * 2. what is left beyond two weeks of the bot's own input needs is sold on the market, at most a
 *    quarter of the product's depth per turn, when the price suits the strategy (or the stock piles
 *    up beyond four weeks of output).
 */
export function shelveAndSellSurplus(input: StrategyInput, profile: StrategyProfile, markup: number): BotAction[] {
  const { bot, world } = input;
  const actions: BotAction[] = [];
  const need = weeklyInputNeed(bot, world);
  const made = weeklyOutput(bot, world);
  const botStores = stores(bot);
  const pricing = shelfPricing(input, profile, markup);
  const shelfCount = new Map<number, number>();
  for (const shelf of bot.shelves) add(shelfCount, shelf.buildingId, 1);

  for (const stock of [...bot.warehouse.values()].sort((a, b) => a.productId - b.productId)) {
    const product = world.products.get(stock.productId);
    if (!product) continue;
    let extra = stock.quantity - Math.ceil((need.get(stock.productId) ?? 0) * BOT_INPUT_WEEKS_KEPT);
    if (extra <= 0) continue;

    if (isConsumer(world, stock.productId)) {
      const targets = botStores
        .map((store) => {
          const shelf = bot.shelves.find((row) => row.buildingId === store.id && row.productId === stock.productId);
          const referenceCents = shelf?.referenceCents ?? world.demand.get(demandKey(store.cityId, stock.productId))?.referenceCents;
          const priceCents = referenceCents ? pricing.price(store, stock.productId, referenceCents, shelf) : null;
          const sales = priceCents === null ? 0 : pricing.sales(store, stock.productId, priceCents, shelf);
          return { store, shelf, sales, priceCents };
        })
        .filter((target) => target.shelf !== undefined || (shelfCount.get(target.store.id) ?? 0) < BOT_MAX_SHELF_PRODUCTS)
        .sort((a, b) => b.sales - a.sales || a.store.id - b.store.id);
      for (const { store, shelf, sales, priceCents } of targets) {
        const quantity = Math.min(extra, Math.max(0, sales * BOT_SHELF_WEEKS - (shelf?.quantity ?? 0)), MAX_TRADE_QUANTITY);
        if (quantity < 5 || priceCents === null) continue;
        actions.push({ kind: 'shelve', buildingId: store.id, productId: stock.productId, quantity, retailPriceCents: priceCents, costCents: 0 });
        if (!shelf) add(shelfCount, store.id, 1);
        extra -= quantity;
      }
    }
    if (extra <= 0) continue;

    const pilesUp = stock.quantity > 4 * Math.max(1, made.get(stock.productId) ?? 0);
    if (product.currentPriceCents < product.basePriceCents * profile.minSalePriceShareOfBase && !pilesUp) continue;
    const quantity = Math.min(extra, Math.floor(product.depthUnits * BOT_MAX_SALE_DEPTH_SHARE), MAX_TRADE_QUANTITY);
    if (quantity <= 0 || quoteSell(product, quantity) === null) continue;
    moveFlow(product, quantity, 'sell');
    actions.push({ kind: 'market_sell', productId: stock.productId, quantity, costCents: 0 });
  }
  return actions;
}

/**
 * Shelf prices outside the strategy's markup range (on the city's reference price) are set to the
 * drawn markup; a bot pricing by demand moves each shelf with stock to its price by demand.
 */
export function repriceShelves(input: StrategyInput, profile: StrategyProfile, markup: number): BotAction[] {
  const { bot } = input;
  const actions: BotAction[] = [];
  if (profile.pricesByDemand) {
    const pricing = shelfPricing(input, profile, markup);
    for (const shelf of bot.shelves) {
      const store = bot.buildings.find((building) => building.id === shelf.buildingId);
      if (!store || !shelf.isActive || shelf.quantity <= 0) continue;
      const priceCents = pricing.price(store, shelf.productId, shelf.referenceCents, shelf);
      if (priceCents === null || priceCents === shelf.retailPriceCents) continue;
      actions.push({ kind: 'reprice', buildingId: shelf.buildingId, productId: shelf.productId, retailPriceCents: priceCents, costCents: 0 });
    }
    return actions;
  }
  const [low, high] = profile.markup;
  for (const shelf of bot.shelves) {
    if (!shelf.isActive || shelf.referenceCents <= 0) continue;
    const ratio = shelf.retailPriceCents / shelf.referenceCents;
    if (ratio >= low - 0.005 && ratio <= high + 0.005) continue;
    actions.push({
      kind: 'reprice',
      buildingId: shelf.buildingId,
      productId: shelf.productId,
      retailPriceCents: shelfPrice(shelf.referenceCents, markup),
      costCents: 0,
    });
  }
  return actions;
}

/**
 * Resellers: goods bought on the market onto the shelves, where the shelf price pays enough over
 * what buying costs (at least 15% over the market's buy price, the wholesale margin included).
 * Shelves under one week of expected sales are filled to two weeks; a store with room adds the
 * product that earns it most (expected units x the margin at its price; one a turn).
 */
export function restockShelves(input: StrategyInput, profile: StrategyProfile, markup: number): BotAction[] {
  const { bot, world, budget } = input;
  const actions: BotAction[] = [];
  const made = weeklyOutput(bot, world);
  const pricing = shelfPricing(input, profile, markup);
  const worthReselling = (productId: number, priceCents: number, quantity: number) => {
    const product = world.products.get(productId);
    const cost = product ? quoteBuy(product, quantity) : null;
    return cost !== null && priceCents >= (cost / quantity) * RESALE_MIN_MARGIN;
  };
  for (const store of stores(bot)) {
    const carried = bot.shelves.filter((shelf) => shelf.buildingId === store.id);
    for (const shelf of carried) {
      if (!shelf.isActive || made.has(shelf.productId)) continue;
      const priceCents = pricing.price(store, shelf.productId, shelf.referenceCents, shelf);
      if (priceCents === null) continue;
      const sales = pricing.sales(store, shelf.productId, priceCents, shelf);
      if (sales <= 0 || shelf.quantity >= sales) continue;
      const quantity = sales * BOT_SHELF_WEEKS - shelf.quantity;
      if (!worthReselling(shelf.productId, priceCents, quantity)) continue;
      const order = planBuy(world, budget, shelf.productId, quantity);
      if (order) {
        actions.push({ kind: 'restock', buildingId: store.id, productId: shelf.productId, quantity, retailPriceCents: priceCents, costCents: order.costCents });
      }
    }
    if (carried.length >= BOT_MAX_SHELF_PRODUCTS) continue;
    const candidates = [...world.demand.values()]
      .filter((demand) => demand.cityId === store.cityId && !carried.some((shelf) => shelf.productId === demand.productId))
      .flatMap((demand) => {
        const priceCents = pricing.price(store, demand.productId, demand.referenceCents, undefined);
        const product = world.products.get(demand.productId);
        if (priceCents === null || !product) return [];
        const sales = pricing.sales(store, demand.productId, priceCents, undefined);
        // Markup bots rank by shoppers' dollars at the reference price; bots pricing by demand by the margin they expect.
        const score = profile.pricesByDemand ? sales * (priceCents - (quoteBuy(product, 1) ?? priceCents)) : sales * demand.referenceCents;
        return [{ demand, sales, priceCents, score }];
      })
      .sort((a, b) => b.score - a.score || a.demand.productId - b.demand.productId);
    for (const { demand, sales, priceCents } of candidates) {
      const quantity = sales * BOT_SHELF_WEEKS;
      if (quantity < 10 || !worthReselling(demand.productId, priceCents, quantity)) continue;
      const order = planBuy(world, budget, demand.productId, quantity);
      if (!order) continue;
      actions.push({ kind: 'restock', buildingId: store.id, productId: demand.productId, quantity, retailPriceCents: priceCents, costCents: order.costCents });
      break;
    }
  }
  return actions;
}

// ---------------------------------------------------------------------------------------------
// Building

/** The city whose bonus fits the type best (highest bonus; then the country where the bot has most; then lowest id). */
function bestCityFor(type: BuildingType, bot: BotSnapshot, world: BotWorld, exclude: ReadonlySet<number> = new Set()): number | null {
  const presence = new Map<number, number>();
  for (const building of bot.buildings) add(presence, building.countryId, 1);
  let best: { id: number; bonus: number; presence: number } | null = null;
  for (const city of world.cities) {
    if (exclude.has(city.id)) continue;
    const candidate = { id: city.id, bonus: cityBonus(world, type, city.id), presence: presence.get(city.countryId) ?? 0 };
    if (!best || candidate.bonus > best.bonus || (candidate.bonus === best.bonus && candidate.presence > best.presence)) best = candidate;
  }
  return best?.id ?? null;
}

/**
 * A new store's city for the bot's goods: the city where its goods find the most shoppers per store
 * already selling them (value at the reference price), with the retail bonus; one store per city.
 */
function bestStoreCityFor(goods: readonly number[], bot: BotSnapshot, world: BotWorld): number | null {
  const taken = new Set(stores(bot).map((store) => store.cityId));
  let best: { id: number; score: number } | null = null;
  for (const city of world.cities) {
    if (taken.has(city.id)) continue;
    let score = 0;
    for (const productId of goods) {
      const demand = world.demand.get(demandKey(city.id, productId));
      if (demand) score += (demand.baseDemand * demand.referenceCents) / (demand.storesSelling + 1);
    }
    score *= 1 + cityBonus(world, 'store', city.id) / 100;
    if (score > 0 && (!best || score > best.score)) best = { id: city.id, score };
  }
  return best?.id ?? null;
}

/** Under its limits, with the strategy's cash floor, and the strategy's chance (one draw, always taken). */
function mayBuild(bot: BotSnapshot, profile: StrategyProfile, rng: Rng): boolean {
  const roll = rng();
  return bot.buildings.length < Math.min(BOT_BUILDING_CAP, profile.maxBuildings) && bot.cashCents >= profile.minCashToBuildCents && roll < profile.buildChance;
}

function buildAction(
  type: BuildingType,
  cityId: number | null,
  recipeId: number | null,
  profile: StrategyProfile,
  budget: StrategyInput['budget'],
): BotAction | null {
  if (cityId === null) return null;
  const hire = hiresFor({ employees: 1, equipmentLevel: 1 }, profile.targetEfficiency);
  const costCents = dollarsToCents(BUILDING_TYPES[type].constructionCost + hireCost(hire));
  if (!budget.take(costCents)) return null;
  return { kind: 'build', type, cityId, recipeId, hire, costCents };
}

/**
 * Chain building, in this order:
 * 0. a first store, for a maker of consumer goods without one;
 * 1. the input its chain lacks most (weekly need at full staffing minus own output, at least half a
 *    building's output, valued at today's price) gets a building of the type that makes it, in the
 *    best-fitting city, with its recipe;
 * 2. another store for its consumer goods, while they do not all fit on its shelves (more than a
 *    week of output piles up in the warehouse), up to its strategy's stores: in the city with most
 *    shoppers per store;
 * 3. another copy of its most valuable last stage, only while its own goods sell: no more than one
 *    week of output in stock and the market paying at least 95% of the base price.
 */
export function planChainBuild({ bot, world, budget, rng }: StrategyInput, profile: StrategyProfile): BotAction | null {
  if (!mayBuild(bot, profile, rng)) return null;
  const need = weeklyInputNeed(bot, world, 100);
  const made = weeklyOutput(bot, world, 100);
  const goods = [...made.keys()].filter((productId) => isConsumer(world, productId) && !need.has(productId)).sort((a, b) => a - b);
  const storeCount = stores(bot).length;
  if (goods.length > 0 && storeCount === 0 && profile.maxStores > 0) return buildAction('store', bestStoreCityFor(goods, bot, world), null, profile, budget);

  let best: { recipe: WorldRecipe; type: BuildingType; score: number } | null = null;
  for (const [productId, units] of [...need.entries()].sort((a, b) => a[0] - b[0])) {
    const shortage = units - (made.get(productId) ?? 0);
    const recipe = world.recipeByOutput.get(productId);
    if (!recipe || !isBuildingType(recipe.buildingType) || recipe.buildingType === 'store') continue;
    if (shortage < recipe.outputQuantity / 2) continue;
    const score = shortage * priceOf(world, productId);
    if (!best || score > best.score) best = { recipe, type: recipe.buildingType, score };
  }
  if (best) return buildAction(best.type, bestCityFor(best.type, bot, world), best.recipe.id, profile, budget);

  const piledUp = goods.some((productId) => (bot.warehouse.get(productId)?.quantity ?? 0) > (made.get(productId) ?? 0));
  if (piledUp && storeCount < profile.maxStores) return buildAction('store', bestStoreCityFor(goods, bot, world), null, profile, budget);

  // Grow: another copy of the most valuable last stage, while what it makes sells.
  let lastStage: { building: BotBuilding; recipe: WorldRecipe; value: number } | null = null;
  for (const building of producing(bot)) {
    const recipe = recipeOf(building, world);
    if (!recipe || need.has(recipe.outputProductId) || !isBuildingType(recipe.buildingType)) continue;
    const value = recipeMargin(world, recipe);
    if (!lastStage || value > lastStage.value) lastStage = { building, recipe, value };
  }
  if (!lastStage || lastStage.value <= 0) return null;
  const productId = lastStage.recipe.outputProductId;
  const product = world.products.get(productId);
  const stock = bot.warehouse.get(productId)?.quantity ?? 0;
  const sells =
    !!product && product.currentPriceCents >= product.basePriceCents * GROW_MIN_PRICE_SHARE && stock <= GROW_MAX_STOCK_WEEKS * (made.get(productId) ?? 0);
  if (!sells) return null;
  return buildAction(lastStage.building.type, bestCityFor(lastStage.building.type, bot, world), lastStage.recipe.id, profile, budget);
}

/** Resellers: a store in the city with most shoppers per store for the goods it resells, up to its stores. */
export function planStoreBuild({ bot, world, budget, rng }: StrategyInput, profile: StrategyProfile): BotAction | null {
  if (!mayBuild(bot, profile, rng) || stores(bot).length >= profile.maxStores) return null;
  const goods = [...new Set(bot.shelves.map((shelf) => shelf.productId))].sort((a, b) => a - b);
  return buildAction('store', bestStoreCityFor(goods, bot, world), null, profile, budget);
}

// ---------------------------------------------------------------------------------------------
// Shares

/**
 * Value investing, on a quarter of turns: sells holdings priced at 1.2x book value per share or
 * more; buys one issuer priced at most at their book value per share (new shares are issued at the price), at most
 * 25 shares each per turn, never above 20% of an issuer's shares, each for at most `shareCashShare`
 * of its cash.
 */
export function tradeShares({ bot, world, budget, rng }: StrategyInput, profile: StrategyProfile): BotAction[] {
  const actions: BotAction[] = [];
  if (rng() >= SHARE_TRADE_CHANCE) return actions;
  const byIssuer = new Map(world.valuations.map((valuation) => [valuation.companyId, valuation]));
  for (const [issuerId, owned] of [...bot.portfolio.entries()].sort((a, b) => a[0] - b[0])) {
    const valuation = byIssuer.get(issuerId);
    if (owned > 0 && valuation && valuation.sharePriceCents >= valuation.netWorthPerShareCents * SHARE_SELL_RATIO) {
      actions.push({ kind: 'sell_shares', issuerId, shares: owned, costCents: 0 });
    }
  }
  let issuers = 0;
  for (const valuation of world.valuations) {
    if (issuers >= BOT_SHARE_ISSUERS_PER_TURN) break;
    if (valuation.companyId === bot.id || valuation.sharePriceCents > valuation.netWorthPerShareCents * SHARE_BUY_RATIO) continue;
    const room = Math.floor(valuation.totalShares * BOT_MAX_HOLDING_SHARE) - (bot.portfolio.get(valuation.companyId) ?? 0);
    // An estimate for the budget: the price with both spreads (the trade itself walks the curve).
    const perShare = Math.ceil(valuation.sharePriceCents * 1.1);
    const affordable = Math.floor(Math.min(bot.cashCents * profile.shareCashShare, budget.remainingCents) / perShare);
    const shares = Math.min(BOT_MAX_SHARES_PER_TRADE, room, affordable);
    if (shares <= 0 || !budget.take(shares * perShare)) continue;
    actions.push({ kind: 'buy_shares', issuerId: valuation.companyId, shares, costCents: shares * perShare });
    issuers += 1;
  }
  return actions;
}

// ---------------------------------------------------------------------------------------------
// Research and politics

/**
 * With the strategy's chance: the cheapest upgrade not yet researched whose prerequisite is done,
 * that applies to all buildings or to a type the bot owns, costing (after its discount) at most
 * researchCashShare of its cash.
 */
export function researchNext({ bot, world, budget, rng }: StrategyInput, profile: StrategyProfile): BotAction | null {
  if (rng() >= profile.researchChance) return null;
  const types = new Set<string>(bot.buildings.map((building) => building.type));
  let best: { id: number; costCents: number } | null = null;
  for (const upgrade of world.upgrades) {
    if (bot.researched.has(upgrade.id)) continue;
    if (upgrade.prerequisiteId !== null && !bot.researched.has(upgrade.prerequisiteId)) continue;
    if (upgrade.buildingType !== null && !types.has(upgrade.buildingType)) continue;
    const costCents = discountedResearchCostCents(upgrade.costCents, bot.researchDiscountPercent);
    if (costCents > bot.cashCents * profile.researchCashShare) continue;
    if (!best || costCents < best.costCents) best = { id: upgrade.id, costCents };
  }
  if (!best || !budget.take(best.costCents)) return null;
  return { kind: 'research', upgradeId: best.id, discountPercent: bot.researchDiscountPercent, costCents: best.costCents };
}

/**
 * With the strategy's chance, and cash at least 3x the reserve: 5-20 units ($1,000 each) of
 * influence in the country where the bot has the most buildings, never past the 1,000-point cap.
 */
export function investInPolitics({ bot, budget, rng }: StrategyInput, profile: StrategyProfile): BotAction | null {
  if (rng() >= profile.politicsChance) return null;
  const units = randomInt(rng, 5, 20);
  if (bot.cashCents < 3 * BOT_CASH_RESERVE_CENTS) return null;
  const presence = new Map<number, number>();
  for (const building of bot.buildings) add(presence, building.countryId, 1);
  let countryId: number | null = null;
  let most = 0;
  for (const [country, count] of [...presence.entries()].sort((a, b) => a[0] - b[0])) {
    if (count > most) {
      most = count;
      countryId = country;
    }
  }
  if (countryId === null) return null;
  const room = Math.floor((MAX_INFLUENCE_POINTS - (bot.influence.get(countryId) ?? 0)) / INFLUENCE_POINTS_PER_UNIT);
  const take = Math.min(units, room);
  if (take <= 0) return null;
  const amountDollars = take * INFLUENCE_UNIT_COST;
  const costCents = dollarsToCents(amountDollars);
  if (!budget.take(costCents)) return null;
  return { kind: 'politics', countryId, amountDollars, costCents };
}
