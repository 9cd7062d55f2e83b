/**
 * The batch versions of the players' operations (db/src/game/batch.ts, used by the bots) do what
 * the single operations do: on two copies of the seeded world, the same orders placed as one batch
 * and one by one through marketTrade / purchaseForBuilding + transferToStore / hireEmployees leave
 * the same cash, ledger amounts, market flows, warehouses and shelves. A batch that would overdraw
 * or take more than is held changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { GameError } from '@marketcraft/shared';
import {
  hireBatch,
  hireEmployees,
  ledgerMismatches,
  marketTrade,
  placeOrderBatch,
  purchaseForBuilding,
  shelveBatch,
  transferToStore,
  type BatchOrder,
} from '../src/game/index.ts';
import type { DbExecutor } from '../src/client.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing/freshDatabase.ts';

async function ids(db: DbExecutor) {
  const companies = (await db.execute<{ id: number }>(sql`select id from companies where is_bot order by id limit 3`)).map((row) => Number(row.id));
  const product = async (name: string) => Number((await db.execute<{ id: number }>(sql`select id from products where name = ${name}`))[0]!.id);
  const [store] = await db.execute<{ id: number; company_id: number }>(sql`select id, company_id from buildings where type = 'store' order by id limit 1`);
  const [farm] = await db.execute<{ id: number; company_id: number }>(sql`select id, company_id from buildings where type = 'farm' order by id limit 1`);
  return {
    companies,
    wheat: await product('Wheat'),
    bread: await product('White Bread'),
    cola: await product('Cola'),
    store: { id: Number(store!.id), companyId: Number(store!.company_id) },
    farm: { id: Number(farm!.id), companyId: Number(farm!.company_id) },
  };
}

/** What the operations change, as plain rows. */
async function effects(db: DbExecutor) {
  const q = async (query: ReturnType<typeof sql>) => (await db.execute(query)).map((row) => ({ ...row }));
  return {
    cash: await q(sql`select id, cash_cents from companies order by id`),
    ledger: await q(sql`select company_id, type, reason, amount_cents, building_id, product_id from transactions order by company_id, reason, amount_cents`),
    flows: await q(sql`select week, product_id, units_bought, units_sold from market_activity order by 1, 2`),
    warehouse: await q(sql`select company_id, product_id, quantity from inventory_items order by 1, 2`),
    shelves: await q(sql`select building_id, product_id, quantity, retail_price_cents from store_products order by 1, 2`),
    staff: await q(sql`select id, employees from buildings order by id`),
  };
}

describe('batch operations', () => {
  let batched: TestDatabase;
  let single: TestDatabase;
  beforeAll(async () => {
    batched = await createTestDatabase();
    single = await createTestDatabase();
  });
  afterAll(async () => {
    await batched.drop();
    await single.drop();
  });

  it('a batch of orders, shelving and hires equals the same operations one by one', async () => {
    const world = await ids(batched.db);
    const [a, b, c] = world.companies as [number, number, number];
    // Both copies start with the same bread in company a's warehouse (bought one by one in both).
    for (const db of [batched.db, single.db]) await marketTrade(db, a, { productId: world.bread, quantity: 500, action: 'buy' });
    const orders: BatchOrder[] = [
      { companyId: a, productId: world.wheat, quantity: 300, action: 'buy', reason: 'market_buy' },
      { companyId: b, productId: world.wheat, quantity: 2_000, action: 'buy', reason: 'market_buy' },
      { companyId: a, productId: world.bread, quantity: 200, action: 'sell', reason: 'market_sell' },
      { companyId: world.store.companyId, productId: world.cola, quantity: 120, action: 'buy', reason: 'store_stock', buildingId: world.store.id, retailPriceCents: 250 },
      { companyId: c, productId: world.wheat, quantity: 50, action: 'buy', reason: 'market_buy' },
    ];
    await batched.db.transaction(async (tx) => {
      const result = await placeOrderBatch(tx, orders);
      expect(result.totalCents.every((total) => total > 0)).toBe(true);
      await hireBatch(tx, [{ companyId: world.farm.companyId, buildingId: world.farm.id, count: 4 }]);
    });
    await single.db.transaction(async (tx) => {
      for (const order of orders) {
        if (order.reason === 'store_stock') {
          await purchaseForBuilding(tx, order.companyId, order.buildingId!, { productId: order.productId, quantity: order.quantity });
          await transferToStore(tx, order.companyId, order.buildingId!, { productId: order.productId, quantity: order.quantity, retailPriceCents: order.retailPriceCents! });
        } else {
          await marketTrade(tx, order.companyId, { productId: order.productId, quantity: order.quantity, action: order.action });
        }
      }
      await hireEmployees(tx, world.farm.companyId, world.farm.id, 4);
    });
    expect(await effects(batched.db)).toEqual(await effects(single.db));
    expect(await ledgerMismatches(batched.db)).toEqual([]);
  });

  it('shelving from the warehouse equals transferToStore', async () => {
    const world = await ids(batched.db);
    const owner = world.store.companyId;
    for (const db of [batched.db, single.db]) await marketTrade(db, owner, { productId: world.bread, quantity: 80, action: 'buy' });
    await batched.db.transaction((tx) => shelveBatch(tx, [{ companyId: owner, storeId: world.store.id, productId: world.bread, quantity: 80, retailPriceCents: 6_000 }]));
    await transferToStore(single.db, owner, world.store.id, { productId: world.bread, quantity: 80, retailPriceCents: 6_000 });
    expect(await effects(batched.db)).toEqual(await effects(single.db));
  });

  it('a batch that would overdraw a company, or take more than it holds, or stock a store it does not own, changes nothing', async () => {
    const world = await ids(batched.db);
    const [a, b] = world.companies as [number, number];
    const before = await effects(batched.db);
    const refused = async (work: (tx: DbExecutor) => Promise<unknown>) => {
      const error = await batched.db.transaction(work).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(GameError);
      expect(await effects(batched.db)).toEqual(before);
    };
    // b buys a little, a buys far more wheat than its cash pays for: the whole batch is refused.
    await refused((tx) =>
      placeOrderBatch(tx, [
        { companyId: b, productId: world.wheat, quantity: 10, action: 'buy', reason: 'market_buy' },
        { companyId: a, productId: world.wheat, quantity: 400_000, action: 'buy', reason: 'market_buy' },
      ]),
    );
    await refused((tx) => placeOrderBatch(tx, [{ companyId: a, productId: world.cola, quantity: 1_000_000, action: 'sell', reason: 'market_sell' }]));
    await refused((tx) => shelveBatch(tx, [{ companyId: world.store.companyId, storeId: world.store.id, productId: world.cola, quantity: 999_999, retailPriceCents: 100 }]));
    const stranger = world.companies.find((id) => id !== world.store.companyId)!;
    await refused((tx) =>
      placeOrderBatch(tx, [{ companyId: stranger, productId: world.cola, quantity: 5, action: 'buy', reason: 'store_stock', buildingId: world.store.id, retailPriceCents: 250 }]),
    );
  });
});
