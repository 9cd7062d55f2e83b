/**
 * Bots (owned by the bots engineer): the building blocks strategies are made of. Each is a pure
 * function of the bot's snapshot, the turn's world, the rng and the planning budget, returning
 * actions; none touches the database. A strategy is a profile (numbers below) plus the order in
 * which it calls these. See docs/bots.md.
 */
import {
  BUILDING_TYPES,
  INFLUENCE_POINTS_PER_UNIT,
  INFLUENCE_UNIT_COST,
  MARKET_HALF_SPREAD_BP,
  MAX_EQUIPMENT_LEVEL,
  MAX_INFLUENCE_POINTS,
  MAX_TRADE_QUANTITY,
  PRODUCT_CATEGORIES,
  efficiencyRule,
  cityBonusApplies,
  discountedResearchCostCents,
  dollarsToCents,
  equipmentUpgradeCost,
  hireCost,
  isBuildingType,
  randomInt,
  type BuildingType,
  type ProductCategory,
  type Rng,
} from '@marketcraft/shared';
import {
  BOT_BUILDING_CAP,
  BOT_CASH_RESERVE_CENTS,
  BOT_EFFICIENCY_ACTIONS_PER_TURN,
  BOT_INPUT_WEEKS_KEPT,
  BOT_MAX_HOLDING_SHARE,
  BOT_MAX_MARKUP,
  BOT_MAX_SHARES_PER_TRADE,
  BOT_MAX_SHELF_PRODUCTS,
  BOT_MIN_FLOAT_LEFT_SHARE,
  BOT_MIN_MARKUP,
  BOT_NEW_SHELF_PRODUCTS_PER_TURN,
  BOT_SHELF_LOW_UNITS,
  BOT_SHELF_TARGET_UNITS,
} from './budget.ts';
import { CONSUMER_CATEGORIES, TRADER_CATEGORIES } from './snapshot.ts';
import type { BotAction, BotBuilding, BotSnapshot, BotWorld, StrategyInput, WorldRecipe } from './types.ts';

/** The numbers that make one strategy differ from another. */
export interface StrategyProfile {
  /** Retail markup over the city market price, drawn per bot and turn in [min, max]. */
  markup: readonly [number, number];
  /** Chance per turn to build one building (when budget and cap allow). */
  buildChance: number;
  /** No building while cash is below this (a bot keeps building money for running what it has). */
  minCashToBuildCents: number;
  /** With no input shortage, build another copy of the chain's last stage (grow) instead of nothing. */
  growWhenBalanced: boolean;
  /** Most stores the bot wants. */
  maxStores: number;
  /** Chance per turn to research the next affordable upgrade. */
  researchChance: number;
  /** Most of its cash one upgrade may cost. */
  researchCashShare: number;
  /** Chance per turn to invest in politics where it has buildings. */
  politicsChance: number;
  /** Raise efficiency by equipment (up to level 3) before hiring. */
  preferEquipment: boolean;
  /** Buy goods from the city market to keep shelves stocked (and add new products). */
  restockByPurchase: boolean;
  /** Sell warehouse goods only when the sale price beats their average cost by this factor (0: always sell surplus). */
  minMarginOverCost: number;
}

export const DEFAULT_PROFILE: StrategyProfile = {
  markup: [1.3, 1.5],
  buildChance: 0.3,
  minCashToBuildCents: 30_000_000,
  growWhenBalanced: false,
  maxStores: 2,
  researchChance: 0.15,
  researchCashShare: 0.1,
  politicsChance: 0.1,
  preferEquipment: false,
  restockByPurchase: false,
  minMarginOverCost: 0,
};

/** Units above which a bot sells half of a held good whatever the price (no endless hoarding). */
export const HOARD_LIMIT_UNITS = 2_000;
/** Commodity traders: buy on the market when the current price is at most this share of the base price. */
export const CHEAP_PRICE_RATIO = 0.9;
/** Value investors: buy when the share price is at most this share of the book value per share (the company sells new shares at its book value)... */
export const SHARE_BUY_RATIO = 1;
/** ...and sell when it reaches this multiple of it. */
export const SHARE_SELL_RATIO = 1.25;

const CONSUMER = new Set<string>(CONSUMER_CATEGORIES);
const TRADER = new Set<string>(TRADER_CATEGORIES);

