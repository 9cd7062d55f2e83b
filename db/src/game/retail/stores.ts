/**
 * Store shelves (store_products): list, reprice, toggle, remove. Shelf stock arrives through
 * transferToStore (retail/shelving.ts); removing a product returns its stock to the store's back room.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { GameError, centsToDollars, type StoreProductView } from '@marketcraft/shared';
import { cityMarketData, products, storeProducts, worldProducts } from '../../schema/index.ts';
import { referencePriceSql } from '../goods/prices.ts';
import type { DbExecutor } from '../../client.ts';
import { findOwnedBuilding, type OwnedBuilding } from '../buildings/buildings.ts';
import { addToBackRoom } from '../goods/stock.ts';
import { applied, idList, inTransaction, oneByOne, refused, type Outcome, type PlayerAction } from '../action.ts';
import { lockBuildings, ownBuilding } from '../buildings/actions.ts';
import { dollarsToCents } from '@marketcraft/shared';

const STORE_PRODUCT_NOT_FOUND = 'This product is not in this store';

/** (price - reference) / reference in percent, one decimal; null without a reference. */
function percentAbove(priceCents: number, referenceCents: number | null): number | null {
  if (referenceCents === null || referenceCents <= 0) return null;
  return Math.round(((priceCents - referenceCents) / referenceCents) * 1_000) / 10;
}

async function ownedStore(db: DbExecutor, companyId: number, buildingId: number, lock: boolean): Promise<OwnedBuilding> {
  const building = await findOwnedBuilding(db, companyId, buildingId, { lock });
  if (building.spec.category !== 'retail') {
    throw new GameError('RULE_BROKEN', `Only stores sell products: this building is a ${building.spec.name}`);
  }
  return building;
}

async function storeProductViews(db: DbExecutor, building: OwnedBuilding, productId?: number): Promise<StoreProductView[]> {
  const rows = await db
    .select({
      id: storeProducts.id,
      productId: storeProducts.productId,
      productName: products.name,
      category: products.category,
      quantity: storeProducts.quantity,
      retailPriceCents: storeProducts.retailPriceCents,
      costPriceCents: storeProducts.costPriceCents,
      isActive: storeProducts.isActive,
      // No city market row (left join): no reference price.
      marketPriceCents: sql<number | null>`case when ${cityMarketData.worldId} is null then null
        else ${referencePriceSql(sql`${worldProducts.currentPriceCents}`, sql`${cityMarketData.priceFactorBp}`)} end`.mapWith((value) =>
        value === null ? null : Number(value),
      ),
      demandLevel: cityMarketData.demandLevel,
      unitsSoldLastTurn: storeProducts.unitsSoldLastTurn,
    })
    .from(storeProducts)
    .innerJoin(products, eq(products.id, storeProducts.productId))
    .leftJoin(
      cityMarketData,
      and(eq(cityMarketData.worldId, building.worldId), eq(cityMarketData.productId, storeProducts.productId), eq(cityMarketData.cityId, building.cityId)),
    )
    .leftJoin(worldProducts, and(eq(worldProducts.worldId, building.worldId), eq(worldProducts.productId, storeProducts.productId)))
    .where(and(eq(storeProducts.buildingId, building.id), productId === undefined ? undefined : eq(storeProducts.productId, productId)))
    .orderBy(asc(products.name));
  return rows.map((row) => ({
    id: row.id,
    product_id: row.productId,
    product_name: row.productName,
    category: row.category,
    quantity: row.quantity,
    retail_price: centsToDollars(row.retailPriceCents),
    cost_price: centsToDollars(row.costPriceCents),
    is_active: row.isActive,
    market_price: row.marketPriceCents === null ? null : centsToDollars(row.marketPriceCents),
    demand_level: row.demandLevel,
    units_sold_last_turn: row.unitsSoldLastTurn,
    markup_percent: percentAbove(row.retailPriceCents, row.costPriceCents),
    vs_market_percent: percentAbove(row.retailPriceCents, row.marketPriceCents),
  }));
}

async function oneStoreProduct(db: DbExecutor, building: OwnedBuilding, productId: number): Promise<StoreProductView> {
  const [view] = await storeProductViews(db, building, productId);
  if (!view) throw new GameError('NOT_FOUND', STORE_PRODUCT_NOT_FOUND);
  return view;
}

/** GET /stores/{id}/products. */
export async function listStoreProducts(db: DbExecutor, companyId: number, buildingId: number): Promise<StoreProductView[]> {
  const building = await ownedStore(db, companyId, buildingId, false);
  return storeProductViews(db, building);
}

