/**
 * Buying goods for a building (POST /buildings/{id}/inventory/purchase): one order on the exchange
 * (placeOrder, the same market as every other purchase) into a store's back room or the company
 * warehouse.
 */
import { and, eq } from 'drizzle-orm';
import { GameError, centsToDollars, formatCents, type BuildingPurchaseResult } from '@marketcraft/shared';
import { buildingInventoryItems, inventoryItems, products } from '../../schema/index.ts';
import type { DbExecutor } from '../../client.ts';
import { changeCash } from '../books/ledger.ts';
import { findOwnedBuilding } from '../buildings/buildings.ts';
import { companyWorld } from '../worlds/state.ts';
import { placeOrder } from './market.ts';
import { PRODUCT_NOT_FOUND, addToBackRoom, addToWarehouse } from './stock.ts';


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