export function drawMarkup(profile: StrategyProfile, rng: Rng): number {
  const [low, high] = profile.markup;
  const markup = low + (high - low) * rng();
  return Math.min(BOT_MAX_MARKUP, Math.max(BOT_MIN_MARKUP, markup));
}

export function retailPrice(marketPriceCents: number, markup: number): number {
  return Math.max(1, Math.round(marketPriceCents * markup));
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

/** Units of each input the bot's buildings use per week (at their efficiency, or at 100%). */
export function weeklyInputNeed(bot: BotSnapshot, world: BotWorld, atFullEfficiency = false): Map<number, number> {
  const need = new Map<number, number>();
  for (const building of producing(bot)) {
    const recipe = recipeOf(building, world);
    if (!recipe) continue;
    const efficiency = atFullEfficiency ? 100 : efficiencyOf(building);
    for (const input of recipe.inputs) add(need, input.productId, Math.ceil((input.quantity * building.productionRate * efficiency) / 10_000));
  }
  return need;
}

/** Units of each product the bot's buildings make per week (before bonuses). */
export function weeklyOutput(bot: BotSnapshot, world: BotWorld, atFullEfficiency = false): Map<number, number> {
  const output = new Map<number, number>();
  for (const building of producing(bot)) {
    const recipe = recipeOf(building, world);
    if (!recipe) continue;
    const efficiency = atFullEfficiency ? 100 : efficiencyOf(building);
    add(output, recipe.outputProductId, Math.floor((recipe.outputQuantity * building.productionRate * efficiency) / 10_000));
  }
  return output;
}

function priceOf(world: BotWorld, productId: number): number {
  return world.products.get(productId)?.currentPriceCents ?? 0;
}

/** The value a recipe adds per week at 100%: output at current price less inputs at current price. */
function recipeMargin(world: BotWorld, recipe: WorldRecipe): number {
  const inputs = recipe.inputs.reduce((sum, input) => sum + input.quantity * priceOf(world, input.productId), 0);
  return recipe.outputQuantity * priceOf(world, recipe.outputProductId) - inputs;
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

/** Stores without a category take the category most of their shelf products belong to. */
export function chooseMissingCategories({ bot, world }: StrategyInput): BotAction[] {
  const actions: BotAction[] = [];
  for (const store of stores(bot)) {
    if (store.selectedCategory !== null) continue;
    const counts = new Map<string, number>();
    for (const shelf of bot.shelves) {
      if (shelf.buildingId !== store.id) continue;
      const category = world.products.get(shelf.productId)?.category;
      if (category) counts.set(category, (counts.get(category) ?? 0) + 1);
    }
    let category: ProductCategory = 'Consumer Goods';
    let most = 0;
    for (const candidate of PRODUCT_CATEGORIES) {
      const count = counts.get(candidate) ?? 0;
      if (count > most) {
        most = count;
        category = candidate;
      }
    }
    actions.push({ kind: 'select_category', buildingId: store.id, category, costCents: 0 });
  }
  return actions;
}

// ---------------------------------------------------------------------------------------------
// Efficiency

/**
 * Raises production buildings toward 100% efficiency (at most 3 per turn, oldest first): hires
 * the employees still missing at the current equipment level (at most 10 per hire), or, when the
 * strategy prefers equipment and the building is below level 3, buys the next equipment level.
 */
export function raiseEfficiency({ bot, budget }: StrategyInput, profile: StrategyProfile): BotAction[] {
  const actions: BotAction[] = [];
  for (const building of producing(bot)) {
    if (actions.length >= BOT_EFFICIENCY_ACTIONS_PER_TURN) break;
    const efficiency = efficiencyOf(building);
    if (efficiency >= 100) continue;
    if (profile.preferEquipment && building.equipmentLevel < 3 && building.equipmentLevel < MAX_EQUIPMENT_LEVEL) {
      const targetLevel = building.equipmentLevel + 1;
      const costCents = dollarsToCents(equipmentUpgradeCost(building.equipmentLevel, targetLevel));
      if (budget.take(costCents)) {
        actions.push({ kind: 'upgrade_equipment', buildingId: building.id, targetLevel, costCents });
        continue;
      }
    }
    const count = Math.min(10, Math.ceil((100 - efficiency) / 10));
    const costCents = dollarsToCents(hireCost(count));
    if (count > 0 && budget.take(costCents)) actions.push({ kind: 'hire', buildingId: building.id, count, costCents });
  }
  return actions;
}

// ---------------------------------------------------------------------------------------------
// Inputs and surplus

/**
 * Buys on the market what the bot's buildings need for one week and neither hold nor make
 * themselves, product by product, as long as the budget allows.
 */
export function buyMissingInputs({ bot, world, budget }: StrategyInput): BotAction[] {
  const actions: BotAction[] = [];
  const need = weeklyInputNeed(bot, world);
  const made = weeklyOutput(bot, world);
  for (const [productId, units] of [...need.entries()].sort((a, b) => a[0] - b[0])) {
    const missing = units - (bot.warehouse.get(productId)?.quantity ?? 0) - (made.get(productId) ?? 0);
    const price = priceOf(world, productId);
    if (missing <= 0 || price <= 0) continue;
    const quantity = Math.min(missing, MAX_TRADE_QUANTITY);
    const costCents = quantity * price;
    if (budget.take(costCents)) actions.push({ kind: 'buy_inputs', buildingId: null, productId, quantity, costCents });
  }
  return actions;
}

/**
 * Shelves, then surplus. Consumer goods the bot holds beyond its inputs go onto its stores'
 * shelves (split evenly over the stores that carry them or have room); everything else beyond two
 * weeks of input needs is sold on the market when the price is right for the strategy (always, or
 * with minMarginOverCost: when the sale pays that factor over the average cost or the price is at
 * least the base price; above 2,000 units, half of it whatever the price).
 */
export function shelveAndSellSurplus({ bot, world }: StrategyInput, profile: StrategyProfile, markup: number): BotAction[] {
  const actions: BotAction[] = [];
  const need = weeklyInputNeed(bot, world);
  const botStores = stores(bot);
  const shelfCount = new Map<number, number>();
  for (const shelf of bot.shelves) add(shelfCount, shelf.buildingId, 1);
  for (const stock of bot.warehouse.values()) {
    const product = world.products.get(stock.productId);
    if (!product) continue;
    let extra = stock.quantity - Math.ceil((need.get(stock.productId) ?? 0) * BOT_INPUT_WEEKS_KEPT);
    if (extra <= 0) continue;

    if (CONSUMER.has(product.category) && botStores.length > 0) {
      const carrying = botStores.filter((store) => bot.shelves.some((shelf) => shelf.buildingId === store.id && shelf.productId === stock.productId));
      const targets = carrying.length > 0 ? carrying : botStores.filter((store) => (shelfCount.get(store.id) ?? 0) < BOT_MAX_SHELF_PRODUCTS).slice(0, 1);
      const perStore = Math.floor(extra / Math.max(1, targets.length));
      if (perStore >= 5) {
        for (const store of targets) {
          const shelf = bot.shelves.find((row) => row.buildingId === store.id && row.productId === stock.productId);
          const market = shelf?.marketPriceCents ?? product.currentPriceCents;
          actions.push({
            kind: 'shelve',
            buildingId: store.id,
            productId: stock.productId,
            quantity: Math.min(perStore, MAX_TRADE_QUANTITY),
            retailPriceCents: retailPrice(market, markup),
            costCents: 0,
          });
          if (!shelf) add(shelfCount, store.id, 1);
          extra -= perStore;
        }
        continue;
      }
    }

    const salePrice = Math.round((product.currentPriceCents * (10_000 - MARKET_HALF_SPREAD_BP)) / 10_000);
    const priceIsRight =
      profile.minMarginOverCost <= 0 ||
      salePrice >= stock.averageCostCents * profile.minMarginOverCost ||
      product.currentPriceCents >= product.basePriceCents;
    let quantity = 0;
    if (priceIsRight) quantity = extra;
    else if (stock.quantity > HOARD_LIMIT_UNITS) quantity = Math.floor(extra / 2);
    quantity = Math.min(quantity, MAX_TRADE_QUANTITY);
    if (quantity > 0) actions.push({ kind: 'market_sell', productId: stock.productId, quantity, costCents: 0 });
  }
  return actions;
}

// ---------------------------------------------------------------------------------------------
// Shelves

/** Shelf prices outside 1.2x-1.6x the city market price are reset to market x markup. */
export function repriceShelves({ bot }: StrategyInput, markup: number): BotAction[] {
  const actions: BotAction[] = [];
  for (const shelf of bot.shelves) {
    if (!shelf.isActive || shelf.marketPriceCents <= 0) continue;
    const ratio = shelf.retailPriceCents / shelf.marketPriceCents;
    if (ratio >= BOT_MIN_MARKUP && ratio <= BOT_MAX_MARKUP) continue;
    actions.push({ kind: 'reprice', buildingId: shelf.buildingId, productId: shelf.productId, retailPriceCents: retailPrice(shelf.marketPriceCents, markup), costCents: 0 });
  }
  return actions;
}

/**
 * Buys stock at the city market price into the store's back room and moves it onto the shelf:
 * shelves under 60 units are filled to 200 (goods the bot makes itself are left to production),
 * and a store with room adds its city's best-demanded product it does not carry yet.
 */
export function restockShelves({ bot, world, budget }: StrategyInput, markup: number): BotAction[] {
  const actions: BotAction[] = [];
  const made = weeklyOutput(bot, world);
  for (const shelf of bot.shelves) {
    if (!shelf.isActive || shelf.quantity >= BOT_SHELF_LOW_UNITS || made.has(shelf.productId) || shelf.marketPriceCents <= 0) continue;
    const quantity = BOT_SHELF_TARGET_UNITS - shelf.quantity;
    const costCents = quantity * shelf.marketPriceCents;
    if (budget.take(costCents)) {
      actions.push({ kind: 'restock', buildingId: shelf.buildingId, productId: shelf.productId, quantity, retailPriceCents: retailPrice(shelf.marketPriceCents, markup), costCents });
    }
  }
  for (const store of stores(bot)) {
    const carried = bot.shelves.filter((shelf) => shelf.buildingId === store.id);
    if (carried.length >= BOT_MAX_SHELF_PRODUCTS) continue;
    let added = 0;
    for (const candidate of bot.storeCandidates) {
      if (added >= BOT_NEW_SHELF_PRODUCTS_PER_TURN) break;
      if (candidate.buildingId !== store.id || carried.some((shelf) => shelf.productId === candidate.productId)) continue;
      const quantity = Math.floor(BOT_SHELF_TARGET_UNITS / 2);
      const costCents = quantity * candidate.marketPriceCents;
      if (candidate.marketPriceCents <= 0 || !budget.take(costCents)) continue;
      actions.push({ kind: 'restock', buildingId: store.id, productId: candidate.productId, quantity, retailPriceCents: retailPrice(candidate.marketPriceCents, markup), costCents });
      added += 1;
    }
  }
  return actions;
}

// ---------------------------------------------------------------------------------------------
// Building

/** The city whose bonus fits the type best (highest bonus; then where the bot already is; then lowest id). */
export function bestCityFor(type: BuildingType, bot: BotSnapshot, world: BotWorld, exclude: ReadonlySet<number> = new Set()): number | null {
  const presence = new Map<number, number>();
  for (const building of bot.buildings) add(presence, building.countryId, 1);
  let best: { id: number; bonus: number; presence: number } | null = null;
  for (const city of world.cities) {
    if (exclude.has(city.id) || !cityBonusApplies(type, city.bonusType)) continue;
    const candidate = { id: city.id, bonus: city.bonusValue, presence: presence.get(city.countryId) ?? 0 };
    if (!best || candidate.bonus > best.bonus || (candidate.bonus === best.bonus && candidate.presence > best.presence)) best = candidate;
  }
  if (best) return best.id;
  return bot.buildings[0]?.cityId ?? world.cities[0]?.id ?? null;
}

/** Under the cap, with the strategy's cash floor, and the strategy's chance (one draw, always taken). */
function mayBuild(bot: BotSnapshot, profile: StrategyProfile, rng: Rng): boolean {
  const roll = rng();
  return bot.buildings.length < BOT_BUILDING_CAP && bot.cashCents >= profile.minCashToBuildCents && roll < profile.buildChance;
}

function buildAction(type: BuildingType, cityId: number | null, recipeId: number | null, budget: StrategyInput['budget']): BotAction | null {
  if (cityId === null) return null;
  const costCents = dollarsToCents(BUILDING_TYPES[type].constructionCost);
  if (!budget.take(costCents)) return null;
  return { kind: 'build', type, cityId, recipeId, costCents };
}

/**
 * Chain building (vertical integration): the input its chain lacks most (weekly need at 100%
 * efficiency minus own output, at least half a building's output, valued at the current price)
 * gets a building of the type that makes it, in the best-fitting city, with its recipe. With no
 * shortage: a first store when it sells consumer goods, else (growWhenBalanced) another copy of
 * its most valuable last-stage building. Never beyond the 12-building cap.
 */
export function planChainBuild({ bot, world, budget, rng }: StrategyInput, profile: StrategyProfile): BotAction | null {
  if (!mayBuild(bot, profile, rng)) return null;
  const need = weeklyInputNeed(bot, world, true);
  const made = weeklyOutput(bot, world, true);
  let best: { recipe: WorldRecipe; type: BuildingType; score: number } | null = null;
  for (const [productId, units] of [...need.entries()].sort((a, b) => a[0] - b[0])) {
    const shortage = units - (made.get(productId) ?? 0);
    const recipe = world.recipeByOutput.get(productId);
    if (!recipe || !isBuildingType(recipe.buildingType) || recipe.buildingType === 'store') continue;
    if (shortage < recipe.outputQuantity / 2) continue;
    const score = shortage * priceOf(world, productId);
    if (!best || score > best.score) best = { recipe, type: recipe.buildingType, score };
  }
  if (best) return buildAction(best.type, bestCityFor(best.type, bot, world), best.recipe.id, budget);

  const storeCount = stores(bot).length;
  const sellsConsumerGoods = [...made.keys()].some((productId) => CONSUMER.has(world.products.get(productId)?.category ?? ''));
  if (storeCount === 0 && sellsConsumerGoods && profile.maxStores > 0) return buildAction('store', bestCityFor('store', bot, world), null, budget);
  if (!profile.growWhenBalanced) return null;

  // Grow: another copy of the most valuable last stage (its output is no input of the bot's own chain).
  let lastStage: { building: BotBuilding; recipe: WorldRecipe; value: number } | null = null;
  for (const building of producing(bot)) {
    const recipe = recipeOf(building, world);
    if (!recipe || need.has(recipe.outputProductId) || !isBuildingType(recipe.buildingType)) continue;
    const value = recipeMargin(world, recipe);
    if (!lastStage || value > lastStage.value) lastStage = { building, recipe, value };
  }
  if (!lastStage) return null;
  return buildAction(lastStage.building.type, bestCityFor(lastStage.building.type, bot, world), lastStage.recipe.id, budget);
}

/** Retail expansion: a store in the best retail city where the bot has none yet, up to maxStores. */
export function planStoreBuild({ bot, world, budget, rng }: StrategyInput, profile: StrategyProfile): BotAction | null {
  if (!mayBuild(bot, profile, rng) || stores(bot).length >= profile.maxStores) return null;
  const taken = new Set(stores(bot).map((store) => store.cityId));
  const cityId = bestCityFor('store', bot, world, taken);
  if (cityId === null || taken.has(cityId)) return null;
  return buildAction('store', cityId, null, budget);
}

/** Extraction expansion (traders): a building for the raw good selling furthest above its base price. */
export function planExtractionBuild({ bot, world, budget, rng }: StrategyInput, profile: StrategyProfile): BotAction | null {
  if (!mayBuild(bot, profile, rng)) return null;
  let best: { recipe: WorldRecipe; type: BuildingType; ratio: number } | null = null;
  for (const recipe of world.recipes.values()) {
    if (recipe.inputs.length > 0 || !isBuildingType(recipe.buildingType) || BUILDING_TYPES[recipe.buildingType].category !== 'extraction') continue;
    const product = world.products.get(recipe.outputProductId);
    if (!product || product.basePriceCents <= 0) continue;
    const ratio = (product.currentPriceCents * recipe.outputQuantity) / dollarsToCents(BUILDING_TYPES[recipe.buildingType].constructionCost);
    if (!best || ratio > best.ratio) best = { recipe, type: recipe.buildingType, ratio };
  }
  if (!best) return null;
  return buildAction(best.type, bestCityFor(best.type, bot, world), best.recipe.id, budget);
}

// ---------------------------------------------------------------------------------------------
// Trading goods and shares

/**
 * Commodity trading: buy raw and agricultural goods that are cheap (market price at most 90% of
 * base: up to 2 products; or at most 88% of the market price in one of the bot's own cities: up to
 * 2 deals), each for at most 10% of cash and 1,000 units. What it bought is sold once the market
 * pays 5% over its average cost (shelveAndSellSurplus with minMarginOverCost 1.05).
 */
export function tradeCommodities({ bot, world, budget }: StrategyInput): BotAction[] {
  const actions: BotAction[] = [];
  const perTradeCents = Math.floor(bot.cashCents * 0.1);
  const cheap = [...world.products.values()]
    .filter((product) => TRADER.has(product.category) && product.basePriceCents > 0 && product.currentPriceCents <= product.basePriceCents * CHEAP_PRICE_RATIO)
    .sort((a, b) => a.currentPriceCents / a.basePriceCents - b.currentPriceCents / b.basePriceCents || a.id - b.id)
    .slice(0, 2);
  for (const product of cheap) {
    const quantity = Math.min(1_000, Math.floor(Math.min(perTradeCents, budget.remainingCents) / product.currentPriceCents));
    const costCents = quantity * product.currentPriceCents;
    if (quantity > 0 && budget.take(costCents)) actions.push({ kind: 'market_buy', productId: product.id, quantity, costCents });
  }
  const deals = [...bot.cityDeals]
    .sort((a, b) => a.cityPriceCents / priceOf(world, a.productId) - b.cityPriceCents / priceOf(world, b.productId) || a.productId - b.productId)
    .slice(0, 2);
  for (const deal of deals) {
    if (deal.cityPriceCents <= 0) continue;
    const quantity = Math.min(1_000, Math.floor(Math.min(perTradeCents, budget.remainingCents) / deal.cityPriceCents));
    const costCents = quantity * deal.cityPriceCents;
    if (quantity > 0 && budget.take(costCents)) actions.push({ kind: 'city_buy', buildingId: deal.buildingId, productId: deal.productId, quantity, costCents });
  }
  return actions;
}

/**
 * Value investing: sell holdings priced at 1.25x net worth per share or more; buy up to 3 issuers
 * priced at most 0.8x their net worth per share, at most 10 shares each per turn, never above 20%
 * of an issuer's shares, never leaving less than half of its shares on the market (for players),
 * each for at most `cashShare` of cash.
 */
export function tradeShares({ bot, world, budget }: StrategyInput, holdings: readonly { companyId: number; sharePriceCents: number; netWorthPerShareCents: number }[], cashShare: number): BotAction[] {
  const actions: BotAction[] = [];
  for (const holding of holdings) {
    const owned = bot.portfolio.get(holding.companyId) ?? 0;
    if (owned > 0 && holding.sharePriceCents >= holding.netWorthPerShareCents * SHARE_SELL_RATIO) {
      actions.push({ kind: 'sell_shares', issuerId: holding.companyId, shares: owned, costCents: 0 });
    }
  }
  let issuers = 0;
  for (const valuation of world.valuations ?? []) {
    if (issuers >= 3) break;
    if (valuation.companyId === bot.id || valuation.sharesAvailable <= 0) continue;
    if (valuation.sharePriceCents > valuation.netWorthPerShareCents * SHARE_BUY_RATIO) continue;
    const room = Math.floor(valuation.totalShares * BOT_MAX_HOLDING_SHARE) - (bot.portfolio.get(valuation.companyId) ?? 0);
    const affordable = Math.floor(Math.min(bot.cashCents * cashShare, budget.remainingCents) / valuation.sharePriceCents);
    const shares = Math.min(BOT_MAX_SHARES_PER_TRADE, room, affordable);
    if (shares <= 0) continue;
    // An estimate for the budget: the price plus the spread (the trade itself prices the walk).
    const costCents = Math.ceil((shares * valuation.sharePriceCents * (10_000 + 2 * MARKET_HALF_SPREAD_BP)) / 10_000);
    if (!budget.take(costCents)) continue;
    actions.push({ kind: 'buy_shares', issuerId: valuation.companyId, shares, costCents });
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
  return { kind: 'research', upgradeId: best.id, costCents: best.costCents };
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
