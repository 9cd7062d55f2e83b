/**
 * What every scripted company of the economy benchmark sees and may do. A strategy plays ONLY
 * through the game's own operations (db/src/game: the functions the API's requests call) and reads
 * only what a player can see (prices, its own goods and buildings, its stores' forecasts, quotes),
 * so the benchmark measures the game's rules, never a copy of them.
 */
import { sql } from 'drizzle-orm';
import { GameError, type Rng } from '@marketcraft/shared';
import { buildingForecast, cityMarketsSql, type Database, type DbExecutor, act } from '@marketcraft/db';

/** The seeded world's catalogue, read once per world. */
export interface Catalogue {
  productId: (name: string) => number;
  cityId: (name: string) => number;
  /** The recipe of a building type that makes `product` (by name). */
  recipeId: (buildingType: string, product: string) => number;
  products: { id: number; name: string; category: string; basePriceCents: number }[];
  cities: { id: number; name: string; bonusType: string; bonusValue: number; population: number; countryId: number }[];
}

export interface StrategyContext {
  db: Database;
  /** The company the strategy plays (and, for the speculator, its friendly company). */
  companyId: number;
  /** Other company ids founded for this strategy (the speculator's friend); counted with it. */
  partnerIds: number[];
  catalogue: Catalogue;
  rng: Rng;
  /** Companies founded during the run (new listings), oldest first. */
  newcomers: () => number[];
  /** Counts an attempted move (and whether the game refused it), for the report. */
  note: (what: string) => void;
}

export interface Strategy {
  /** Row label in the report. */
  name: string;
  /** Making strategies are the yardstick of the "per dollar" target. */
  kind: 'idle' | 'making' | 'retail' | 'trading' | 'shares';
  /** Extra companies it controls (founded with it, measured together with it). */
  partners?: number;
  /** Its moves for the coming week, made between turns exactly as a player's requests are. */
  play: (ctx: StrategyContext, week: number) => Promise<void>;
  /** Extra figures for the report (round trips tried, ...). */
  figures?: () => Record<string, string>;
  /** A markdown table of its own for the report (the arbitrageur's round trips by route). */
  details?: () => string;
}

