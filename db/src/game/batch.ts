/**
 * Batch versions of the players' operations, for callers that act for many companies at once (the
 * bots' phase of the turn, worker/src/bots). Each is the same rule as its single operation, written
 * set-based, and keeps every guarantee of it:
 * - cash moves through `batchCashChanges`: one conditional UPDATE per statement (a debit never takes
 *   cash below zero) and one ledger row per change, in the same transaction;
 * - goods move through conditional updates (`quantity >= n`), so nothing goes negative;
 * - every unit bought or sold goes through the one goods market (`goodsBuyCostRule`, with the wholesale margin of consumer goods, and
 *   `marketSellProceedsRule`, as `placeOrder`): orders of a product walk its curve one after another
 *   in the batch's order, from this week's flow, and move `market_activity` like single orders;
 * - a batch is all or nothing: any refusal (not enough cash or stock, a building that is not the
 *   company's store, an order too large for its market) throws a GameError, and the caller's
 *   savepoint rolls the whole batch back.
 * The company rows must be locked by the caller (the turn locks every active company first).
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  BUILDING_TYPES,
  DEFAULT_EMPLOYEES,
  GameError,
  INFLUENCE_POINTS_PER_UNIT,
  INFLUENCE_UNIT_COST,
  MAX_EQUIPMENT_LEVEL,
  MAX_HIRE_PER_ACTION,
  MAX_INFLUENCE_POINTS,
  MAX_ORDER_VALUE_CENTS,
  PRODUCT_CATEGORIES,
  discountedResearchCostCents,
  equipmentUpgradeCost,
  formatCents,
  hireCost,
  dollarsToCents,
  goodsBuyCostRule,
  marketSellProceedsRule,
  storeSellsConsumerGoodsOnly,
  type BuildingType,
  type ProductCategory,
  type TransactionType,
} from '@marketcraft/shared';
import type { DbExecutor } from '../client.ts';
import { ruleSql } from '../ruleSql.ts';
import { isConsumerGoodSql, wholesaleMarginBpSql, worldProductsSql } from './goods/prices.ts';
import type { LedgerRef } from './books/ledger.ts';

const n = (value: unknown): number => Number(value ?? 0);

/** Goods arriving on a shelf (as `transferToStore`): quantities add, the cost price is the weighted average, the new shelf price wins. */
const ONTO_SHELF = sql`
  on conflict (world_id, building_id, product_id) do update set
    cost_price_cents = round((store_products.quantity * store_products.cost_price_cents + excluded.quantity * excluded.cost_price_cents)::numeric
                             / (store_products.quantity + excluded.quantity)),
    quantity = store_products.quantity + excluded.quantity,
    retail_price_cents = excluded.retail_price_cents`;

/** One cash change of a batch (as `changeCash`'s input, never allowed to go negative). */
interface BatchCashChange {
  companyId: number;
  amountCents: number;
  type: TransactionType;
  reason: string;
  description: string;
  ref?: LedgerRef;
}

/**
 * Applies many cash changes in one statement: per company the changes' sum, conditionally (a
 * company whose cash would go below zero is not changed), and one ledger row per change for the
 * companies changed. Throws NOT_ENOUGH_CASH (nothing written) if any company would go below zero.
 * Returns each changed company's cash after.
 */
/**
 * The one world of a batch's companies (a batch never mixes worlds: the bots of one world's turn).
 * Every statement below then reads and writes that world's rows only.
 */
