/**
 * Putting goods on a store's shelf (POST /buildings/{id}/inventory/transfer-to-store): from the
 * store's back room first, then from the company warehouse. The shelf keeps a weighted average
 * cost price; the retail price becomes the new one.
 *
 * Set-based over the list (docs/actions.md): the companies, then the stores locked; each request
 * decided in the list's order on the stock and shelves the earlier ones left; the back rooms,
 * warehouses and shelves written once at the end (absolute values: every writer of those rows holds
 * the company's lock first).
 */
import { sql } from 'drizzle-orm';
import {
  GameError,
  MAX_STORE_PRODUCTS,
  centsToDollars,
  dollarsToCents,
  isConsumerGood,
  storeSellsConsumerGoodsOnly,
  type TransferToStoreInput,
} from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { applied, idList, inTransaction, refused, type Outcome, type PlayerAction } from '../action.ts';
import { lockBuildings, ownBuilding } from '../buildings/actions.ts';
import { backRoomRows, warehouseRows, writeBackRoomRows, writeWarehouseRows } from '../goods/orders.ts';
import { PRODUCT_NOT_FOUND } from '../goods/stock.ts';

/** The answer (422) when a store already sells MAX_STORE_PRODUCTS products and another is put on its shelf. */
const STORE_SHELVES_FULL = `A store sells at most ${MAX_STORE_PRODUCTS} products: take one off the shelf first`;

export interface TransferToStoreResult {
  building_id: number;
  product_id: number;
  product_name: string;
  quantity: number;
  from_back_room: number;
  from_warehouse: number;
  /** The shelf after the transfer. */
  shelf_quantity: number;
  retail_price: number;
  cost_price: number;
  is_active: boolean;
}

function notEnoughStockForShelf(productName: string, backRoom: number, warehouse: number, wanted: number): GameError {
  return new GameError(
    'NOT_ENOUGH_STOCK',
    `Not enough stock: you have ${backRoom + warehouse} ${productName} (${backRoom} in the store's back room, ${warehouse} in the warehouse) and asked to move ${wanted}`,
  );
}

interface Shelf {
  quantity: number;
  retailPriceCents: number;
  costPriceCents: number;
  isActive: boolean;
}

/** The stores' shelves, keyed `${buildingId}:${productId}`. */
async function shelves(db: DbExecutor, buildingIds: Iterable<number>): Promise<Map<string, Shelf>> {
  const rows = await db.execute<{
    building_id: number;
    product_id: number;
    quantity: number;
    retail_price_cents: number;
    cost_price_cents: number;
    is_active: boolean;
  }>(sql`
    select building_id, product_id, quantity, retail_price_cents, cost_price_cents, is_active from store_products where building_id in ${idList(buildingIds)}`);
  return new Map(
    rows.map((row) => [
      `${row.building_id}:${row.product_id}`,
      {
        quantity: Number(row.quantity),
        retailPriceCents: Number(row.retail_price_cents),
        costPriceCents: Number(row.cost_price_cents),
        isActive: row.is_active,
      },
    ]),
  );
}