/** The store product a shelf action changed (the API answers its view, storeProductView). */
export interface ShelfChanged {
  building_id: number;
  product_id: number;
}

/** A store product as the shelf actions answer it (GET /stores/{id}/products lists the same view). */
export async function storeProductView(db: DbExecutor, companyId: number, buildingId: number, productId: number): Promise<StoreProductView> {
  return oneStoreProduct(db, await ownedStore(db, companyId, buildingId, false), productId);
}

/**
 * A change of one column of shelf rows, set-based over the list: the companies, then the stores
 * locked; each request checked in order (the company's store, the product on its shelf); one update.
 */
function shelfAction<I extends { id: number; product_id: number }>(
  column: 'retail_price_cents' | 'is_active',
  value: (input: I) => number | boolean,
): PlayerAction<I, ShelfChanged> {
  return (db, requests) =>
    inTransaction(db, async (tx) => {
      const { buildings } = await lockBuildings(tx, requests);
      const rows = await tx.execute<{ building_id: number; product_id: number }>(sql`
        select building_id, product_id from store_products where building_id in ${idList(buildings.keys())}`);
      const onShelf = new Set(rows.map((row) => `${row.building_id}:${row.product_id}`));
      const changes = new Map<string, number | boolean>();
      const outcomes = requests.map((request): Outcome<ShelfChanged> => {
        const building = ownBuilding(buildings, request);
        if (building instanceof GameError) return refused(building);
        if (building.spec.category !== 'retail')
          return refused(new GameError('RULE_BROKEN', `Only stores sell products: this building is a ${building.spec.name}`));
        const key = `${building.id}:${request.input.product_id}`;
        if (!onShelf.has(key)) return refused(new GameError('NOT_FOUND', STORE_PRODUCT_NOT_FOUND));
        changes.set(key, value(request.input));
        return applied({ building_id: building.id, product_id: request.input.product_id });
      });
      if (changes.size > 0) {
        const cast = column === 'is_active' ? sql.raw('boolean') : sql.raw('bigint');
        const values = sql.join(
          [...changes].map(([key, v]) => {
            const [buildingId, productId] = key.split(':').map(Number);
            return sql`(${buildingId}::int, ${productId}::int, ${v}::${cast})`;
          }),
          sql`, `,
        );
        await tx.execute(sql`
          update store_products sp set ${sql.raw(column)} = v.value from (values ${values}) as v(building_id, product_id, value)
          where sp.building_id = v.building_id and sp.product_id = v.product_id`);
      }
      return outcomes;
    });
}

/** PUT /stores/{id}/products/{product_id}: a new retail price. */
export const updateStorePrice = shelfAction<{ id: number; product_id: number; retail_price: number }>('retail_price_cents', (input) =>
  dollarsToCents(input.retail_price),
);

/** PATCH /stores/{id}/products/{product_id}/toggle: on sale or not. */
export const toggleStoreProduct = shelfAction<{ id: number; product_id: number; is_active: boolean }>('is_active', (input) => input.is_active);

export interface RemoveStoreProductResult {
  building_id: number;
  product_id: number;
  /** Units returned to the store's back room at their cost price. */
  returned_to_back_room: number;
}

/** DELETE /stores/{id}/products/{product_id}: off the shelf; its stock returns to the back room at cost. */
async function removeStoreProductOne(db: DbExecutor, companyId: number, buildingId: number, productId: number): Promise<RemoveStoreProductResult> {
  return inTransaction(db, async (tx) => {
    const building = await ownedStore(tx, companyId, buildingId, true);
    const [removed] = await tx
      .delete(storeProducts)
      .where(and(eq(storeProducts.buildingId, building.id), eq(storeProducts.productId, productId)))
      .returning({ quantity: storeProducts.quantity, costPriceCents: storeProducts.costPriceCents });
    if (!removed) throw new GameError('NOT_FOUND', STORE_PRODUCT_NOT_FOUND);
    if (removed.quantity > 0) await addToBackRoom(tx, building.id, productId, removed.quantity, removed.costPriceCents);
    return { building_id: building.id, product_id: productId, returned_to_back_room: removed.quantity };
  });
}

/** DELETE /stores/{id}/products/{product_id}, the player action. */
export const removeStoreProduct: PlayerAction<{ id: number; product_id: number }, RemoveStoreProductResult> = oneByOne((db, { companyId, input }) =>
  removeStoreProductOne(db, companyId, input.id, input.product_id),
);
