/**
 * Bots (owned by the bots engineer): the data a strategy decides from and the actions it returns.
 * A strategy never touches the database: it reads its `BotSnapshot` and the turn's `BotWorld` (both
 * read once per turn for every bot, snapshot.ts), and returns `BotAction`s that execute.ts carries
 * out in batches through the players' rules (db/src/game). Money is in integer cents throughout.
 */
import type { BuildingType, ProductCategory, Rng } from '@marketcraft/shared';

export interface WorldProduct {
  id: number;
  name: string;
  category: string;
  basePriceCents: number;
  /** The exchange's posted price this week. */
  currentPriceCents: number;
  depthUnits: number;
  /**
   * This week's net flow (units bought minus sold). The planner moves it as bots plan their orders,
   * in the order they run, so each bot prices its orders after the bots before it.
   */
  flow: number;
}

export interface WorldRecipe {
  id: number;
  buildingType: string;
  outputProductId: number;
  outputQuantity: number;
  inputs: { productId: number; quantity: number }[];
}

export interface WorldCity {
  id: number;
  countryId: number;
  population: number;
  bonusType: string;
  bonusValue: number;
}

interface WorldUpgrade {
  id: number;
  tier: number;
  costCents: number;
  prerequisiteId: number | null;
  buildingType: string | null;
  effects: Record<string, number | string | boolean>;
}

/** A listed company's share price next to its book value per share (the stocks phase's). */
export interface ShareValuation {
  companyId: number;
  sharePriceCents: number;
  netWorthPerShareCents: number;
  totalShares: number;
}

/** Shoppers for one product in one city (what a player reads on the market screen). */
export interface CityDemand {
  cityId: number;
  productId: number;
  /** The reference price R shoppers expect (city_market_data.market_price). */
  referenceCents: number;
  /** Units the city buys a week at R (baseDemandRule). */
  baseDemand: number;
  /** Stores selling it there now (with stock on an active shelf), every company's. */
  storesSelling: number;
}

/** Read once per turn, shared by every bot. */
export interface BotWorld {
  week: number;
  products: Map<number, WorldProduct>;
  recipes: Map<number, WorldRecipe>;
  /** The recipe that makes a product (the lowest id when several do). */
  recipeByOutput: Map<number, WorldRecipe>;
  cities: WorldCity[];
  citiesById: Map<number, WorldCity>;
  upgrades: WorldUpgrade[];
  /** Shoppers per `${cityId}:${productId}`, for the consumer goods bots make or sell, in every city. */
  demand: Map<string, CityDemand>;
  /** The most undervalued listed active companies (VALUATIONS_READ) and those bots hold, most undervalued first. */
  valuations: ShareValuation[];
}

export interface BotBuilding {
  id: number;
  type: BuildingType;
  cityId: number;
  countryId: number;
  employees: number;
  equipmentLevel: number;
  productionRate: number;
  selectedRecipeId: number | null;
  selectedCategory: string | null;
}

interface BotStock {
  productId: number;
  quantity: number;
  averageCostCents: number;
}

export interface BotShelf {
  buildingId: number;
  productId: number;
  quantity: number;
  retailPriceCents: number;
  /** The city's reference price R for the product (the posted price x 130% without city data). */
  referenceCents: number;
  unitsSoldLastTurn: number;
  isActive: boolean;
}

export interface BotSnapshot {
  id: number;
  strategy: string;
  cashCents: number;
  buildings: BotBuilding[];
  warehouse: Map<number, BotStock>;
  shelves: BotShelf[];
  researched: Set<number>;
  researchDiscountPercent: number;
  /** Its stores' research store_bonus (percent): with the city's retail bonus, what a store's capacity counts. */
  storeResearchBonus: number;
  influence: Map<number, number>;
  /** Shares held, by issuer company id. */
  portfolio: Map<number, number>;
}

export type BotAction =
  | { kind: 'build'; type: BuildingType; cityId: number; recipeId: number | null; hire: number; costCents: number }
  | { kind: 'select_recipe'; buildingId: number; recipeId: number; costCents: 0 }
  | { kind: 'select_category'; buildingId: number; category: ProductCategory; costCents: 0 }
  | { kind: 'hire'; buildingId: number; count: number; costCents: number }
  | { kind: 'upgrade_equipment'; buildingId: number; fromLevel: number; targetLevel: number; costCents: number }
  | { kind: 'buy_inputs'; buildingId: number | null; productId: number; quantity: number; costCents: number }
  | { kind: 'market_sell'; productId: number; quantity: number; costCents: 0 }
  | { kind: 'restock'; buildingId: number; productId: number; quantity: number; retailPriceCents: number; costCents: number }
  | { kind: 'shelve'; buildingId: number; productId: number; quantity: number; retailPriceCents: number; costCents: 0 }
  | { kind: 'reprice'; buildingId: number; productId: number; retailPriceCents: number; costCents: 0 }
  | { kind: 'buy_shares'; issuerId: number; shares: number; costCents: number }
  | { kind: 'sell_shares'; issuerId: number; shares: number; costCents: 0 }
  | { kind: 'research'; upgradeId: number; discountPercent: number; costCents: number }
  | { kind: 'politics'; countryId: number; amountDollars: number; costCents: number };

/**
 * What a strategy plans against: the spending it may still plan this turn (`take` refuses a cost
 * that does not fit and leaves the budget unchanged).
 */
export interface PlanBudget {
  readonly remainingCents: number;
  take(costCents: number): boolean;
}

export interface StrategyInput {
  bot: BotSnapshot;
  world: BotWorld;
  rng: Rng;
  budget: PlanBudget;
}

export type Strategy = (input: StrategyInput) => BotAction[];