/** POST /buildings/{id}/inventory/transfer-to-store, the player action. */
export const transferToStore: PlayerAction<TransferToStoreInput, TransferToStoreResult> = (db, requests) =>
  inTransaction(db, async (tx) => {
    const { companies, buildings } = await lockBuildings(tx, requests);
    const productIds = requests.map((request) => request.input.product_id);
    const productRows = await tx.execute<{ id: number; name: string; category: string }>(
      sql`select id, name, category from products where id in ${idList(productIds)}`,
    );
    const products = new Map(productRows.map((row) => [Number(row.id), row]));
    const warehouse = await warehouseRows(tx, companies.keys(), productIds);
    const backRooms = await backRoomRows(tx, buildings.keys(), productIds);
    const shelf = await shelves(tx, buildings.keys());
    const changedShelves = new Map<string, Shelf>();
    const outcomes = requests.map((request): Outcome<TransferToStoreResult> => {
      const { companyId, input } = request;
      const building = ownBuilding(buildings, request);
      if (building instanceof GameError) return refused(building);
      if (building.spec.category !== 'retail')
        return refused(new GameError('RULE_BROKEN', `Only stores have a shelf: this building is a ${building.spec.name}`));
      const product = products.get(input.product_id);
      if (!product) return refused(new GameError('NOT_FOUND', PRODUCT_NOT_FOUND));
      // Shoppers buy consumer goods: a store shelves nothing else (and the wholesale margin on buying
      // them on the exchange is then unavoidable for a reseller).
      if (!isConsumerGood(product.category)) return refused(new GameError('RULE_BROKEN', storeSellsConsumerGoodsOnly(product.name, product.category)));
      // A product not on the shelf needs a free place: MAX_STORE_PRODUCTS products with units on the
      // shelves at most (a sold-out or removed product frees its place).
      const shelfKey = `${building.id}:${product.id}`;
      const onShelf = [...shelf].filter(([key, row]) => key.startsWith(`${building.id}:`) && row.quantity > 0);
      if (!onShelf.some(([key]) => key === shelfKey) && onShelf.length >= MAX_STORE_PRODUCTS) return refused(new GameError('RULE_BROKEN', STORE_SHELVES_FULL));
      const backRoom = backRooms.get(shelfKey);
      const stockKey = `${companyId}:${product.id}`;
      const stored = warehouse.get(stockKey);
      const inBackRoom = backRoom?.quantity ?? 0;
      const inWarehouse = stored?.quantity ?? 0;
      if (input.quantity > inBackRoom + inWarehouse) return refused(notEnoughStockForShelf(product.name, inBackRoom, inWarehouse, input.quantity));

      const fromBackRoom = Math.min(input.quantity, inBackRoom);
      const fromWarehouse = input.quantity - fromBackRoom;
      let movedCostCents = 0;
      if (fromBackRoom > 0) {
        movedCostCents += fromBackRoom * backRoom!.averageCostCents;
        backRooms.set(shelfKey, { ...backRoom!, quantity: inBackRoom - fromBackRoom });
      }
      if (fromWarehouse > 0) {
        movedCostCents += fromWarehouse * stored!.averageCostCents;
        warehouse.set(stockKey, { ...stored!, quantity: inWarehouse - fromWarehouse });
      }
      const retailPriceCents = dollarsToCents(input.retail_price);
      const before = shelf.get(shelfKey);
      const after: Shelf = before
        ? {
            quantity: before.quantity + input.quantity,
            retailPriceCents,
            costPriceCents: Math.round((before.quantity * before.costPriceCents + movedCostCents) / (before.quantity + input.quantity)),
            isActive: before.isActive,
          }
        : { quantity: input.quantity, retailPriceCents, costPriceCents: Math.round(movedCostCents / input.quantity), isActive: true };
      shelf.set(shelfKey, after);
      changedShelves.set(shelfKey, after);
      return applied({
        building_id: building.id,
        product_id: product.id,
        product_name: product.name,
        quantity: input.quantity,
        from_back_room: fromBackRoom,
        from_warehouse: fromWarehouse,
        shelf_quantity: after.quantity,
        retail_price: centsToDollars(after.retailPriceCents),
        cost_price: centsToDollars(after.costPriceCents),
        is_active: after.isActive,
      });
    });
    await writeBackRoomRows(tx, buildings, backRooms);
    await writeWarehouseRows(tx, companies, warehouse);
    if (changedShelves.size > 0) {
      const values = sql.join(
        [...changedShelves].map(([key, row]) => {
          const [buildingId, productId] = key.split(':').map(Number) as [number, number];
          return sql`(${buildings.get(buildingId)!.worldId}::int, ${buildingId}::int, ${productId}::int, ${row.quantity}::bigint, ${row.retailPriceCents}::bigint, ${row.costPriceCents}::bigint)`;
        }),
        sql`, `,
      );
      await tx.execute(sql`
        insert into store_products (world_id, building_id, product_id, quantity, retail_price_cents, cost_price_cents) values ${values}
        on conflict (world_id, building_id, product_id) do update set
          quantity = excluded.quantity, retail_price_cents = excluded.retail_price_cents, cost_price_cents = excluded.cost_price_cents`);
    }
    return outcomes;
  });
