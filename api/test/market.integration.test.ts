import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { inventoryItems, ledgerMismatches, marketActivity, products, transactions, type Database } from '@marketcraft/db';
import { startTestApp, type TestApp } from './helpers/testApp.ts';
import { cashCentsOf, createProductionWorld, expectLedgerBalanced, type ProductionWorld } from './helpers/productionFixtures.ts';

describe('market trade and the company warehouse', () => {
  let app: TestApp;
  let db: Database;
  let world: ProductionWorld;
  beforeAll(async () => {
    app = await startTestApp();
    db = app.database.db;
    world = await createProductionWorld(db);
  });
  afterAll(async () => {
    expect(await ledgerMismatches(db)).toEqual([]);
    await app.close();
  });

  async function activity(productId: number) {
    const [row] = await db
      .select({ bought: marketActivity.unitsBought, sold: marketActivity.unitsSold })
      .from(marketActivity)
      .where(and(eq(marketActivity.week, 1), eq(marketActivity.productId, productId)));
    return row ?? { bought: 0, sold: 0 };
  }

  it('buys at the current price into the warehouse and sells at the current price less 5%', async () => {
    const player = await app.createPlayer({ cash: 10_000 });
    const before = await activity(world.flour.id);
    const buy = await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.flour.id, quantity: 100, action: 'buy' } });
    expect(buy.status).toBe(200);
    expect(buy.body).toEqual({
      action: 'buy',
      product_id: world.flour.id,
      product_name: world.flour.name,
      quantity: 100,
      unit_price: 5,
      total: 500,
      quantity_held: 100,
      cash: 9_500,
    });
    const sell = await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.flour.id, quantity: 40, action: 'sell' } });
    expect(sell.status).toBe(200);
    expect(sell.body).toMatchObject({ action: 'sell', quantity: 40, unit_price: 4.75, total: 190, quantity_held: 60, cash: 9_690 });
    expect(await cashCentsOf(db, player.companyId)).toBe(969_000);
    const ledger = await db
      .select({ type: transactions.type, reason: transactions.reason, amount: transactions.amountCents, description: transactions.description })
      .from(transactions)
      .where(eq(transactions.companyId, player.companyId));
    expect(ledger).toEqual([
      { type: 'purchase', reason: 'market_buy', amount: -50_000, description: `Bought 100 ${world.flour.name} on the market at $5.00 each` },
      { type: 'sale', reason: 'market_sell', amount: 19_000, description: `Sold 40 ${world.flour.name} on the market at $4.75 each` },
    ]);
    expect(await activity(world.flour.id)).toEqual({ bought: before.bought + 100, sold: before.sold + 40 });

    const inventory = await app.api('GET', '/inventory', { token: player.token });
    expect(inventory.status).toBe(200);
    expect(inventory.body).toEqual([
      { product_id: world.flour.id, product_name: world.flour.name, category: 'Processed Materials', quantity: 60, average_cost: 5, current_price: 5, value: 300 },
    ]);
    await expectLedgerBalanced(db, player.companyId);
  });

  it('keeps the weighted average cost across buys at different prices', async () => {
    const player = await app.createPlayer({ cash: 10_000 });
    await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.bread.id, quantity: 10, action: 'buy' } });
    await db.update(products).set({ currentPriceCents: 800 }).where(eq(products.id, world.bread.id));
    await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.bread.id, quantity: 30, action: 'buy' } });
    await db.update(products).set({ currentPriceCents: world.bread.priceCents }).where(eq(products.id, world.bread.id));
    const [held] = await db
      .select({ quantity: inventoryItems.quantity, average: inventoryItems.averageCostCents })
      .from(inventoryItems)
      .where(and(eq(inventoryItems.companyId, player.companyId), eq(inventoryItems.productId, world.bread.id)));
    expect(held).toEqual({ quantity: 40, average: 700 }); // (10 x 400 + 30 x 800) / 40
    await expectLedgerBalanced(db, player.companyId);
  });

  it('refuses selling more than held (409 with the count) and buying without the cash', async () => {
    const player = await app.createPlayer({ cash: 100 });
    await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.wheat.id, quantity: 3, action: 'buy' } });
    const oversell = await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.wheat.id, quantity: 4, action: 'sell' } });
    expect(oversell).toMatchObject({ status: 409, body: { error: `Not enough stock: you have 3 ${world.wheat.name}` } });
    const none = await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.bread.id, quantity: 1, action: 'sell' } });
    expect(none).toMatchObject({ status: 409, body: { error: `Not enough stock: you have 0 ${world.bread.name}` } });
    const overbuy = await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.flour.id, quantity: 100, action: 'buy' } });
    expect(overbuy).toMatchObject({ status: 409, body: { error: 'Not enough cash: this costs $500.00 and you have $94.00' } });
    expect(await cashCentsOf(db, player.companyId)).toBe(9_400);
    await expectLedgerBalanced(db, player.companyId);
  });

  it('validates the trade input (400), unknown products (404) and sessions (401)', async () => {
    const player = await app.createPlayer({ cash: 1_000 });
    for (const body of [
      { product_id: world.wheat.id, quantity: -1, action: 'buy' },
      { product_id: world.wheat.id, quantity: 0, action: 'buy' },
      { product_id: world.wheat.id, quantity: 1.5, action: 'buy' },
      { product_id: world.wheat.id, quantity: 'lots', action: 'buy' },
      { product_id: world.wheat.id, quantity: 1, action: 'steal' },
      { product_id: world.wheat.id, quantity: 1 },
      { product_id: 'wheat', quantity: 1, action: 'buy' },
      { product_id: 0, quantity: 1, action: 'buy' },
      { quantity: 1, action: 'buy' },
      [],
    ]) {
      const response = await app.api('POST', '/market/trade', { token: player.token, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(typeof response.body.error).toBe('string');
    }
    const unknown = await app.api('POST', '/market/trade', { token: player.token, body: { product_id: 999_999, quantity: 1, action: 'buy' } });
    expect(unknown).toMatchObject({ status: 404, body: { error: 'Product not found' } });
    expect((await app.api('POST', '/market/trade', { body: { product_id: world.wheat.id, quantity: 1, action: 'buy' } })).status).toBe(401);
    expect((await app.api('GET', '/inventory')).status).toBe(401);
    expect(await cashCentsOf(db, player.companyId)).toBe(100_000);
  });

  it('50 parallel buys that together cost more than the cash: cash stays >= 0 and only successes are ledgered', async () => {
    // $1,000 of cash, 50 buys of 30 flour at $5 ($150 each, $7,500 in all): exactly 6 fit.
    const player = await app.createPlayer({ cash: 1_000 });
    const before = await activity(world.flour.id);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.flour.id, quantity: 30, action: 'buy' } }),
      ),
    );
    const ok = responses.filter((response) => response.status === 200);
    expect(ok).toHaveLength(6);
    expect(responses.filter((response) => response.status === 409)).toHaveLength(44);
    expect(await cashCentsOf(db, player.companyId)).toBe(10_000);
    const ledger = await db
      .select({ amount: transactions.amountCents })
      .from(transactions)
      .where(and(eq(transactions.companyId, player.companyId), eq(transactions.reason, 'market_buy')));
    expect(ledger).toHaveLength(6);
    expect(ledger.reduce((sum, row) => sum + row.amount, 0)).toBe(10_000 - 100_000);
    const [held] = await db
      .select({ quantity: inventoryItems.quantity })
      .from(inventoryItems)
      .where(and(eq(inventoryItems.companyId, player.companyId), eq(inventoryItems.productId, world.flour.id)));
    expect(held?.quantity).toBe(180);
    expect((await activity(world.flour.id)).bought).toBe(before.bought + 180);
    await expectLedgerBalanced(db, player.companyId);
  });

  it('50 parallel sells never sell more than held', async () => {
    const player = await app.createPlayer({ cash: 1_000 });
    await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.wheat.id, quantity: 100, action: 'buy' } });
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.wheat.id, quantity: 9, action: 'sell' } }),
      ),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(11);
    const [held] = await db
      .select({ quantity: inventoryItems.quantity })
      .from(inventoryItems)
      .where(and(eq(inventoryItems.companyId, player.companyId), eq(inventoryItems.productId, world.wheat.id)));
    expect(held?.quantity).toBe(1);
    // 100 x $2.00 paid, 99 x $1.90 received.
    expect(await cashCentsOf(db, player.companyId)).toBe(100_000 - 20_000 + 99 * 190);
    await expectLedgerBalanced(db, player.companyId);
  });
});
