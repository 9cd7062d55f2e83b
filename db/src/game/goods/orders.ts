/**
 * A list's orders on the goods market (marketTrade's lists of many, every purchase for a building):
 * each product's orders walk its curve from this week's flow one after another, in the list's
 * order, priced by the market's rules (goodsBuyCostRule with the wholesale margin, and
 * marketSellProceedsRule: the rules marketTrade's one statement renders to SQL), and the week's
 * flow moves once per product for the orders that went through. A refused order moves nothing.
 *
 * The companies must be locked (lockCompanies); the products' flow rows of this week are locked
 * here, so the curve is not walked by anyone else meanwhile.
 */
import { sql } from 'drizzle-orm';
import { GameError, MAX_ORDER_VALUE_CENTS, goodsBuyCostRule, marketSellProceedsRule, orderWithinMarket, wholesaleMarginBp } from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { NO_COMPANY, idList, type LockedCompany } from '../action.ts';
import { worldProductsSql } from './prices.ts';
import { PRODUCT_NOT_FOUND } from './stock.ts';

interface ListOrder {
  companyId: number;
  productId: number;
  quantity: number;
  action: 'buy' | 'sell';
}

interface PricedOrder {
  productName: string;
  /** Cents paid (buy) or received (sell) for the whole order. */
  totalCents: number;
  /** totalCents / quantity, rounded to the cent. */
  unitCents: number;
}

/** An order the market took: its price and the company's units of the product in the warehouse after it. */
export interface WalkedOrder extends PricedOrder {
  heldAfter: Held;
}

interface Market {
  worldId: number;
  name: string;
  priceCents: number;
  depthUnits: number;
  marginBp: number;
  flow: number;
  bought: number;
  sold: number;
}

/** The refusal of an order beyond the market's reach (every goods order answers it). */
export function tooLargeForMarket(name: string): GameError {
  return new GameError('RULE_BROKEN', `That order is too large for the ${name} market: split it over several weeks`);
}

/** A company's warehouse row as a list changes it (quantity and average cost per unit). */
export interface Held {
  quantity: number;
  averageCostCents: number;
}

/** The companies' warehouse rows of these products, keyed `${companyId}:${productId}` (absent: none). */
export async function warehouseRows(db: DbExecutor, companyIds: Iterable<number>, productIds: Iterable<number>): Promise<Map<string, Held>> {
  const rows = await db.execute<{ company_id: number; product_id: number; quantity: number; average_cost_cents: number }>(sql`
    select company_id, product_id, quantity, average_cost_cents from inventory_items
    where company_id in ${idList(companyIds)} and product_id in ${idList(productIds)}`);
  return new Map(
    rows.map((row) => [`${row.company_id}:${row.product_id}`, { quantity: Number(row.quantity), averageCostCents: Number(row.average_cost_cents) }]),
  );
}

/** Units added at `unitCents` each: the weighted average cost, rounded as the warehouse upsert rounds it. */
export function addedAtCost(held: Held | undefined, quantity: number, unitCents: number): Held {
  const before = held ?? { quantity: 0, averageCostCents: 0 };
  const total = before.quantity + quantity;
  return {
    quantity: total,
    averageCostCents: total === 0 ? before.averageCostCents : Math.round((before.quantity * before.averageCostCents + quantity * unitCents) / total),
  };
}

/** Writes the warehouse rows a list left (absolute values: the companies' locks order every writer). */
export async function writeWarehouseRows(db: DbExecutor, companies: ReadonlyMap<number, LockedCompany>, rows: ReadonlyMap<string, Held>): Promise<void> {
  if (rows.size === 0) return;
  const values = sql.join(
    [...rows].map(([key, held]) => {
      const [companyId, productId] = key.split(':').map(Number) as [number, number];
      return sql`(${companies.get(companyId)!.worldId}::int, ${companyId}::int, ${productId}::int, ${held.quantity}::bigint, ${held.averageCostCents}::bigint)`;
    }),
    sql`, `,
  );
  await db.execute(sql`
    insert into inventory_items (world_id, company_id, product_id, quantity, average_cost_cents) values ${values}
    on conflict (world_id, company_id, product_id) do update set quantity = excluded.quantity, average_cost_cents = excluded.average_cost_cents`);
}

/** The back-room rows of these stores and products, keyed `${buildingId}:${productId}`. */
export async function backRoomRows(db: DbExecutor, buildingIds: Iterable<number>, productIds: Iterable<number>): Promise<Map<string, Held>> {
  const rows = await db.execute<{ building_id: number; product_id: number; quantity: number; purchase_price_cents: number }>(sql`
    select building_id, product_id, quantity, purchase_price_cents from building_inventory_items
    where building_id in ${idList(buildingIds)} and product_id in ${idList(productIds)}`);
  return new Map(
    rows.map((row) => [`${row.building_id}:${row.product_id}`, { quantity: Number(row.quantity), averageCostCents: Number(row.purchase_price_cents) }]),
  );
}

/** Writes the back-room rows a list left (absolute values, under the companies' locks). */
export async function writeBackRoomRows(db: DbExecutor, buildings: ReadonlyMap<number, { worldId: number }>, rows: ReadonlyMap<string, Held>): Promise<void> {
  if (rows.size === 0) return;
  const values = sql.join(
    [...rows].map(([key, held]) => {
      const [buildingId, productId] = key.split(':').map(Number) as [number, number];
      return sql`(${buildings.get(buildingId)!.worldId}::int, ${buildingId}::int, ${productId}::int, ${held.quantity}::bigint, ${held.averageCostCents}::bigint)`;
    }),
    sql`, `,
  );
  await db.execute(sql`
    insert into building_inventory_items (world_id, building_id, product_id, quantity, purchase_price_cents) values ${values}
    on conflict (world_id, building_id, product_id) do update set quantity = excluded.quantity, purchase_price_cents = excluded.purchase_price_cents`);
}