async function batchWorld(db: DbExecutor, companyIds: readonly number[]): Promise<number> {
  const ids = [...new Set(companyIds)];
  const rows = await db.execute<{ world_id: number }>(sql`
    select distinct world_id from companies where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
  if (rows.length !== 1) throw new GameError('RULE_BROKEN', 'A batch acts for the companies of one world');
  return n(rows[0]!.world_id);
}

async function batchCashChanges(db: DbExecutor, changes: readonly BatchCashChange[]): Promise<Map<number, number>> {
  if (changes.length === 0) return new Map();
  for (const change of changes) {
    if (!Number.isSafeInteger(change.amountCents)) throw new Error(`Invalid cash change: ${change.amountCents}`);
  }
  const rows = changes.map((change, seq) => ({
    seq,
    company_id: change.companyId,
    amount_cents: change.amountCents,
    type: change.type,
    reason: change.reason,
    description: change.description,
    building_id: change.ref?.buildingId ?? null,
    product_id: change.ref?.productId ?? null,
    counterparty_company_id: change.ref?.counterpartyCompanyId ?? null,
    country_id: change.ref?.countryId ?? null,
  }));
  const companies = new Set(changes.map((change) => change.companyId)).size;
  const result = await db.execute<{ company_id: number; cash_cents: number }>(sql`
    with change as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as c(
        seq int, company_id int, amount_cents bigint, type text, reason text, description text,
        building_id int, product_id int, counterparty_company_id int, country_id int)
    ), net as (
      select company_id, sum(amount_cents)::bigint as amount_cents from change group by company_id
    ), updated as (
      update companies c set cash_cents = c.cash_cents + net.amount_cents
      from net where c.id = net.company_id and (net.amount_cents >= 0 or c.cash_cents + net.amount_cents >= 0)
      returning c.world_id, c.id as company_id, c.cash_cents
    ), ledger as (
      -- Each row in its company's world, at that world's week.
      insert into transactions (world_id, company_id, type, reason, amount_cents, description, week,
                                building_id, product_id, counterparty_company_id, country_id)
      select updated.world_id, change.company_id, change.type, change.reason, change.amount_cents, change.description,
             (select current_week from worlds w where w.id = updated.world_id),
             change.building_id, change.product_id, change.counterparty_company_id, change.country_id
      from change join updated using (company_id) order by change.seq
    )
    select company_id, cash_cents from updated`);
  if (result.length !== companies) {
    const changed = new Set(result.map((row) => n(row.company_id)));
    const refused = [...new Set(changes.map((change) => change.companyId))].filter((id) => !changed.has(id));
    throw new GameError('NOT_ENOUGH_CASH', `Not enough cash for the batch of company ${refused.join(', ')}`);
  }
  return new Map(result.map((row) => [n(row.company_id), n(row.cash_cents)]));
}

/**
 * One order of a batch. Buys go to the company warehouse, or (`storeId`) straight onto the store's
 * shelf at `retailPriceCents` (what a Trade Hall purchase followed by a transfer to the shelf does);
 * sells come out of the company warehouse.
 */
export interface BatchOrder {
  companyId: number;
  productId: number;
  quantity: number;
  action: 'buy' | 'sell';
  /** Ledger reason: market_buy / market_sell (market trade), raw_materials (a building's inputs), store_stock (a store's stock). */
  reason: 'market_buy' | 'market_sell' | 'raw_materials' | 'store_stock';
  /** The building the purchase is for (raw_materials, store_stock). */
  buildingId?: number;
  /** store_stock: the shelf price the goods go on sale at. */
  retailPriceCents?: number;
}

export interface BatchOrderResult {
  /** Cents paid (buy) or received (sell), in the batch's order. */
  totalCents: number[];
  /** Cash after the batch, per company in it. */
  cashCents: Map<number, number>;
}

/**
 * Places many orders on the goods market at once, in the given order (the order in which they walk
 * each product's curve), moves the cash (ledger rows as `marketTrade` and `purchaseForBuilding`
 * write them) and the goods. A company's sales in the batch are counted before its purchases.
 */
export async function placeOrderBatch(db: DbExecutor, orders: readonly BatchOrder[]): Promise<BatchOrderResult> {
  if (orders.length === 0) return { totalCents: [], cashCents: new Map() };
  const rows = orders.map((order, seq) => {
    if (!Number.isSafeInteger(order.quantity) || order.quantity <= 0) throw new Error(`Invalid order quantity: ${order.quantity}`);
    if (order.reason === 'store_stock' && (order.buildingId === undefined || !order.retailPriceCents || order.retailPriceCents <= 0)) {
      throw new Error('A store_stock order needs its store and a positive shelf price');
    }
    return {
      seq,
      company_id: order.companyId,
      product_id: order.productId,
      quantity: order.quantity,
      signed: order.action === 'buy' ? order.quantity : -order.quantity,
      building_id: order.buildingId ?? null,
      to_shelf: order.reason === 'store_stock',
      retail_price_cents: order.retailPriceCents ?? null,
    };
  });
  const worldId = await batchWorld(db, orders.map((order) => order.companyId));
  const json = JSON.stringify(rows);
  const recordset = sql`jsonb_to_recordset(${json}::jsonb) as o(seq int, company_id int, product_id int, quantity bigint, signed bigint,
                                                                  building_id int, to_shelf boolean, retail_price_cents bigint)`;

  // 1. Sales: the goods leave the warehouse first (conditional: never more than held).
  const sales = new Set(orders.filter((order) => order.action === 'sell').map((order) => `${order.companyId}:${order.productId}`)).size;
  if (sales > 0) {
    const [taken] = await db.execute<{ taken: number }>(sql`
      with o as (select * from ${recordset}),
      sold as (select company_id, product_id, sum(quantity)::bigint as quantity from o where signed < 0 group by company_id, product_id),
      taken as (
        update inventory_items i set quantity = i.quantity - sold.quantity
        from sold where i.world_id = ${worldId}::int and i.company_id = sold.company_id and i.product_id = sold.product_id and i.quantity >= sold.quantity
        returning 1)
      select count(*)::int as taken from taken`);
    if (n(taken?.taken) !== sales) throw new GameError('NOT_ENOUGH_STOCK', 'Not enough stock for the batch of sales');
  }
  // Stores bought for must be the company's own stores.
  const storeOrders = orders.filter((order) => order.reason === 'store_stock').length;
  if (storeOrders > 0) {
    const [owned] = await db.execute<{ owned: number }>(sql`
      select count(*)::int as owned from ${recordset}
      join buildings b on b.world_id = ${worldId}::int and b.id = o.building_id and b.company_id = o.company_id and b.type = 'store'
      where o.to_shelf`);
    if (n(owned?.owned) !== storeOrders) throw new GameError('RULE_BROKEN', 'Only your own stores have a shelf');
    await refuseOtherThanConsumerGoods(db, sql`select o.product_id from ${recordset} where o.to_shelf`);
  }

  // 2. The market: each product's orders walk its curve from this week's flow, in batch order.
  const flowBefore = sql`(m.flow + coalesce(sum(o.signed) over (partition by o.product_id order by o.seq rows between unbounded preceding and 1 preceding), 0))`;
  const priced = await db.execute<{ seq: number; total_cents: number | null; name: string }>(sql`
    with o as (select * from ${recordset}),
    m as (
      select p.id as product_id, p.name, p.current_price_cents as price, p.depth_units as depth, ${wholesaleMarginBpSql(sql`p.category`)} as margin_bp,
             coalesce(ma.units_bought - ma.units_sold, 0)::bigint as flow
      from ${worldProductsSql(worldId)} p
      left join market_activity ma on ma.world_id = p.world_id and ma.product_id = p.id and ma.week = (select current_week from worlds where id = ${worldId}::int)
      where p.id in (select product_id from o)
    ), walked as (
      select o.seq, o.product_id, o.quantity, o.signed, m.name, m.price, m.depth, m.margin_bp, ${flowBefore}::bigint as flow_before
      from o join m on m.product_id = o.product_id
    ), moved as (
      insert into market_activity (world_id, week, product_id, units_bought, units_sold)
      select ${worldId}::int, (select current_week from worlds where id = ${worldId}::int), product_id,
             coalesce(sum(quantity) filter (where signed > 0), 0), coalesce(sum(quantity) filter (where signed < 0), 0)
      from o group by product_id
      on conflict (world_id, week, product_id) do update set
        units_bought = market_activity.units_bought + excluded.units_bought,
        units_sold = market_activity.units_sold + excluded.units_sold
      returning 1
    )
    select w.seq, w.name,
           case when abs(w.flow_before) + w.quantity > 10 * w.depth then null
                when w.signed > 0 then ${ruleSql(goodsBuyCostRule, { price: sql`w.price`, depth: sql`w.depth`, flow: sql`w.flow_before`, quantity: sql`w.quantity`, marginBp: sql`w.margin_bp` })}
                else ${ruleSql(marketSellProceedsRule, { price: sql`w.price`, depth: sql`w.depth`, flow: sql`w.flow_before`, quantity: sql`w.quantity` })}
           end as total_cents,
           (select count(*) from moved) as moved
    from walked w order by w.seq`);
  if (priced.length !== orders.length) throw new GameError('NOT_FOUND', 'A product of the batch does not exist');
  const totalCents: number[] = [];
  const names: string[] = [];
  for (const row of priced) {
    const total = row.total_cents === null ? null : n(row.total_cents);
    if (total === null || !Number.isSafeInteger(total) || total > MAX_ORDER_VALUE_CENTS) {
      throw new GameError('RULE_BROKEN', `That order is too large for the ${row.name} market: split it over several weeks`);
    }
    totalCents[n(row.seq)] = total;
    names[n(row.seq)] = row.name;
  }

  // 3. The cash, with the ledger rows the single operations write.
  const cityNames = new Map<number, string>();
  const buildingIds = [...new Set(orders.flatMap((order) => (order.buildingId === undefined ? [] : [order.buildingId])))];
  if (buildingIds.length > 0) {
    const buildingRows = await db.execute<{ id: number; label: string }>(sql`
      select b.id, bt.name || ' in ' || c.name as label from buildings b join building_types bt on bt.type = b.type join cities c on c.id = b.city_id
      where b.world_id = ${worldId}::int and b.id in (${sql.join(buildingIds.map((id) => sql`${id}`), sql`, `)})`);
    for (const row of buildingRows) cityNames.set(n(row.id), row.label);
  }
  const changes: BatchCashChange[] = orders.map((order, seq) => {
    const total = totalCents[seq]!;
    const each = formatCents(Math.round(total / order.quantity));
    const name = names[seq]!;
    if (order.action === 'sell') {
      return {
        companyId: order.companyId,
        amountCents: total,
        type: 'sale',
        reason: 'market_sell',
        description: `Sold ${order.quantity} ${name} on the market for ${formatCents(total)} (${each} each)`,
        ref: { productId: order.productId },
      };
    }
    const forBuilding = order.buildingId === undefined ? null : (cityNames.get(order.buildingId) ?? 'building');
    return {
      companyId: order.companyId,
      amountCents: -total,
      type: 'purchase',
      reason: order.reason,
      description:
        forBuilding === null
          ? `Bought ${order.quantity} ${name} on the market for ${formatCents(total)} (${each} each)`
          : `Bought ${order.quantity} ${name} for the ${forBuilding} for ${formatCents(total)} (${each} each)`,
      ref: order.buildingId === undefined ? { productId: order.productId } : { buildingId: order.buildingId, productId: order.productId },
    };
  });
  const cashCents = await batchCashChanges(db, changes);

  // 4. The goods bought: into the warehouse (weighted average cost) or onto the store's shelf.
  const delivered = orders.flatMap((order, seq) =>
    order.action === 'buy'
      ? [{ company_id: order.companyId, product_id: order.productId, quantity: order.quantity, cost_cents: totalCents[seq]!, building_id: order.reason === 'store_stock' ? order.buildingId! : null, retail_price_cents: order.retailPriceCents ?? null, seq }]
      : [],
  );
  if (delivered.length > 0) {
    await db.execute(sql`
      with d as (
        select * from jsonb_to_recordset(${JSON.stringify(delivered)}::jsonb) as d(
          company_id int, product_id int, quantity bigint, cost_cents bigint, building_id int, retail_price_cents bigint, seq int)
      ), warehouse as (
        insert into inventory_items (world_id, company_id, product_id, quantity, average_cost_cents)
        select ${worldId}::int, company_id, product_id, sum(quantity), round(sum(cost_cents)::numeric / sum(quantity))
        from d where building_id is null group by company_id, product_id
        on conflict (world_id, company_id, product_id) do update set
          average_cost_cents = round((inventory_items.quantity * inventory_items.average_cost_cents
                                      + excluded.quantity * excluded.average_cost_cents)::numeric
                                     / nullif(inventory_items.quantity + excluded.quantity, 0)),
          quantity = inventory_items.quantity + excluded.quantity
        returning 1
      ), shelf as (
        insert into store_products (world_id, building_id, product_id, quantity, retail_price_cents, cost_price_cents)
        select ${worldId}::int, building_id, product_id, sum(quantity), (array_agg(retail_price_cents order by seq desc))[1],
               round(sum(cost_cents)::numeric / sum(quantity))
        from d where building_id is not null group by building_id, product_id
        ${ONTO_SHELF}
        returning 1
      )
      select (select count(*) from warehouse) + (select count(*) from shelf) as rows`);
  }
  return { totalCents, cashCents };
}

/** A store shelves consumer goods only (as `transferToStore`): the first other product of the batch is refused. */
async function refuseOtherThanConsumerGoods(db: DbExecutor, productIds: SQL): Promise<void> {
  const [other] = await db.execute<{ name: string; category: string }>(sql`
    select p.name, p.category from products p where p.id in (${productIds}) and not ${isConsumerGoodSql(sql`p.category`)} order by p.id limit 1`);
  if (other) throw new GameError('RULE_BROKEN', storeSellsConsumerGoodsOnly(other.name, other.category));
}

/** One move of a batch from the company warehouse onto one of its store's shelves (as `transferToStore`). */
export interface BatchShelving {
  companyId: number;
  storeId: number;
  productId: number;
  quantity: number;
  retailPriceCents: number;
}

/**
 * Moves goods from the company warehouse onto its stores' shelves: conditionally (never more than
 * the warehouse holds), at the warehouse's average cost, the shelf price becoming the new one.
 */
export async function shelveBatch(db: DbExecutor, moves: readonly BatchShelving[]): Promise<void> {
  if (moves.length === 0) return;
  for (const move of moves) {
    if (!Number.isSafeInteger(move.quantity) || move.quantity <= 0 || !(move.retailPriceCents > 0)) throw new Error('Invalid shelving');
  }
  const json = JSON.stringify(
    moves.map((move, seq) => ({ seq, company_id: move.companyId, building_id: move.storeId, product_id: move.productId, quantity: move.quantity, retail_price_cents: move.retailPriceCents })),
  );
  const worldId = await batchWorld(db, moves.map((move) => move.companyId));
  const recordset = sql`jsonb_to_recordset(${json}::jsonb) as m(seq int, company_id int, building_id int, product_id int, quantity bigint, retail_price_cents bigint)`;
  const [owned] = await db.execute<{ owned: number }>(sql`
    select count(*)::int as owned from ${recordset} join buildings b on b.world_id = ${worldId}::int and b.id = m.building_id and b.company_id = m.company_id and b.type = 'store'`);
  if (n(owned?.owned) !== moves.length) throw new GameError('RULE_BROKEN', 'Only your own stores have a shelf');
  await refuseOtherThanConsumerGoods(db, sql`select m.product_id from ${recordset}`);
  const wanted = new Set(moves.map((move) => `${move.companyId}:${move.productId}`)).size;
  const [result] = await db.execute<{ taken: number; shelved: number }>(sql`
    with m as (select * from ${recordset}),
    wanted as (select company_id, product_id, sum(quantity)::bigint as quantity from m group by company_id, product_id),
    taken as (
      update inventory_items i set quantity = i.quantity - w.quantity
      from wanted w where i.world_id = ${worldId}::int and i.company_id = w.company_id and i.product_id = w.product_id and i.quantity >= w.quantity
      returning i.company_id, i.product_id, i.average_cost_cents
    ), shelved as (
      insert into store_products (world_id, building_id, product_id, quantity, retail_price_cents, cost_price_cents)
      select ${worldId}::int, m.building_id, m.product_id, sum(m.quantity), (array_agg(m.retail_price_cents order by m.seq desc))[1], min(t.average_cost_cents)
      from m join taken t on t.company_id = m.company_id and t.product_id = m.product_id
      group by m.building_id, m.product_id
      ${ONTO_SHELF}
      returning 1
    )
    select (select count(*) from taken)::int as taken, (select count(*) from shelved)::int as shelved`);
  if (n(result?.taken) !== wanted) throw new GameError('NOT_ENOUGH_STOCK', 'Not enough stock in the warehouse for the batch of shelving');
}

/** New shelf prices of products already on a company's store shelves (as `updateStorePrice`). */
export async function repriceBatch(db: DbExecutor, prices: readonly { companyId: number; storeId: number; productId: number; retailPriceCents: number }[]): Promise<void> {
  if (prices.length === 0) return;
  for (const price of prices) if (!Number.isSafeInteger(price.retailPriceCents) || price.retailPriceCents <= 0) throw new Error('Invalid shelf price');
  const worldId = await batchWorld(db, prices.map((price) => price.companyId));
  const json = JSON.stringify(prices.map((price) => ({ company_id: price.companyId, building_id: price.storeId, product_id: price.productId, retail_price_cents: price.retailPriceCents })));
  const updated = await db.execute(sql`
    update store_products sp set retail_price_cents = p.retail_price_cents
    from jsonb_to_recordset(${json}::jsonb) as p(company_id int, building_id int, product_id int, retail_price_cents bigint),
         buildings b
    where sp.world_id = ${worldId}::int and sp.building_id = p.building_id and sp.product_id = p.product_id
      and b.world_id = ${worldId}::int and b.id = p.building_id and b.company_id = p.company_id and b.type = 'store'
    returning sp.id`);
  if (updated.length !== prices.length) throw new GameError('NOT_FOUND', 'This product is not in this store');
}

/** Hires for many buildings at once (as `hireEmployees`: count x $5,000 each, ledger building/hire). */
export async function hireBatch(db: DbExecutor, hires: readonly { companyId: number; buildingId: number; count: number }[]): Promise<void> {
  if (hires.length === 0) return;
  const worldId = await batchWorld(db, hires.map((hire) => hire.companyId));
  const json = JSON.stringify(hires.map((hire) => ({ company_id: hire.companyId, building_id: hire.buildingId, count: hire.count })));
  const buildingsHired = await db.execute<{ id: number; company_id: number; count: number; label: string }>(sql`
    update buildings b set employees = b.employees + h.count
    from jsonb_to_recordset(${json}::jsonb) as h(company_id int, building_id int, count int), building_types bt, cities c
    where b.world_id = ${worldId}::int and b.id = h.building_id and b.company_id = h.company_id and bt.type = b.type and c.id = b.city_id
    returning b.id, b.company_id, h.count, bt.name || ' in ' || c.name as label`);
  if (buildingsHired.length !== hires.length) throw new GameError('NOT_FOUND', 'Building not found');
  await batchCashChanges(
    db,
    buildingsHired.map((row) => ({
      companyId: n(row.company_id),
      amountCents: -dollarsToCents(hireCost(n(row.count))),
      type: 'building' as const,
      reason: 'hire',
      description: `Hired ${n(row.count)} ${n(row.count) === 1 ? 'employee' : 'employees'} at the ${row.label}`,
      ref: { buildingId: n(row.id) },
    })),
  );
}

/**
 * Equipment upgrades for many buildings at once (as `upgradeEquipment`: the ladder's cost from the
 * level the caller saw, ledger building/equipment). A building no longer at that level, or not the
 * company's, refuses the batch.
 */
export async function upgradeEquipmentBatch(
  db: DbExecutor,
  upgrades: readonly { companyId: number; buildingId: number; fromLevel: number; targetLevel: number }[],
): Promise<void> {
  if (upgrades.length === 0) return;
  for (const upgrade of upgrades) {
    if (!(upgrade.targetLevel > upgrade.fromLevel && upgrade.targetLevel <= MAX_EQUIPMENT_LEVEL)) {
      throw new GameError('RULE_BROKEN', `Equipment is at level ${upgrade.fromLevel}: choose a level from ${upgrade.fromLevel + 1} to ${MAX_EQUIPMENT_LEVEL}`);
    }
  }
  const worldId = await batchWorld(db, upgrades.map((upgrade) => upgrade.companyId));
  const json = JSON.stringify(upgrades.map((u) => ({ company_id: u.companyId, building_id: u.buildingId, from_level: u.fromLevel, target_level: u.targetLevel })));
  const upgraded = await db.execute<{ id: number; company_id: number; from_level: number; target_level: number; label: string }>(sql`
    update buildings b set equipment_level = u.target_level
    from jsonb_to_recordset(${json}::jsonb) as u(company_id int, building_id int, from_level int, target_level int), building_types bt, cities c
    where b.world_id = ${worldId}::int and b.id = u.building_id and b.company_id = u.company_id and b.equipment_level = u.from_level and bt.type = b.type and c.id = b.city_id
    returning b.id, b.company_id, u.from_level, u.target_level, bt.name || ' in ' || c.name as label`);
  if (upgraded.length !== upgrades.length) throw new GameError('NOT_FOUND', 'Building not found at that equipment level');
  await batchCashChanges(
    db,
    upgraded.map((row) => ({
      companyId: n(row.company_id),
      amountCents: -dollarsToCents(equipmentUpgradeCost(n(row.from_level), n(row.target_level))),
      type: 'building' as const,
      reason: 'equipment',
      description: `Upgraded the ${row.label} to equipment level ${n(row.target_level)}`,
      ref: { buildingId: n(row.id) },
    })),
  );
}

/** Product categories for many stores at once (as `selectCategory`: stores only, the company's own). */
export async function selectCategoryBatch(db: DbExecutor, choices: readonly { companyId: number; storeId: number; category: ProductCategory }[]): Promise<void> {
  if (choices.length === 0) return;
  for (const choice of choices) if (!(PRODUCT_CATEGORIES as readonly string[]).includes(choice.category)) throw new GameError('INVALID_INPUT', 'Unknown category');
  const worldId = await batchWorld(db, choices.map((choice) => choice.companyId));
  const json = JSON.stringify(choices.map((choice) => ({ company_id: choice.companyId, building_id: choice.storeId, category: choice.category })));
  const updated = await db.execute(sql`
    update buildings b set selected_category = s.category
    from jsonb_to_recordset(${json}::jsonb) as s(company_id int, building_id int, category text)
    where b.world_id = ${worldId}::int and b.id = s.building_id and b.company_id = s.company_id and b.type = 'store'
    returning b.id`);
  if (updated.length !== choices.length) throw new GameError('RULE_BROKEN', 'Only stores choose a product category');
}

/**
 * New buildings for many companies at once, each with its recipe and first hires: what
 * `buildBuilding`, `selectRecipe` and `hireEmployees` do one after another (ledger building/build
 * and building/hire; a recipe must be one of the building type's; extraction buildings without one
 * get their type's first). Returns the new buildings' ids in the batch's order.
 */
export async function buildBatch(
  db: DbExecutor,
  builds: readonly { companyId: number; type: BuildingType; cityId: number; recipeId: number | null; hire: number }[],
): Promise<number[]> {
  if (builds.length === 0) return [];
  for (const build of builds) {
    if (!Object.hasOwn(BUILDING_TYPES, build.type)) throw new GameError('INVALID_INPUT', 'Unknown building type');
    if (!Number.isSafeInteger(build.hire) || build.hire < 0 || build.hire > MAX_HIRE_PER_ACTION) throw new GameError('INVALID_INPUT', 'Hire 1-10 employees at a time');
  }
  const worldId = await batchWorld(db, builds.map((build) => build.companyId));
  const json = JSON.stringify(
    builds.map((build, seq) => ({
      seq,
      company_id: build.companyId,
      type: build.type,
      city_id: build.cityId,
      recipe_id: build.recipeId,
      employees: DEFAULT_EMPLOYEES + build.hire,
      cost_cents: dollarsToCents(BUILDING_TYPES[build.type].constructionCost),
      extraction: BUILDING_TYPES[build.type].category === 'extraction',
    })),
  );
  const created = await db.execute<{ seq: number; id: number; city_name: string }>(sql`
    with b as (
      select *, nextval(pg_get_serial_sequence('buildings', 'id'))::int as new_id
      from jsonb_to_recordset(${json}::jsonb) as b(seq int, company_id int, type text, city_id int, recipe_id int, employees int, cost_cents bigint, extraction boolean)
    ), chosen as (
      select b.*, c.name as city_name,
             coalesce(b.recipe_id, case when b.extraction then (select min(r.id) from recipes r where lower(r.building_type) = b.type) end) as recipe
      from b join cities c on c.id = b.city_id join companies co on co.world_id = ${worldId}::int and co.id = b.company_id
    ), valid as (
      select * from chosen
      where recipe is null or exists (select 1 from recipes r where r.id = chosen.recipe and lower(r.building_type) = chosen.type)
    ), inserted as (
      insert into buildings (world_id, id, company_id, type, city_id, employees, selected_recipe_id, construction_cost_cents, built_week)
      overriding system value
      select ${worldId}::int, new_id, company_id, type, city_id, employees, recipe, cost_cents, (select current_week from worlds where id = ${worldId}::int) from valid
      returning id
    )
    select v.seq, v.new_id as id, v.city_name from valid v join inserted i on i.id = v.new_id order by v.seq`);
  if (created.length !== builds.length) throw new GameError('RULE_BROKEN', 'A building of the batch has no such city or recipe');
  const changes: BatchCashChange[] = [];
  for (const row of created) {
    const build = builds[n(row.seq)]!;
    const spec = BUILDING_TYPES[build.type];
    const ref = { buildingId: n(row.id) };
    changes.push({ companyId: build.companyId, amountCents: -dollarsToCents(spec.constructionCost), type: 'building', reason: 'build', description: `Built a ${spec.name} in ${row.city_name}`, ref });
    if (build.hire > 0) {
      changes.push({
        companyId: build.companyId,
        amountCents: -dollarsToCents(hireCost(build.hire)),
        type: 'building',
        reason: 'hire',
        description: `Hired ${build.hire} ${build.hire === 1 ? 'employee' : 'employees'} at the ${spec.name} in ${row.city_name}`,
        ref,
      });
    }
  }
  await batchCashChanges(db, changes);
  return created.map((row) => n(row.id));
}

/**
 * Political investments of many companies at once (as `investInPolitics`, backing lower taxes):
 * whole $1,000 units, 10 points each, never past the 1,000-point cap (ledger other/politics).
 */
export async function politicsBatch(db: DbExecutor, investments: readonly { companyId: number; countryId: number; amountDollars: number }[]): Promise<void> {
  if (investments.length === 0) return;
  const rows = investments.map((investment) => {
    const units = investment.amountDollars / INFLUENCE_UNIT_COST;
    if (!Number.isSafeInteger(units) || units <= 0) throw new GameError('INVALID_INPUT', `Amount must be a whole number of units of $${INFLUENCE_UNIT_COST}`);
    return { company_id: investment.companyId, country_id: investment.countryId, units, points: units * INFLUENCE_POINTS_PER_UNIT };
  });
  const worldId = await batchWorld(db, investments.map((investment) => investment.companyId));
  const recorded = await db.execute<{ company_id: number; country_id: number; units: number; country_name: string }>(sql`
    with i as (select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as i(company_id int, country_id int, units int, points int)),
    upserted as (
      insert into influence_records (world_id, company_id, country_id, influence_points, platform)
      select ${worldId}::int, i.company_id, i.country_id, i.points, 'lower_taxes' from i join countries c on c.id = i.country_id
      on conflict (world_id, company_id, country_id) do update
        set influence_points = influence_records.influence_points + excluded.influence_points, platform = excluded.platform
        where influence_records.influence_points + excluded.influence_points <= ${MAX_INFLUENCE_POINTS}
      returning company_id, country_id
    )
    select i.company_id, i.country_id, i.units, c.name as country_name
    from i join upserted u on u.company_id = i.company_id and u.country_id = i.country_id join countries c on c.id = i.country_id`);
  if (recorded.length !== investments.length) throw new GameError('RULE_BROKEN', `Influence is capped at ${MAX_INFLUENCE_POINTS} points`);
  await batchCashChanges(
    db,
    recorded.map((row) => ({
      companyId: n(row.company_id),
      amountCents: -dollarsToCents(n(row.units) * INFLUENCE_UNIT_COST),
      type: 'other' as const,
      reason: 'politics',
      description: `Political investment in ${row.country_name}: ${n(row.units)} ${n(row.units) === 1 ? 'unit' : 'units'} for lower taxes`,
      ref: { countryId: n(row.country_id) },
    })),
  );
}

/**
 * Research for many companies at once (as `purchaseResearch`): the upgrade's cost less the
 * company's research discount as the caller read it, its prerequisite researched first, never twice
 * (ledger other/research).
 */
export async function researchBatch(db: DbExecutor, purchases: readonly { companyId: number; upgradeId: number; discountPercent: number }[]): Promise<void> {
  if (purchases.length === 0) return;
  const worldId = await batchWorld(db, purchases.map((purchase) => purchase.companyId));
  const json = JSON.stringify(purchases.map((p) => ({ company_id: p.companyId, upgrade_id: p.upgradeId })));
  const inserted = await db.execute<{ company_id: number; upgrade_id: number; name: string; cost_cents: number }>(sql`
    with p as (select * from jsonb_to_recordset(${json}::jsonb) as p(company_id int, upgrade_id int)),
    allowed as (
      select p.company_id, u.id as upgrade_id, u.name, u.research_cost_cents as cost_cents
      from p join research_upgrades u on u.id = p.upgrade_id
      where u.prerequisite_id is null
         or exists (select 1 from company_research r where r.world_id = ${worldId}::int and r.company_id = p.company_id and r.upgrade_id = u.prerequisite_id)
    ), added as (
      insert into company_research (world_id, company_id, upgrade_id, researched_week)
      select ${worldId}::int, company_id, upgrade_id, (select current_week from worlds where id = ${worldId}::int) from allowed
      on conflict do nothing
      returning company_id, upgrade_id
    )
    select a.company_id, a.upgrade_id, a.name, a.cost_cents from allowed a join added using (company_id, upgrade_id)`);
  if (inserted.length !== purchases.length) throw new GameError('RULE_BROKEN', 'An upgrade of the batch is researched already or needs its prerequisite first');
  const discount = new Map(purchases.map((p) => [`${p.companyId}:${p.upgradeId}`, p.discountPercent]));
  await batchCashChanges(
    db,
    inserted.map((row) => ({
      companyId: n(row.company_id),
      amountCents: -discountedResearchCostCents(n(row.cost_cents), discount.get(`${n(row.company_id)}:${n(row.upgrade_id)}`) ?? 0),
      type: 'other' as const,
      reason: 'research',
      description: `Research: ${row.name}`,
    })),
  );
}
