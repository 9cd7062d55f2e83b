/** Read-only catalog: goods, recipes, cities and their market data. */
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import {
  GameError,
  centsToDollars,
  priceChangePercent,
  type CityMarketDataView,
  type CityView,
  type GoodView,
  type ProductCategory,
  type RecipeView,
} from '@marketcraft/shared';
import { cities, cityMarketData, countries, products, worldProducts } from '../../schema/index.ts';
import type { DbExecutor } from '../../client.ts';
import { loadRecipes } from '../buildings/buildings.ts';
import { sqlTemplate } from '../../sqlTemplate.ts';
import { referencePriceSql, unitBuyCentsSql, unitSellCentsSql, worldProductsSql } from '../goods/prices.ts';

/**
 * A world's price version as text (world_price_versions, raised by the database in every transaction
 * that changes a posted price, this week's market flow or the week: migration 0048; no row yet is
 * '0'): what GET /goods is kept under. The session and token checks read it with the caller
 * (api/src/context.ts), so most reads of the list run no statement of their own.
 */
export function worldPricesVersionSql(worldId: SQL): SQL {
  return sql`coalesce((select v.version from world_price_versions v where v.world_id = ${worldId}), 0)::text`;
}

/** The version alone, for a caller whose check did not read it; its text rendered once. Null: no such world. */
const goodsVersionSql = sqlTemplate<'worldId'>(
  (slot) => sql`select ${worldPricesVersionSql(sql`w.id`)} as version from worlds w where w.id = ${slot('worldId')}::int`,
);

async function goodsVersion(db: DbExecutor, worldId: number): Promise<string | null> {
  const [row] = await db.execute<{ version: string }>(goodsVersionSql({ worldId }));
  return row ? row.version : null;
}

/**
 * The last answer of GET /goods per database and world, with its version: the list is read by every
 * player's screen and script and changes only with a trade, a turn or a shock, while computing it
 * (304 products, each with its curve prices) cost about 5 times the version query.
 */
const goodsCache = new WeakMap<object, Map<number, { version: string; goods: readonly GoodView[] }>>();

/**
 * GET /goods: every product, with what one unit costs and pays on the market now. `knownVersion`:
 * the world's price version as the request's credential check read it (worldPricesVersionSql),
 * before this call: the kept list is as new as that, or newer.
 */
export async function listGoods(db: DbExecutor, worldId: number, knownVersion?: string): Promise<readonly GoodView[]> {
  const version = knownVersion ?? (await goodsVersion(db, worldId));
  let worlds = goodsCache.get(db);
  const cached = worlds?.get(worldId);
  if (version !== null && cached?.version === version) return cached.goods;
  // Read after the version: a trade in between makes the next version differ, so nothing stale is kept.
  // Frozen, each good too: the same answer goes to every caller until the version moves, and the
  // REST layer writes a frozen answer's JSON once (api/src/rest.ts).
  const goods = Object.freeze((await readGoods(db, worldId)).map((good) => Object.freeze(good)));
  // A version only rises: a request that read an older one (before a trade another request has
  // already answered) leaves the newer list kept.
  if (version !== null && (!cached || BigInt(version) > BigInt(cached.version))) {
    if (!worlds) goodsCache.set(db, (worlds = new Map()));
    worlds.set(worldId, { version, goods });
  }
  return goods;
}

async function readGoods(db: DbExecutor, worldId: number): Promise<GoodView[]> {
  const rows = await db.execute<{
    id: number;
    name: string;
    category: ProductCategory;
    subcategory: string;
    current_price_cents: number;
    base_price_cents: number;
    buy_cents: number;
    sell_cents: number;
  }>(sql`
    select p.id, p.name, p.category, p.subcategory, p.current_price_cents, p.base_price_cents,
           ${unitBuyCentsSql} as buy_cents, ${unitSellCentsSql} as sell_cents
    from ${worldProductsSql(worldId, { weekFlow: true })} p order by p.id`);
  return rows.map((row) => ({
    id: Number(row.id),
    name: row.name,
    category: row.category,
    subcategory: row.subcategory,
    current_price: centsToDollars(Number(row.current_price_cents)),
    base_price: centsToDollars(Number(row.base_price_cents)),
    price_change_percent: priceChangePercent(Number(row.current_price_cents), Number(row.base_price_cents)),
    buy_price: centsToDollars(Number(row.buy_cents)),
    sell_price: centsToDollars(Number(row.sell_cents)),
  }));
}

/** GET /recipes: every recipe with its inputs (optionally one building type, case-insensitive). */
export async function listRecipes(db: DbExecutor, buildingType?: string): Promise<RecipeView[]> {
  return loadRecipes(db, buildingType ? { buildingType } : {});
}

/** GET /cities. */
export async function listCities(db: DbExecutor): Promise<CityView[]> {
  const rows = await db
    .select({
      id: cities.id,
      name: cities.name,
      countryId: cities.countryId,
      countryName: countries.name,
      bonusType: cities.bonusType,
      bonusValue: cities.bonusValue,
    })
    .from(cities)
    .innerJoin(countries, eq(countries.id, cities.countryId))
    .orderBy(asc(cities.name));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    country_id: row.countryId,
    country_name: row.countryName,
    bonus_type: row.bonusType,
    bonus_value: row.bonusValue,
  }));
}

/** GET /cities/{id}/market-data: 404 `City not found` for an unknown city. */
export async function cityMarketDataOf(db: DbExecutor, worldId: number, cityId: number): Promise<CityMarketDataView[]> {
  const [city] = await db.select({ id: cities.id }).from(cities).where(eq(cities.id, cityId));
  if (!city) throw new GameError('NOT_FOUND', 'City not found');
  const rows = await db
    .select({
      productId: cityMarketData.productId,
      productName: products.name,
      category: products.category,
      demandLevel: cityMarketData.demandLevel,
      marketPriceCents: sql`${referencePriceSql(sql`${worldProducts.currentPriceCents}`, sql`${cityMarketData.priceFactorBp}`)}`.mapWith(Number),
    })
    .from(cityMarketData)
    .innerJoin(products, eq(products.id, cityMarketData.productId))
    .innerJoin(worldProducts, and(eq(worldProducts.worldId, cityMarketData.worldId), eq(worldProducts.productId, cityMarketData.productId)))
    .where(and(eq(cityMarketData.worldId, worldId), eq(cityMarketData.cityId, city.id)))
    .orderBy(asc(products.id));
  return rows.map((row) => ({
    product_id: row.productId,
    product_name: row.productName,
    category: row.category,
    demand_level: row.demandLevel,
    market_price: centsToDollars(row.marketPriceCents),
  }));
}
