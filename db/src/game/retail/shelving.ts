/**
 * Putting goods on a store's shelf (POST /buildings/{id}/inventory/transfer-to-store): from the
 * store's back room first, then from the company warehouse.
 *
 * Quantities only change through conditional updates (`... where quantity >= n returning`) inside
 * one transaction, so concurrent requests can never take more than there is.
 */
import { and, eq, sql } from 'drizzle-orm';
import {
  GameError,
  MAX_STORE_PRODUCTS,
  centsToDollars,
  isConsumerGood,
  storeSellsConsumerGoodsOnly,
  type TransferToStoreResult,
} from '@marketcraft/shared';
import { buildingInventoryItems, products } from '../../schema/index.ts';
import type { DbExecutor } from '../../client.ts';
import { findOwnedBuilding } from '../buildings/buildings.ts';
import { PRODUCT_NOT_FOUND, takeFromWarehouse, warehouseQuantity } from '../goods/stock.ts';

/** The answer (422) when a store already sells MAX_STORE_PRODUCTS products and another is put on its shelf. */
const STORE_SHELVES_FULL = `A store sells at most ${MAX_STORE_PRODUCTS} products: take one off the shelf first`;


function notEnoughStockForShelf(productName: string, backRoom: number, warehouse: number, wanted: number): GameError {
  return new GameError(
    'NOT_ENOUGH_STOCK',
    `Not enough stock: you have ${backRoom + warehouse} ${productName} (${backRoom} in the store's back room, ${warehouse} in the warehouse) and asked to move ${wanted}`,
  );
}

/**
 * Moves units onto a store's shelf: from the store's back room first, then from the company
 * warehouse for the rest. The shelf keeps a weighted average cost price; the retail price becomes
 * the new one. Refused (409) when both together hold fewer than `quantity`.
 */
export async function transferToStore(
  db: DbExecutor,
  companyId: number,
  buildingId: number,
  input: { productId: number; quantity: number; retailPriceCents: number },
): Promise<TransferToStoreResult> {
  return db.transaction(async (tx) => {
    const building = await findOwnedBuilding(tx, companyId, buildingId, { lock: true });
    if (building.spec.category !== 'retail') {
      throw new GameError('RULE_BROKEN', `Only stores have a shelf: this building is a ${building.spec.name}`);
    }
    const [product] = await tx
      .select({ id: products.id, name: products.name, category: products.category })
      .from(products)
      .where(eq(products.id, input.productId));
    if (!product) throw new GameError('NOT_FOUND', PRODUCT_NOT_FOUND);
    // Shoppers buy consumer goods: a store shelves nothing else (and the wholesale margin on buying
    // them on the exchange is then unavoidable for a reseller).
    if (!isConsumerGood(product.category)) throw new GameError('RULE_BROKEN', storeSellsConsumerGoodsOnly(product.name, product.category));
    // A product not on the shelf needs a free place: MAX_STORE_PRODUCTS products with units on the
    // shelves at most (a sold-out or removed product frees its place; the store row's lock above
    // orders concurrent moves).
    const [places] = await tx.execute<{ products: number; on_shelf: boolean }>(sql`
      select count(*)::int as products, coalesce(bool_or(product_id = ${product.id}), false) as on_shelf
      from store_products where building_id = ${building.id} and quantity > 0`);
    if (!places?.on_shelf && Number(places?.products ?? 0) >= MAX_STORE_PRODUCTS) {
      throw new GameError('RULE_BROKEN', STORE_SHELVES_FULL);
    }

    const [backRoomRow] = await tx
      .select({ quantity: buildingInventoryItems.quantity, unitCents: buildingInventoryItems.purchasePriceCents })
      .from(buildingInventoryItems)
      .where(and(eq(buildingInventoryItems.buildingId, building.id), eq(buildingInventoryItems.productId, product.id)));
    const backRoom = backRoomRow?.quantity ?? 0;
    const warehouse = await warehouseQuantity(tx, companyId, product.id);
    if (input.quantity > backRoom + warehouse) throw notEnoughStockForShelf(product.name, backRoom, warehouse, input.quantity);

    const fromBackRoom = Math.min(input.quantity, backRoom);
    const fromWarehouse = input.quantity - fromBackRoom;
    let movedCostCents = 0;
    if (fromBackRoom > 0) {
      const [taken] = await tx
        .update(buildingInventoryItems)
        .set({ quantity: sql`${buildingInventoryItems.quantity} - ${fromBackRoom}` })
        .where(
          and(
            eq(buildingInventoryItems.buildingId, building.id),
            eq(buildingInventoryItems.productId, product.id),
            sql`${buildingInventoryItems.quantity} >= ${fromBackRoom}`,
          ),
        )
        .returning({ unitCents: buildingInventoryItems.purchasePriceCents });
      if (!taken) throw notEnoughStockForShelf(product.name, backRoom, warehouse, input.quantity);
      movedCostCents += fromBackRoom * taken.unitCents;
    }
    if (fromWarehouse > 0) {
      // The warehouse is shared with market trades and production: the conditional update decides.
      const taken = await takeFromWarehouse(tx, companyId, product.id, fromWarehouse);
      if (taken === null) {
        throw notEnoughStockForShelf(product.name, backRoom, await warehouseQuantity(tx, companyId, product.id), input.quantity);
      }
      movedCostCents += fromWarehouse * taken.averageCostCents;
    }
    const movedUnitCents = Math.round(movedCostCents / input.quantity);
    const [shelf] = await tx.execute<{ quantity: number; retail_price_cents: number; cost_price_cents: number; is_active: boolean }>(sql`
      insert into store_products (world_id, building_id, product_id, quantity, retail_price_cents, cost_price_cents)
      values (${building.worldId}, ${building.id}, ${product.id}, ${input.quantity}, ${input.retailPriceCents}, ${movedUnitCents})
      on conflict (world_id, building_id, product_id) do update set
        cost_price_cents = round((store_products.quantity * store_products.cost_price_cents + ${movedCostCents})::numeric
                                 / (store_products.quantity + excluded.quantity)),
        quantity = store_products.quantity + excluded.quantity,
        retail_price_cents = excluded.retail_price_cents
      returning quantity, retail_price_cents, cost_price_cents, is_active`);
    if (!shelf) throw new Error('store product upsert returned nothing');
    return {
      building_id: building.id,
      product_id: product.id,
      product_name: product.name,
      quantity: input.quantity,
      from_back_room: fromBackRoom,
      from_warehouse: fromWarehouse,
      shelf_quantity: Number(shelf.quantity),
      retail_price: centsToDollars(Number(shelf.retail_price_cents)),
      cost_price: centsToDollars(Number(shelf.cost_price_cents)),
      is_active: shelf.is_active,
    };
  });
}
