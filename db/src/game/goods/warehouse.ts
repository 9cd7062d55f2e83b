/**
 * The company's goods wherever they are (GET /warehouse): the company warehouse (where production
 * puts its output and takes its inputs, and where market trades land), each store's back room and
 * each store's shelf; and moving goods between the warehouse and a store's back room
 * (POST /warehouse/move). Putting goods on a shelf is transferToStore (retail/shelving.ts); selling them
 * on the market is marketTrade (market.ts). docs/economy.md.
 *
 * Moves keep the weighted average cost per unit and change no cash (no ledger line). Quantities
 * change only through conditional updates, so concurrent requests never move more than there is.
 */
import { sql } from 'drizzle-orm';
import {
  BUILDING_TYPES,
  GameError,
  centsToDollars,
  isBuildingType,
  type ProductCategory,
  type BuildingRefView,
  type HoldingView,
  type HoldingsView,
  type EscrowedGoodsView,
  type WarehouseMoveView as MoveResult,
} from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { findOwnedBuilding } from '../buildings/buildings.ts';
import { PRODUCT_NOT_FOUND, addToBackRoom, addToWarehouse, takeFromWarehouse, warehouseQuantity } from './stock.ts';
import { goodsValueSql, holdingValueCentsSql, unitSellCentsSql, worldProductsSql } from './prices.ts';
import { companyWorld } from '../clock/state.ts';
import { inTransaction, oneByOne, type PlayerAction } from '../action.ts';

type HoldingLocation = 'warehouse' | 'back_room' | 'shelf';
/** Goods a company's open sell orders and contract offers hold, by product. */
async function listEscrowedGoods(db: DbExecutor, worldId: number, companyId: number): Promise<EscrowedGoodsView[]> {
  const rows = await db.execute<{
    product_id: number;
    product_name: string;
    quantity: number;
    average_cost_cents: number;
    held_by: 'sell_order' | 'contract';
    id: number;
  }>(sql`
    select o.product_id, p.name as product_name, o.escrow_units as quantity, o.escrow_cost_cents as average_cost_cents, 'sell_order' as held_by, o.id
    from exchange_orders o join products p on p.id = o.product_id
    where o.world_id = ${worldId} and o.company_id = ${companyId} and o.status in ('open', 'partially_filled') and o.escrow_units > 0
    union all
    select k.product_id, p.name, k.quantity, k.escrow_cost_cents, 'contract', k.id
    from contracts k join products p on p.id = k.product_id
    where k.world_id = ${worldId} and k.seller_company_id = ${companyId} and k.status = 'open'
    order by product_name, held_by, id`);
  return rows.map((row) => ({
    product_id: Number(row.product_id),
    product_name: row.product_name,
    quantity: Number(row.quantity),
    average_cost: centsToDollars(Number(row.average_cost_cents)),
    held_by: row.held_by,
    id: Number(row.id),
  }));
}

type HoldingRow = {
  product_id: number;
  product_name: string;
  category: ProductCategory;
  sell_cents: number;
  value_cents: number;
  location: HoldingLocation;
  building_id: number | null;
  building_type: string | null;
  city_name: string | null;
  quantity: number;
  average_cost_cents: number;
  retail_price_cents: number | null;
  is_active: boolean | null;
};

const typeName = (type: string | null) => (type && isBuildingType(type) ? BUILDING_TYPES[type].name : 'Building');