export async function loadCatalogue(db: DbExecutor): Promise<Catalogue> {
  const products = (
    await db.execute<{ id: number; name: string; category: string; base_price_cents: number }>(sql`
    select id, name, category, base_price_cents from products order by id`)
  ).map((row) => ({
    id: Number(row.id),
    name: row.name,
    category: row.category,
    basePriceCents: Number(row.base_price_cents),
  }));
  const cities = (
    await db.execute<{ id: number; name: string; bonus_type: string; bonus_value: number; population: number; country_id: number }>(sql`
    select id, name, bonus_type, bonus_value, population, country_id from cities order by id`)
  ).map((row) => ({
    id: Number(row.id),
    name: row.name,
    bonusType: row.bonus_type,
    bonusValue: Number(row.bonus_value),
    population: Number(row.population),
    countryId: Number(row.country_id),
  }));
  const recipes = await db.execute<{ id: number; building_type: string; name: string }>(sql`
    select r.id, r.building_type, p.name from recipes r join products p on p.id = r.output_product_id`);
  const byName = new Map(products.map((product) => [product.name, product.id]));
  const cityByName = new Map(cities.map((city) => [city.name, city.id]));
  const recipeByKey = new Map(recipes.map((row) => [`${row.building_type}:${row.name}`, Number(row.id)]));
  const must = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the seeded world has no ${what}`);
    return value;
  };
  return {
    products,
    cities,
    productId: (name) => must(byName.get(name), `product ${name}`),
    cityId: (name) => must(cityByName.get(name), `city ${name}`),
    recipeId: (type, product) => must(recipeByKey.get(`${type}:${product}`), `${type} recipe for ${product}`),
  };
}

/**
 * Runs a player's move; a refusal by the game (GameError: not enough cash, a rule) is what a player
 * would see as a 4xx answer: noted and skipped. Anything else is a bug and stops the benchmark.
 */
export async function attempt<T>(ctx: StrategyContext, what: string, move: () => Promise<T>): Promise<T | null> {
  try {
    const result = await move();
    ctx.note(what);
    return result;
  } catch (error) {
    if (error instanceof GameError) {
      ctx.note(`${what} refused`);
      return null;
    }
    throw error;
  }
}

export async function cashCents(db: DbExecutor, companyId: number): Promise<number> {
  const [row] = await db.execute<{ cash_cents: number }>(sql`select cash_cents from companies where id = ${companyId}`);
  return Number(row?.cash_cents ?? 0);
}

export async function warehouseUnits(db: DbExecutor, companyId: number, productId: number): Promise<number> {
  const [row] = await db.execute<{ quantity: number }>(sql`
    select quantity from inventory_items where company_id = ${companyId} and product_id = ${productId}`);
  return Number(row?.quantity ?? 0);
}

/** The city's reference price for a product (what its shoppers expect to pay: the spec's city market_price). */
export async function referencePriceCents(db: DbExecutor, cityId: number, productId: number): Promise<number> {
  const [row] = await db.execute<{ price: number }>(sql`
    select market_price_cents as price from ${cityMarketsSql(1)} cmd where city_id = ${cityId} and product_id = ${productId}`);
  return Number(row?.price ?? 0);
}

/** Units of a product on a store's shelf and sold there last turn. */
export async function shelf(db: DbExecutor, storeId: number, productId: number): Promise<{ quantity: number; soldLastTurn: number }> {
  const [row] = await db.execute<{ quantity: number; units_sold_last_turn: number }>(sql`
    select quantity, units_sold_last_turn from store_products where building_id = ${storeId} and product_id = ${productId}`);
  return { quantity: Number(row?.quantity ?? 0), soldLastTurn: Number(row?.units_sold_last_turn ?? 0) };
}

/** The company's stores, oldest first. */
export async function storesOf(db: DbExecutor, companyId: number): Promise<{ id: number; cityId: number }[]> {
  const rows = await db.execute<{ id: number; city_id: number }>(sql`
    select id, city_id from buildings where company_id = ${companyId} and type = 'store' order by id`);
  return rows.map((row) => ({ id: Number(row.id), cityId: Number(row.city_id) }));
}

/**
 * Store pricing by the store's forecast (the building page's figures, computed by the turn's own
 * sales query with every competing shelf): each time it re-prices, a store compares its shelves at its current
 * price level (a multiple of each city's reference price) with one step up or down, and keeps the
 * one whose forecast margin (revenue - units x the shelf's cost) is higher; a step that loses turns
 * the next probe the other way.
 */
export interface PriceLevel {
  multiple: number;
  /** The next probe: up (> 1) or down (< 1). */
  step: number;
}

export async function searchPriceLevel(ctx: StrategyContext, storeId: number, level: PriceLevel, bounds: { min: number; max: number }): Promise<void> {
  const { db, companyId } = ctx;
  const rows = await db.execute<{ product_id: number; cost_price_cents: number; reference_cents: number; retail_price_cents: number }>(sql`
    select sp.product_id, sp.cost_price_cents, cmd.market_price_cents as reference_cents, sp.retail_price_cents
    from store_products sp join buildings b on b.id = sp.building_id
    join ${cityMarketsSql(1)} cmd on cmd.city_id = b.city_id and cmd.product_id = sp.product_id
    where sp.building_id = ${storeId} and sp.quantity > 0 order by sp.product_id`);
  if (rows.length === 0) return;
  const costs = new Map(rows.map((row) => [Number(row.product_id), Number(row.cost_price_cents)]));
  const shelfPrices = new Map(rows.map((row) => [Number(row.product_id), Number(row.retail_price_cents)]));
  const priceAt = async (multiple: number) => {
    for (const row of rows) {
      const productId = Number(row.product_id);
      const price = Math.max(1, Math.round(Number(row.reference_cents) * multiple));
      if (shelfPrices.get(productId) === price) continue;
      await act(db, 'updateStorePrice', { companyId, actingUserId: null, input: { id: storeId, product_id: productId, retail_price: price / 100 } });
      shelfPrices.set(productId, price);
    }
  };
  const forecastMargin = async () => {
    const forecast = await buildingForecast(db, companyId, storeId);
    return forecast.sales.reduce((sum, sale) => sum + Math.round(sale.revenue * 100) - sale.units * (costs.get(sale.product_id) ?? 0), 0);
  };
  // Reference prices move every week: the shelves follow them at the current level first.
  await priceAt(level.multiple);
  const current = await forecastMargin();
  const probe = Math.min(bounds.max, Math.max(bounds.min, level.multiple * level.step));
  if (probe !== level.multiple) {
    await priceAt(probe);
    if ((await forecastMargin()) > current) {
      level.multiple = probe;
      return;
    }
    await priceAt(level.multiple);
  }
  level.step = 1 / level.step;
}
