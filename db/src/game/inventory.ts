/**
 * Inventory: the company warehouse (inventory_items), a store's back room
 * (building_inventory_items) and moving stock onto a store's shelf (store_products).
 * See docs/rules-production.md for the model.
 *
 * Quantities only change through conditional updates (`... where quantity >= n returning`) inside
 * one transaction, so concurrent requests can never take more than there is.
 */
import { and, asc, eq, gt, sql, type SQL } from 'drizzle-orm';
import {
  GameError,
  MAX_STORE_PRODUCTS,
  centsToDollars,
  formatCents,
  isConsumerGood,
  storeSellsConsumerGoodsOnly,
  type InventoryView,
  type BuildingInventoryView,
  type BuildingPurchaseResult,
  type TransferToStoreResult,
} from '@marketcraft/shared';
import { buildingInventoryItems, inventoryItems, products, storeProducts, worldProducts } from '../schema/index.ts';
import type { DbExecutor } from '../client.ts';
import { changeCash } from './ledger.ts';
import { findOwnedBuilding } from './buildings.ts';
import { placeOrder } from './market.ts';
import { companyWorld } from './world.ts';

/** The answer (422) when a store already sells MAX_STORE_PRODUCTS products and another is put on its shelf. */
export const STORE_SHELVES_FULL = `A store sells at most ${MAX_STORE_PRODUCTS} products: take one off the shelf first`;

export const PRODUCT_NOT_FOUND = 'Product not found';

/**
 * The warehouse upsert over `rows` (a select of world_id, company_id, product_id, quantity,
 * average_cost_cents): adds the units, keeping the weighted average cost per unit; returns quantity.
 */
export function warehouseUpsertSql(rows: SQL): SQL {
  return sql`
    insert into inventory_items (world_id, company_id, product_id, quantity, average_cost_cents)
    ${rows}
    on conflict (world_id, company_id, product_id) do update set
      average_cost_cents = round((inventory_items.quantity * inventory_items.average_cost_cents + excluded.quantity * excluded.average_cost_cents)::numeric
                                 / nullif(inventory_items.quantity + excluded.quantity, 0)),
      quantity = inventory_items.quantity + excluded.quantity
    returning quantity`;
}

/** Adds units to the company warehouse, keeping the weighted average cost per unit. */
export async function addToWarehouse(db: DbExecutor, companyId: number, productId: number, quantity: number, unitCostCents: number): Promise<number> {
  const [row] = await db.execute<{ quantity: number }>(
    warehouseUpsertSql(
      sql`select c.world_id, c.id, ${productId}::int, ${quantity}::bigint, ${unitCostCents}::bigint from companies c where c.id = ${companyId}`,
    ),
  );
  // The units now in the warehouse (callers answer it without asking again).
  return Number(row?.quantity ?? 0);
}

/** Adds units to a store's back room, keeping the weighted average purchase price per unit. */
export async function addToBackRoom(db: DbExecutor, buildingId: number, productId: number, quantity: number, unitCostCents: number): Promise<void> {
  await db.execute(sql`
    insert into building_inventory_items (world_id, building_id, product_id, quantity, purchase_price_cents)
    select b.world_id, b.id, ${productId}::int, ${quantity}::bigint, ${unitCostCents}::bigint from buildings b where b.id = ${buildingId}
    on conflict (world_id, building_id, product_id) do update set
      purchase_price_cents = round((building_inventory_items.quantity * building_inventory_items.purchase_price_cents
                                    + excluded.quantity * excluded.purchase_price_cents)::numeric
                                   / nullif(building_inventory_items.quantity + excluded.quantity, 0)),
      quantity = building_inventory_items.quantity + excluded.quantity`);
}

/**
 * Takes `quantity` units out of the company warehouse if it holds that many; returns the average
 * cost per unit of what was taken and the units left, or null (nothing changed) when it holds fewer.
 */
export async function takeFromWarehouse(
  db: DbExecutor,
  companyId: number,
  productId: number,
  quantity: number,
): Promise<{ averageCostCents: number; quantityLeft: number } | null> {
  const [row] = await db
    .update(inventoryItems)
    .set({ quantity: sql`${inventoryItems.quantity} - ${quantity}` })
    .where(and(eq(inventoryItems.companyId, companyId), eq(inventoryItems.productId, productId), sql`${inventoryItems.quantity} >= ${quantity}`))
    .returning({ averageCostCents: inventoryItems.averageCostCents, quantityLeft: inventoryItems.quantity });
  return row ?? null;
}

/** Units of a product in the company warehouse (0 if none). */
export async function warehouseQuantity(db: DbExecutor, companyId: number, productId: number): Promise<number> {
  const [row] = await db
    .select({ quantity: inventoryItems.quantity })
    .from(inventoryItems)
    .where(and(eq(inventoryItems.companyId, companyId), eq(inventoryItems.productId, productId)));
  return row?.quantity ?? 0;
}

// ---------------------------------------------------------------------------------------------
// GET /inventory (the company warehouse)

export async function listInventory(db: DbExecutor, companyId: number): Promise<InventoryView[]> {
  const rows = await db
    .select({
      productId: inventoryItems.productId,
      productName: products.name,
      category: products.category,
      quantity: inventoryItems.quantity,
      averageCostCents: inventoryItems.averageCostCents,
      currentPriceCents: worldProducts.currentPriceCents,
    })
    .from(inventoryItems)
    .innerJoin(products, eq(products.id, inventoryItems.productId))
    .innerJoin(worldProducts, and(eq(worldProducts.worldId, inventoryItems.worldId), eq(worldProducts.productId, inventoryItems.productId)))
    .where(and(eq(inventoryItems.companyId, companyId), gt(inventoryItems.quantity, 0)))
    .orderBy(asc(products.name));
  return rows.map((row) => ({
    product_id: row.productId,
    product_name: row.productName,
    category: row.category,
    quantity: row.quantity,
    average_cost: centsToDollars(row.averageCostCents),
    current_price: centsToDollars(row.currentPriceCents),
    value: centsToDollars(row.quantity * row.currentPriceCents),
  }));
}

