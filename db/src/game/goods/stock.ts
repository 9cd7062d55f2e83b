/**
 * Stock: the company warehouse (inventory_items) and a store's back room (building_inventory_items):
 * the primitives every action that moves goods uses, and their two reads. Buying for a building is
 * buildingPurchase.ts, putting goods on a shelf retail/shelving.ts.
 * See docs/economy.md for the model.
 *
 * Quantities only change through conditional updates (`... where quantity >= n returning`) inside
 * one transaction, so concurrent requests can never take more than there is.
 */
import { and, asc, eq, gt, sql, type SQL } from 'drizzle-orm';
import { centsToDollars } from '@marketcraft/shared';
import { buildingInventoryItems, inventoryItems, products, storeProducts, worldProducts } from '../../schema/index.ts';
import type { DbExecutor } from '../../client.ts';
import { findOwnedBuilding } from '../buildings/buildings.ts';

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

export interface InventoryView {
  product_id: number;
  product_name: string;
  category: string;
  quantity: number;
  /** Average cost per unit, dollars. */
  average_cost: number;
  /** Current product price, dollars. */
  current_price: number;
  /** quantity x current price, dollars. */
  value: number;
}

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

export interface BuildingInventoryView {
  /** Back-room row id for a store; the product id for a production building's warehouse view. */
  id: number;
  product_id: number;
  product_name: string;
  category: string;
  quantity: number;
  /** Average purchase price per unit, dollars. */
  purchase_price: number;
  /** Stores: whether the product is also on the shelf. */
  in_store: boolean;
}

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
