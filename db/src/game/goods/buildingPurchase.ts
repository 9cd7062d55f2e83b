/**
 * Buying goods for a building (POST /buildings/{id}/inventory/purchase): orders on the exchange
 * (walkOrders, the same market as every other purchase, in the list's order) into a store's back
 * room or, for a production building, the company warehouse (ledger purchase/store_stock or
 * purchase/raw_materials).
 */
import { GameError, centsToDollars, formatCents } from '@marketcraft/shared';
import { changeCashOfMany, type CashChange } from '../books/ledger.ts';
import { lockBuildings, ownBuilding, type LockedBuilding } from '../buildings/actions.ts';
import { Purses, applied, inTransaction, refused, type Outcome, type PlayerAction } from '../action.ts';
import { addedAtCost, backRoomRows, walkOrders, warehouseRows, writeBackRoomRows, writeWarehouseRows, type Held } from './orders.ts';

export interface BuildingPurchaseResult {
  building_id: number;
  /** 'store' = the store's back room; 'warehouse' = the company warehouse (production buildings). */
  destination: 'store' | 'warehouse';
  product_id: number;
  product_name: string;
  quantity: number;
  /** Average dollars per unit paid on the exchange (spread and price impact included). */
  unit_price: number;
  total_cost: number;
  /** Units now held at the destination and their average purchase price. */
  quantity_held: number;
  purchase_price: number;
  cash: number;
}

type PurchaseInput = { id: number; product_id: number; quantity: number };

/** POST /buildings/{id}/inventory/purchase, the player action: the companies, then the buildings locked, then the orders walked. */
export const purchaseForBuilding: PlayerAction<PurchaseInput, BuildingPurchaseResult> = (db, requests) =>
  inTransaction(db, async (tx) => {
    const { companies, buildings } = await lockBuildings(tx, requests);
    const productIds = requests.map((request) => request.input.product_id);
    const held = await warehouseRows(tx, companies.keys(), productIds);
    const backRooms = await backRoomRows(tx, buildings.keys(), productIds);
    const purses = new Purses(companies);
    const outcomes: (Outcome<BuildingPurchaseResult> | null)[] = [];
    const placed: { index: number; building: LockedBuilding }[] = [];
    requests.forEach((request, index) => {
      const building = ownBuilding(buildings, request);
      if (building instanceof GameError) outcomes.push(refused(building));
      else {
        placed.push({ index, building });
        outcomes.push(null);
      }
    });
    const isStore = (building: LockedBuilding) => building.spec.category === 'retail';
    const cashAfter = new Map<number, number>();
    const priced = await walkOrders(
      tx,
      companies,
      placed.map(({ index, building }) => {
        const { companyId, input } = requests[index]!;
        return { companyId, productId: input.product_id, quantity: input.quantity, action: 'buy' as const, intoWarehouse: !isStore(building) };
      }),
      held,
      (at, order) => {
        const { index } = placed[at]!;
        const companyId = requests[index]!.companyId;
        const refusal = purses.spend(companyId, order.totalCents);
        cashAfter.set(index, purses.of(companyId));
        return refusal;
      },
    );
    const changes: CashChange[] = [];
    priced.forEach((order, at) => {
      const { index, building } = placed[at]!;
      if (order instanceof GameError) {
        outcomes[index] = refused(order);
        return;
      }
      const { companyId, input } = requests[index]!;
      changes.push({
        companyId,
        amountCents: -order.totalCents,
        type: 'purchase',
        reason: isStore(building) ? 'store_stock' : 'raw_materials',
        description: `Bought ${input.quantity} ${order.productName} for the ${building.spec.name} in ${building.cityName} for ${formatCents(order.totalCents)} (${formatCents(order.unitCents)} each)`,
        ref: { buildingId: building.id, productId: input.product_id },
      });
      let now: Held;
      if (isStore(building)) {
        const key = `${building.id}:${input.product_id}`;
        now = addedAtCost(backRooms.get(key), input.quantity, order.unitCents);
        backRooms.set(key, now);
      } else {
        now = order.heldAfter;
      }
      outcomes[index] = applied({
        building_id: building.id,
        destination: isStore(building) ? 'store' : 'warehouse',
        product_id: input.product_id,
        product_name: order.productName,
        quantity: input.quantity,
        unit_price: centsToDollars(order.unitCents),
        total_cost: centsToDollars(order.totalCents),
        quantity_held: now.quantity,
        purchase_price: centsToDollars(now.averageCostCents),
        cash: centsToDollars(cashAfter.get(index)!),
      });
    });
    await changeCashOfMany(tx, changes);
    await writeWarehouseRows(tx, companies, held);
    await writeBackRoomRows(tx, buildings, backRooms);
    return outcomes as Outcome<BuildingPurchaseResult>[];
  });