// ---------------------------------------------------------------------------------------------
// GET /buildings/{id}/inventory

/**
 * A store's back room, or, for a production building, the warehouse items that are inputs of its
 * type's recipes (its raw materials).
 */
export async function listBuildingInventory(db: DbExecutor, companyId: number, buildingId: number): Promise<BuildingInventoryView[]> {
  const building = await findOwnedBuilding(db, companyId, buildingId);
  if (building.spec.category === 'retail') {
    const rows = await db
      .select({
        id: buildingInventoryItems.id,
        productId: buildingInventoryItems.productId,
        productName: products.name,
        category: products.category,
        quantity: buildingInventoryItems.quantity,
        purchasePriceCents: buildingInventoryItems.purchasePriceCents,
        inStore: sql<boolean>`exists (select 1 from ${storeProducts} where ${storeProducts.buildingId} = ${building.id} and ${storeProducts.productId} = ${buildingInventoryItems.productId})`,
      })
      .from(buildingInventoryItems)
      .innerJoin(products, eq(products.id, buildingInventoryItems.productId))
      .where(and(eq(buildingInventoryItems.buildingId, building.id), gt(buildingInventoryItems.quantity, 0)))
      .orderBy(asc(products.name));
    return rows.map((row) => ({
      id: row.id,
      product_id: row.productId,
      product_name: row.productName,
      category: row.category,
      quantity: row.quantity,
      purchase_price: centsToDollars(row.purchasePriceCents),
      in_store: row.inStore,
    }));
  }
  const rows = await db
    .select({
      productId: inventoryItems.productId,
      productName: products.name,
      category: products.category,
      quantity: inventoryItems.quantity,
      averageCostCents: inventoryItems.averageCostCents,
    })
    .from(inventoryItems)
    .innerJoin(products, eq(products.id, inventoryItems.productId))
    .where(
      and(
        eq(inventoryItems.companyId, companyId),
        gt(inventoryItems.quantity, 0),
        sql`${inventoryItems.productId} in (
          select ri.product_id from recipe_inputs ri join recipes r on r.id = ri.recipe_id
          where lower(r.building_type) = lower(${building.type}))`,
      ),
    )
    .orderBy(asc(products.name));
  return rows.map((row) => ({
    id: row.productId,
    product_id: row.productId,
    product_name: row.productName,
    category: row.category,
    quantity: row.quantity,
    purchase_price: centsToDollars(row.averageCostCents),
    in_store: false,
  }));
}

// ---------------------------------------------------------------------------------------------
// POST /buildings/{id}/inventory/purchase

/**
 * Buys `quantity` units on the exchange (placeOrder: the same market as every other purchase):
 * into the store's back room for a store, into the company warehouse for a production building
 * (ledger: purchase/store_stock or purchase/raw_materials).
 */
export async function purchaseForBuilding(
  db: DbExecutor,
  companyId: number,
  buildingId: number,
  input: { productId: number; quantity: number },
): Promise<BuildingPurchaseResult> {
  return db.transaction(async (tx) => {
    // Locks the company row, then the building's.
    const building = await findOwnedBuilding(tx, companyId, buildingId, { lock: true });
    const [product] = await tx.select({ id: products.id }).from(products).where(eq(products.id, input.productId));
    if (!product) throw new GameError('NOT_FOUND', PRODUCT_NOT_FOUND);
    const order = await placeOrder(tx, { worldId: await companyWorld(tx, companyId), productId: input.productId, quantity: input.quantity, action: 'buy' });
    const isStore = building.spec.category === 'retail';
    const cashCents = await changeCash(tx, {
      companyId,
      amountCents: -order.totalCents,
      type: 'purchase',
      reason: isStore ? 'store_stock' : 'raw_materials',
      description: `Bought ${order.quantity} ${order.productName} for the ${building.spec.name} in ${building.cityName} for ${formatCents(order.totalCents)} (${formatCents(order.unitCents)} each)`,
      ref: { buildingId: building.id, productId: order.productId },
    });
    let held: { quantity: number; unitCents: number } | undefined;
    if (isStore) {
      await addToBackRoom(tx, building.id, order.productId, order.quantity, order.unitCents);
      const [row] = await tx
        .select({ quantity: buildingInventoryItems.quantity, unitCents: buildingInventoryItems.purchasePriceCents })
        .from(buildingInventoryItems)
        .where(and(eq(buildingInventoryItems.buildingId, building.id), eq(buildingInventoryItems.productId, order.productId)));
      held = row;
    } else {
      await addToWarehouse(tx, companyId, order.productId, order.quantity, order.unitCents);
      const [row] = await tx
        .select({ quantity: inventoryItems.quantity, unitCents: inventoryItems.averageCostCents })
        .from(inventoryItems)
        .where(and(eq(inventoryItems.companyId, companyId), eq(inventoryItems.productId, order.productId)));
      held = row;
    }
    return {
      building_id: building.id,
      destination: isStore ? 'store' : 'warehouse',
      product_id: order.productId,
      product_name: order.productName,
      quantity: order.quantity,
      unit_price: centsToDollars(order.unitCents),
      total_cost: centsToDollars(order.totalCents),
      quantity_held: held?.quantity ?? order.quantity,
      purchase_price: centsToDollars(held?.unitCents ?? order.unitCents),
      cash: centsToDollars(cashCents),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// POST /buildings/{id}/inventory/transfer-to-store

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

