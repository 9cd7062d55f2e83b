/**
 * Store shelves (store_products): list, reprice, toggle, remove. Shelf stock arrives through
 * transferToStore (retail/shelving.ts); removing a product returns its stock to the store's back room.
 */
import { and, asc, eq } from 'drizzle-orm';
import { GameError, centsToDollars, type RemoveStoreProductResult, type StoreProductView } from '@marketcraft/shared';
import { cityMarketData, products, storeProducts } from '../../schema/index.ts';
import type { DbExecutor } from '../../client.ts';
import { findOwnedBuilding, type OwnedBuilding } from '../buildings/buildings.ts';
import { addToBackRoom } from '../goods/stock.ts';

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
      marketPriceCents: cityMarketData.marketPriceCents,
      demandLevel: cityMarketData.demandLevel,
      unitsSoldLastTurn: storeProducts.unitsSoldLastTurn,
    })
    .from(storeProducts)
    .innerJoin(products, eq(products.id, storeProducts.productId))
    .leftJoin(
      cityMarketData,
      and(eq(cityMarketData.worldId, building.worldId), eq(cityMarketData.productId, storeProducts.productId), eq(cityMarketData.cityId, building.cityId)),
    )
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

/** PUT /stores/{id}/products/{product_id}: a new retail price. */
export async function updateStorePrice(db: DbExecutor, companyId: number, buildingId: number, productId: number, retailPriceCents: number): Promise<StoreProductView> {
  return db.transaction(async (tx) => {
    const building = await ownedStore(tx, companyId, buildingId, true);
    const updated = await tx
      .update(storeProducts)
      .set({ retailPriceCents })
      .where(and(eq(storeProducts.buildingId, building.id), eq(storeProducts.productId, productId)))
      .returning({ id: storeProducts.id });
    if (!updated.length) throw new GameError('NOT_FOUND', STORE_PRODUCT_NOT_FOUND);
    return oneStoreProduct(tx, building, productId);
  });
}

/** PATCH /stores/{id}/products/{product_id}/toggle: on sale or not. */
export async function toggleStoreProduct(db: DbExecutor, companyId: number, buildingId: number, productId: number, isActive: boolean): Promise<StoreProductView> {
  return db.transaction(async (tx) => {
    const building = await ownedStore(tx, companyId, buildingId, true);
    const updated = await tx
      .update(storeProducts)
      .set({ isActive })
      .where(and(eq(storeProducts.buildingId, building.id), eq(storeProducts.productId, productId)))
      .returning({ id: storeProducts.id });
    if (!updated.length) throw new GameError('NOT_FOUND', STORE_PRODUCT_NOT_FOUND);
    return oneStoreProduct(tx, building, productId);
  });
}

/** DELETE /stores/{id}/products/{product_id}: off the shelf; its stock returns to the back room at cost. */
export async function removeStoreProduct(db: DbExecutor, companyId: number, buildingId: number, productId: number): Promise<RemoveStoreProductResult> {
  return db.transaction(async (tx) => {
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