/** GET /warehouse: every good the company holds, by product and then warehouse, back rooms, shelves. */
export async function listHoldings(db: DbExecutor, companyId: number): Promise<HoldingsView> {
  const worldId = await companyWorld(db, companyId);
  const rows = await db.execute<HoldingRow>(sql`
    with held as (
      select i.product_id, 'warehouse'::text as location, null::int as building_id, i.quantity, i.average_cost_cents,
             null::bigint as retail_price_cents, null::boolean as is_active
      from inventory_items i where i.world_id = ${worldId} and i.company_id = ${companyId} and i.quantity > 0
      union all
      select bi.product_id, 'back_room', bi.building_id, bi.quantity, bi.purchase_price_cents, null, null
      from building_inventory_items bi join buildings b on b.world_id = bi.world_id and b.id = bi.building_id
      where bi.world_id = ${worldId} and b.company_id = ${companyId} and bi.quantity > 0
      union all
      select sp.product_id, 'shelf', sp.building_id, sp.quantity, sp.cost_price_cents, sp.retail_price_cents, sp.is_active
      from store_products sp join buildings b on b.world_id = sp.world_id and b.id = sp.building_id
      where sp.world_id = ${worldId} and b.company_id = ${companyId} and sp.quantity > 0
    )
    select h.product_id, p.name as product_name, p.category, ${unitSellCentsSql} as sell_cents,
           ${holdingValueCentsSql(sql`h.quantity`)} as value_cents, h.location, h.building_id,
           b.type as building_type, c.name as city_name, h.quantity, h.average_cost_cents, h.retail_price_cents, h.is_active
    from held h
    join ${worldProductsSql(worldId, { weekFlow: true })} p on p.id = h.product_id
    left join buildings b on b.world_id = ${worldId} and b.id = h.building_id
    left join cities c on c.id = b.city_id
    order by p.name, case h.location when 'warehouse' then 0 when 'back_room' then 1 else 2 end, h.building_id`);
  const users = await db.execute<{ product_id: number; building_id: number; building_type: string; city_name: string }>(sql`
    select distinct ri.product_id, b.id as building_id, b.type as building_type, c.name as city_name
    from buildings b
    join recipe_inputs ri on ri.recipe_id = b.selected_recipe_id
    join cities c on c.id = b.city_id
    where b.company_id = ${companyId}
    order by b.id`);
  const usedBy = new Map<number, BuildingRefView[]>();
  for (const user of users) {
    const list = usedBy.get(Number(user.product_id)) ?? [];
    list.push({ building_id: Number(user.building_id), building_name: typeName(user.building_type), city_name: user.city_name });
    usedBy.set(Number(user.product_id), list);
  }
  const items = rows.map((row): HoldingView => {
    const quantity = Number(row.quantity);
    const averageCents = Number(row.average_cost_cents);
    return {
      product_id: Number(row.product_id),
      product_name: row.product_name,
      category: row.category,
      location: row.location,
      store:
        row.building_id === null
          ? null
          : { building_id: Number(row.building_id), building_name: typeName(row.building_type), city_name: row.city_name ?? 'Unknown' },
      quantity,
      average_cost: centsToDollars(averageCents),
      cost_value: centsToDollars(averageCents * quantity),
      unit_value: centsToDollars(Number(row.sell_cents)),
      market_value: centsToDollars(Number(row.value_cents)),
      retail_price: row.retail_price_cents === null ? null : centsToDollars(Number(row.retail_price_cents)),
      is_active: row.is_active,
      used_by: usedBy.get(Number(row.product_id)) ?? [],
    };
  });
  // The total market value is what net worth counts for goods (valuation.ts): each product's whole
  // holding sold at once, which is less than selling each place's units separately.
  const [goods] = await db.execute<{ goods_cents: number }>(sql`select g.goods_cents from ${goodsValueSql({ worldId, companyIds: sql`(${companyId})` })} g`);
  return {
    items,
    totals: {
      units: items.reduce((sum, item) => sum + item.quantity, 0),
      cost_value: centsToDollars(items.reduce((sum, item) => sum + Math.round(item.cost_value * 100), 0)),
      market_value: centsToDollars(Number(goods?.goods_cents ?? 0)),
    },
    in_escrow: await listEscrowedGoods(db, worldId, companyId),
  };
}

export type MoveDirection = 'to_back_room' | 'to_warehouse';

/**
 * POST /warehouse/move: `quantity` units of a product from the company warehouse into a store's
 * back room, or back. 409 when the source holds fewer; 422 for a building that is not a store.
 */
async function moveGoodsOne(
  db: DbExecutor,
  companyId: number,
  input: { buildingId: number; productId: number; quantity: number; direction: MoveDirection },
): Promise<MoveResult> {
  return inTransaction(db, async (tx) => {
    // Lock order: the company row, the building row (findOwnedBuilding), then the stock rows (as transferToStore).
    const building = await findOwnedBuilding(tx, companyId, input.buildingId, { lock: true });
    if (building.spec.category !== 'retail') {
      throw new GameError('RULE_BROKEN', `Only stores have a back room: your ${building.spec.name} takes its inputs from the warehouse each turn`);
    }
    const [product] = await tx.execute<{ id: number; name: string }>(sql`select id, name from products where id = ${input.productId}`);
    if (!product) throw new GameError('NOT_FOUND', PRODUCT_NOT_FOUND);
    const backRoomQuantity = async () => {
      const [row] = await tx.execute<{ quantity: number }>(sql`
        select quantity from building_inventory_items where building_id = ${building.id} and product_id = ${product.id}`);
      return Number(row?.quantity ?? 0);
    };

    if (input.direction === 'to_back_room') {
      const taken = await takeFromWarehouse(tx, companyId, product.id, input.quantity);
      if (taken === null) {
        const held = await warehouseQuantity(tx, companyId, product.id);
        throw new GameError('NOT_ENOUGH_STOCK', `Not enough stock: your warehouse has ${held} ${product.name} and you asked to move ${input.quantity}`);
      }
      await addToBackRoom(tx, building.id, product.id, input.quantity, taken.averageCostCents);
    } else {
      const [taken] = await tx.execute<{ purchase_price_cents: number }>(sql`
        update building_inventory_items set quantity = quantity - ${input.quantity}
        where building_id = ${building.id} and product_id = ${product.id} and quantity >= ${input.quantity}
        returning purchase_price_cents`);
      if (!taken) {
        const held = await backRoomQuantity();
        throw new GameError(
          'NOT_ENOUGH_STOCK',
          `Not enough stock: the back room of your ${building.spec.name} in ${building.cityName} has ${held} ${product.name} and you asked to move ${input.quantity}`,
        );
      }
      await addToWarehouse(tx, companyId, product.id, input.quantity, Number(taken.purchase_price_cents));
    }
    return {
      building_id: building.id,
      product_id: Number(product.id),
      product_name: product.name,
      quantity: input.quantity,
      direction: input.direction,
      warehouse_quantity: await warehouseQuantity(tx, companyId, product.id),
      back_room_quantity: await backRoomQuantity(),
    };
  });
}

/** POST /warehouse/move, the player action. */
export const moveGoods: PlayerAction<{ building_id: number; product_id: number; quantity: number; direction: MoveDirection }, MoveResult> = oneByOne(
  (db, { companyId, input }) =>
    moveGoodsOne(db, companyId, { buildingId: input.building_id, productId: input.product_id, quantity: input.quantity, direction: input.direction }),
);