/**
 * Walks the orders in the list's order. `decide` is called for each order that the market takes (the
 * product exists, a sale's units are held (`held`, updated here for sales and, with `intoWarehouse`,
 * for purchases), the order fits the curve's reach): it answers the caller's refusal (cash) or null
 * to take it. Answers each order's price, or its refusal; then moves the week's flows.
 */
export async function walkOrders(
  db: DbExecutor,
  companies: ReadonlyMap<number, LockedCompany>,
  orders: readonly (ListOrder & { intoWarehouse: boolean })[],
  held: Map<string, Held>,
  decide: (index: number, priced: PricedOrder) => GameError | null,
): Promise<(WalkedOrder | GameError)[]> {
  const markets = new Map<string, Market>();
  const worldIds = new Set(orders.flatMap((order) => (companies.has(order.companyId) ? [companies.get(order.companyId)!.worldId] : [])));
  for (const worldId of worldIds) {
    const productIds = orders.filter((order) => companies.get(order.companyId)?.worldId === worldId).map((order) => order.productId);
    // The week's flow rows exist before they are locked: a row another order inserted and has not
    // committed yet was invisible to the lock below, and both orders were priced on the flow before
    // either (the second paid the unmoved price, and a replay, running them in commit order, did
    // not: docs/replay.md). Inserting waits for that order's commit, then the lock sees its flow.
    await db.execute(sql`
      insert into market_activity (world_id, week, product_id, units_bought, units_sold)
      select wp.world_id, w.current_week, wp.product_id, 0, 0
      from world_products wp join worlds w on w.id = wp.world_id
      where wp.world_id = ${worldId}::int and wp.product_id in ${idList(productIds)}
      order by wp.product_id
      on conflict (world_id, week, product_id) do nothing`);
    const rows = await db.execute<{ id: number; name: string; category: string; current_price_cents: number; depth_units: number; flow: number }>(sql`
      with locked as (
        select product_id, units_bought - units_sold as flow from market_activity
        where world_id = ${worldId}::int and week = (select current_week from worlds where id = ${worldId}::int) and product_id in ${idList(productIds)}
        order by product_id for update
      )
      select p.id, p.name, p.category, p.current_price_cents, p.depth_units, coalesce(l.flow, 0)::bigint as flow
      from ${worldProductsSql(worldId)} p left join locked l on l.product_id = p.id
      where p.id in ${idList(productIds)}`);
    for (const row of rows) {
      markets.set(`${worldId}:${row.id}`, {
        worldId,
        name: row.name,
        priceCents: Number(row.current_price_cents),
        depthUnits: Number(row.depth_units),
        marginBp: wholesaleMarginBp(row.category),
        flow: Number(row.flow),
        bought: 0,
        sold: 0,
      });
    }
  }
  const answers = orders.map((order, index): WalkedOrder | GameError => {
    const company = companies.get(order.companyId);
    if (!company) return new GameError('NOT_FOUND', NO_COMPANY);
    const market = markets.get(`${company.worldId}:${order.productId}`);
    if (!market) return new GameError('NOT_FOUND', PRODUCT_NOT_FOUND);
    const key = `${order.companyId}:${order.productId}`;
    const units = held.get(key)?.quantity ?? 0;
    if (order.action === 'sell' && units < order.quantity) return new GameError('NOT_ENOUGH_STOCK', `Not enough stock: you have ${units} ${market.name}`);
    const values = { price: market.priceCents, depth: market.depthUnits, flow: market.flow, quantity: order.quantity };
    if (!orderWithinMarket(values)) return tooLargeForMarket(market.name);
    const totalCents = order.action === 'buy' ? goodsBuyCostRule.evaluate({ ...values, marginBp: market.marginBp }) : marketSellProceedsRule.evaluate(values);
    if (!Number.isSafeInteger(totalCents) || totalCents > MAX_ORDER_VALUE_CENTS) return tooLargeForMarket(market.name);
    const priced = { productName: market.name, totalCents, unitCents: Math.round(totalCents / order.quantity) };
    const refusal = decide(index, priced);
    if (refusal) return refusal;
    if (order.action === 'buy') {
      market.flow += order.quantity;
      market.bought += order.quantity;
      if (order.intoWarehouse) held.set(key, addedAtCost(held.get(key), order.quantity, priced.unitCents));
    } else {
      market.flow -= order.quantity;
      market.sold += order.quantity;
      held.set(key, { ...held.get(key)!, quantity: units - order.quantity });
    }
    return { ...priced, heldAfter: held.get(key) ?? { quantity: 0, averageCostCents: 0 } };
  });
  const moved = [...markets].filter(([, market]) => market.bought > 0 || market.sold > 0);
  if (moved.length > 0) {
    const values = sql.join(
      moved.map(([key, market]) => sql`(${market.worldId}::int, ${Number(key.split(':')[1])}::int, ${market.bought}::bigint, ${market.sold}::bigint)`),
      sql`, `,
    );
    await db.execute(sql`
      insert into market_activity (world_id, week, product_id, units_bought, units_sold)
      select v.world_id, (select current_week from worlds w where w.id = v.world_id), v.product_id, v.bought, v.sold
      from (values ${values}) as v(world_id, product_id, bought, sold)
      on conflict (world_id, week, product_id) do update set
        units_bought = market_activity.units_bought + excluded.units_bought,
        units_sold = market_activity.units_sold + excluded.units_sold`);
  }
  return answers;
}
