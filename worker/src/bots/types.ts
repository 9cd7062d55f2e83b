/**
 * Bots (owned by the bots engineer): the data a strategy decides from and the actions it returns.
 * A strategy never touches the database: it reads a `BotSnapshot` and the turn's `BotWorld`, and
 * returns `BotAction`s that `execute.ts` carries out through the players' operations (db/src/game).
 * Money is in integer cents throughout.
 */
import type { BuildingType, ProductCategory, Rng } from '@marketcraft/shared';

export interface WorldProduct {
  id: number;
  category: string;
  basePriceCents: number;
  currentPriceCents: number;
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
  bonusType: string;
  bonusValue: number;
}

export interface WorldUpgrade {
  id: number;
  tier: number;
  costCents: number;
  prerequisiteId: number | null;
  buildingType: string | null;
  effects: Record<string, number | string | boolean>;
}

/** A listed company's share price next to its net worth per share (the stocks phase's definition). */
export interface ShareValuation {
  companyId: number;
  sharePriceCents: number;
  netWorthPerShareCents: number;
  totalShares: number;
  sharesAvailable: number;
}

/** Read once per turn, shared by every bot (small catalogue tables only). */
export interface BotWorld {
  week: number;
  products: Map<number, WorldProduct>;
  recipes: Map<number, WorldRecipe>;
  /** The recipe that makes a product (one per product in the seed; the lowest id wins otherwise). */
  recipeByOutput: Map<number, WorldRecipe>;
  cities: WorldCity[];
  citiesById: Map<number, WorldCity>;
  upgrades: WorldUpgrade[];
  /** Listed companies, most undervalued first; loaded once, only when a strategy trades shares. */
  valuations: ShareValuation[] | null;
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

export interface BotStock {
  productId: number;
  quantity: number;
  averageCostCents: number;
}

export interface BotShelf {
  buildingId: number;
  productId: number;
  quantity: number;
  retailPriceCents: number;
  /** The city's market price for the product (the product's current price without city data). */
  marketPriceCents: number;
  isActive: boolean;
}

/** A product worth adding to a store's shelf: high demand in the store's city. */
export interface StoreCandidate {
  buildingId: number;
  productId: number;
  marketPriceCents: number;
  demandLevel: number;
}

/** A raw or agricultural good cheaper in the city of one of the bot's buildings than on the market. */
export interface CityDeal {
  buildingId: number;
  productId: number;
  cityPriceCents: number;
}

export interface BotSnapshot {
  id: number;
  strategy: string;
  cashCents: number;
  buildings: BotBuilding[];
  warehouse: Map<number, BotStock>;
  shelves: BotShelf[];
  storeCandidates: StoreCandidate[];
  cityDeals: CityDeal[];
  researched: Set<number>;
  researchDiscountPercent: number;
  influence: Map<number, number>;
  /** Shares held, by issuer company id. */
  portfolio: Map<number, number>;
}

export type BotAction =
  | { kind: 'build'; type: BuildingType; cityId: number; recipeId: number | null; costCents: number }
  | { kind: 'select_recipe'; buildingId: number; recipeId: number; costCents: 0 }
  | { kind: 'select_category'; buildingId: number; category: ProductCategory; costCents: 0 }
  | { kind: 'hire'; buildingId: number; count: number; costCents: number }
  | { kind: 'upgrade_equipment'; buildingId: number; targetLevel: number; costCents: number }
  | { kind: 'buy_inputs'; buildingId: number | null; productId: number; quantity: number; costCents: number }
  | { kind: 'market_buy'; productId: number; quantity: number; costCents: number }
  | { kind: 'market_sell'; productId: number; quantity: number; costCents: 0 }
  | { kind: 'city_buy'; buildingId: number; productId: number; quantity: number; costCents: number }
  | { kind: 'restock'; buildingId: number; productId: number; quantity: number; retailPriceCents: number; costCents: number }
  | { kind: 'shelve'; buildingId: number; productId: number; quantity: number; retailPriceCents: number; costCents: 0 }
  | { kind: 'reprice'; buildingId: number; productId: number; retailPriceCents: number; costCents: 0 }
  | { kind: 'buy_shares'; issuerId: number; shares: number; costCents: number }
  | { kind: 'sell_shares'; issuerId: number; shares: number; costCents: 0 }
  | { kind: 'research'; upgradeId: number; costCents: number }
  | { kind: 'politics'; countryId: number; amountDollars: number; costCents: number };

export type BotActionKind = BotAction['kind'];

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
  /** Share price and net worth per share of the issuers the bot holds (share-trading strategies only). */
  holdings: ShareValuation[];
}

export type Strategy = (input: StrategyInput) => BotAction[];
