import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { inventoryItems, ledgerMismatches, marketActivity, transactions, worldProducts, type Database, act, actTogether } from '@marketcraft/db';
import { untilAStatementWaitsForALock } from './helpers/lockWaits.ts';
import { startTestApp, type TestApp } from './helpers/testApp.ts';
import { formatCents } from '@marketcraft/shared';
import { cashCentsOf, createProductionWorld, exchangeCents, expectLedgerBalanced, marketFlow, type ProductionWorld } from './helpers/productionFixtures.ts';

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

  it("buys and sells on the exchange: the order walks the price curve and pays the spread, ledgered, and moves this week's flow", async () => {
    const player = await app.createPlayer({ cash: 10_000 });
    const before = await activity(world.flour.id);
    const flow = await marketFlow(db, world.flour.id);
    const buyCents = exchangeCents(world.flour, flow, 100, 'buy');
    // 100 units on a depth of 2,000: the curve rises ~5% over the order, plus the 2.5% half-spread.
    expect(buyCents).toBeGreaterThan(100 * world.flour.priceCents * 1.025);
    expect(buyCents).toBeLessThan(100 * world.flour.priceCents * 1.06);
    const buy = await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.flour.id, quantity: 100, action: 'buy' } });
    expect(buy.status).toBe(200);
    expect(buy.body).toEqual({
      action: 'buy',
      product_id: world.flour.id,
      product_name: world.flour.name,
      quantity: 100,
      unit_price: Math.round(buyCents / 100) / 100,
      total: buyCents / 100,
      quantity_held: 100,
      cash: (1_000_000 - buyCents) / 100,
    });
    const sellCents = exchangeCents(world.flour, flow + 100, 40, 'sell');
    const sell = await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.flour.id, quantity: 40, action: 'sell' } });
    expect(sell.status).toBe(200);
    expect(sell.body).toMatchObject({ action: 'sell', quantity: 40, total: sellCents / 100, quantity_held: 60 });
    expect(await cashCentsOf(db, player.companyId)).toBe(1_000_000 - buyCents + sellCents);
    const ledger = await db
      .select({ type: transactions.type, reason: transactions.reason, amount: transactions.amountCents })
      .from(transactions)
      .where(eq(transactions.companyId, player.companyId));
    expect(ledger).toEqual([
      { type: 'purchase', reason: 'market_buy', amount: -buyCents },
      { type: 'sale', reason: 'market_sell', amount: sellCents },
    ]);
    expect(await activity(world.flour.id)).toEqual({ bought: before.bought + 100, sold: before.sold + 40 });

    const inventory = await app.api('GET', '/inventory', { token: player.token });
    expect(inventory.status).toBe(200);
    expect(inventory.body).toMatchObject([{ product_id: world.flour.id, quantity: 60, average_cost: Math.round(buyCents / 100) / 100 }]);
    await expectLedgerBalanced(db, player.companyId);
  });

  it('never pays for a round trip: buying and selling back the same units loses the spread, and a large order costs more per unit than a small one', async () => {
    const player = await app.createPlayer({ cash: 100_000 });
    const small = await app.api('GET', `/market/quote?product_id=${world.bread.id}&quantity=10&action=buy`, { token: player.token });
    const large = await app.api('GET', `/market/quote?product_id=${world.bread.id}&quantity=2000&action=buy`, { token: player.token });
    expect(small.status).toBe(200);
    expect(large.body.unit_price).toBeGreaterThan(small.body.unit_price * 1.3);
    expect(large.body.price_after).toBeGreaterThan(large.body.price_before * 2.5);
    expect(large.body.why.formula).toContain('e^(');
    // The quote's why speaks the unit of its values: the price in dollars, the cost rounded up to the cent.
    expect(large.body.why.formula).toMatch(/^ceil\(price x depth x .*, 2\)$/);
    expect(large.body.why.terms.map((term: { name: string; unit: string }) => [term.name, term.unit])).toEqual([
      ['price', 'dollars'],
      ['depth', 'units'],
      ['flow', 'units'],
      ['quantity', 'units'],
      ['margin_bp', 'count'],
    ]);
    const buy = await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.bread.id, quantity: 500, action: 'buy' } });
    const sell = await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.bread.id, quantity: 500, action: 'sell' } });
    expect(buy.status).toBe(200);
    expect(sell.status).toBe(200);
    // Back on the same stretch of the curve: what comes back is the cost x (1 - 2.5%) / (1 + 2.5%), rounded against the trader.
    expect(sell.body.total).toBeLessThanOrEqual(Math.floor((buy.body.total * 100 * 9_750) / 10_250) / 100 + 0.01);
    expect(await cashCentsOf(db, player.companyId)).toBeLessThan(10_000_000);
    await expectLedgerBalanced(db, player.companyId);
  });

  it('keeps the weighted average cost across buys at different prices', async () => {
    const player = await app.createPlayer({ cash: 10_000 });
    const first = await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.bread.id, quantity: 10, action: 'buy' } });
    await db
      .update(worldProducts)
      .set({ currentPriceCents: 800 })
      .where(and(eq(worldProducts.worldId, 1), eq(worldProducts.productId, world.bread.id)));
    const second = await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.bread.id, quantity: 30, action: 'buy' } });
    await db
      .update(worldProducts)
      .set({ currentPriceCents: world.bread.priceCents })
      .where(and(eq(worldProducts.worldId, 1), eq(worldProducts.productId, world.bread.id)));
    const [held] = await db
      .select({ quantity: inventoryItems.quantity, average: inventoryItems.averageCostCents })
      .from(inventoryItems)
      .where(and(eq(inventoryItems.companyId, player.companyId), eq(inventoryItems.productId, world.bread.id)));
    const firstUnit = Math.round((first.body.total * 100) / 10);
    const secondUnit = Math.round((second.body.total * 100) / 30);
    expect(held).toEqual({ quantity: 40, average: Math.round((10 * firstUnit + 30 * secondUnit) / 40) });
    await expectLedgerBalanced(db, player.companyId);
  });

  it('refuses selling more than held (409 with the count) and buying without the cash, and an order too large for the market', async () => {
    const player = await app.createPlayer({ cash: 100 });
    await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.wheat.id, quantity: 3, action: 'buy' } });
    const afterBuy = await cashCentsOf(db, player.companyId);
    const oversell = await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.wheat.id, quantity: 4, action: 'sell' } });
    expect(oversell).toMatchObject({ status: 409, body: { error: `Not enough stock: you have 3 ${world.wheat.name}` } });
    const none = await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.bread.id, quantity: 1, action: 'sell' } });
    expect(none).toMatchObject({ status: 409, body: { error: `Not enough stock: you have 0 ${world.bread.name}` } });
    const flow = await marketFlow(db, world.flour.id);
    const cost = exchangeCents(world.flour, flow, 100, 'buy');
    const overbuy = await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.flour.id, quantity: 100, action: 'buy' } });
    expect(overbuy).toMatchObject({ status: 409, body: { error: `Not enough cash: this costs ${formatCents(cost)} and you have ${formatCents(afterBuy)}` } });
    expect(await marketFlow(db, world.flour.id)).toBe(flow); // the refused order did not move the market
    const huge = await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.flour.id, quantity: 1_000_000, action: 'buy' } });
    expect(huge).toMatchObject({ status: 422, body: { error: expect.stringContaining('too large') } });
    expect(await marketFlow(db, world.flour.id)).toBe(flow); // nor did the one too large
    expect(await cashCentsOf(db, player.companyId)).toBe(afterBuy);
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
    const unknownSale = await app.api('POST', '/market/trade', { token: player.token, body: { product_id: 999_999, quantity: 1, action: 'sell' } });
    expect(unknownSale).toMatchObject({ status: 404, body: { error: 'Product not found' } });
    // The order is placed in the statement that finds the product: an unknown one writes no flow row.
    expect(await db.select().from(marketActivity).where(eq(marketActivity.productId, 999_999))).toEqual([]);
    expect((await app.api('POST', '/market/trade', { body: { product_id: world.wheat.id, quantity: 1, action: 'buy' } })).status).toBe(401);
    expect((await app.api('GET', '/inventory')).status).toBe(401);
    expect(await cashCentsOf(db, player.companyId)).toBe(100_000);
  });

  it('50 parallel buys that together cost more than the cash: cash stays >= 0, each success walks the curve once, only successes are ledgered', async () => {
    const player = await app.createPlayer({ cash: 1_000 });
    const before = await activity(world.flour.id);
    const flow = await marketFlow(db, world.flour.id);
    // The orders run one after another on the product's flow row: the k-th success costs the curve from flow + 30 (k - 1).
    let fits = 0;
    let spent = 0;
    while (spent + exchangeCents(world.flour, flow + 30 * fits, 30, 'buy') <= 100_000) {
      spent += exchangeCents(world.flour, flow + 30 * fits, 30, 'buy');
      fits += 1;
    }
    expect(fits).toBeGreaterThan(2);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.flour.id, quantity: 30, action: 'buy' } }),
      ),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(fits);
    expect(responses.filter((response) => response.status === 409)).toHaveLength(50 - fits);
    expect(await cashCentsOf(db, player.companyId)).toBe(100_000 - spent);
    const ledger = await db
      .select({ amount: transactions.amountCents })
      .from(transactions)
      .where(and(eq(transactions.companyId, player.companyId), eq(transactions.reason, 'market_buy')));
    expect(ledger).toHaveLength(fits);
    const [held] = await db
      .select({ quantity: inventoryItems.quantity })
      .from(inventoryItems)
      .where(and(eq(inventoryItems.companyId, player.companyId), eq(inventoryItems.productId, world.flour.id)));
    expect(held?.quantity).toBe(30 * fits);
    expect((await activity(world.flour.id)).bought).toBe(before.bought + 30 * fits);
    await expectLedgerBalanced(db, player.companyId);
  });

  it('trades sent while another runs go together: one commit for the batch, each priced as if one after the other in the log, a refusal only its own', async () => {
    const players = await Promise.all(Array.from({ length: 12 }, (_, index) => app.createPlayer({ cash: index === 5 ? 1 : 10_000 })));
    const flow = await marketFlow(db, world.flour.id);
    // Sent without waiting: the first runs alone, the eleven others queue behind it and go as one batch.
    const answers = await Promise.allSettled(
      players.map((player) =>
        actTogether(db, 'marketTrade', 1, {
          companyId: player.companyId,
          actingUserId: player.userId,
          input: { product_id: world.flour.id, quantity: 20, action: 'buy' },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(players.map((_, index) => (index === 5 ? 'rejected' : 'fulfilled')));
    expect((answers[5] as PromiseRejectedResult).reason.message).toMatch(/cash/i);
    // The log: one entry per request, in two transactions (the first alone, then the batch).
    const logged = await db.execute<{ company_id: number; outcome: { applied: boolean }; tx: string }>(sql`
      select company_id, outcome, xmin::text as tx from world_actions
      where action = 'marketTrade' and company_id in ${sql.raw(`(${players.map((player) => player.companyId).join(',')})`)} order by seq`);
    expect(logged.map((row) => Number(row.company_id))).toEqual(players.map((player) => player.companyId));
    expect(new Set(logged.map((row) => row.tx)).size).toBe(2);
    // Priced along the curve in the log's order, as one trade after another.
    let moved = flow;
    for (const [index, answer] of answers.entries()) {
      if (answer.status !== 'fulfilled') continue;
      const cents = exchangeCents(world.flour, moved, 20, 'buy');
      expect(answer.value).toMatchObject({ quantity: 20, total: cents / 100, quantity_held: 20, cash: (1_000_000 - cents) / 100 });
      expect(await cashCentsOf(db, players[index]!.companyId)).toBe(1_000_000 - cents);
      moved += 20;
    }
    expect(await marketFlow(db, world.flour.id)).toBe(flow + 11 * 20);
    for (const player of players) await expectLedgerBalanced(db, player.companyId);
  });

  it('50 parallel sells never sell more than held', async () => {
    const player = await app.createPlayer({ cash: 1_000 });
    await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.wheat.id, quantity: 100, action: 'buy' } });
    const afterBuy = await cashCentsOf(db, player.companyId);
    const flow = await marketFlow(db, world.wheat.id);
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
    let received = 0;
    for (let sale = 0; sale < 11; sale += 1) received += exchangeCents(world.wheat, flow - 9 * sale, 9, 'sell');
    expect(await cashCentsOf(db, player.companyId)).toBe(afterBuy + received);
    await expectLedgerBalanced(db, player.companyId);
  });
  it("a sale that waited for the same company's purchase sells from the units that purchase added", async () => {
    // The sale's statement starts while the purchase holds the company's row; the units it sells
    // exist only once the purchase commits. The sale must see them, not answer 'Not enough stock'.
    const player = await app.createPlayer({ cash: 10_000 });
    expect((await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.flour.id, quantity: 10, action: 'buy' } })).status).toBe(
      200,
    );
    let sale: Promise<Awaited<ReturnType<TestApp['api']>>> | undefined;
    await db.transaction(async (tx) => {
      await act(tx, 'marketTrade', { companyId: player.companyId, actingUserId: null, input: { product_id: world.flour.id, quantity: 5, action: 'buy' } });
      sale = app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.flour.id, quantity: 12, action: 'sell' } });
      // Commit only once the sale's statement waits for the company's row.
      await untilAStatementWaitsForALock(db, 'with locked as');
    });
    const sold = await sale!;
    expect(sold).toMatchObject({ status: 200, body: { action: 'sell', quantity: 12, quantity_held: 3 } });
    await expectLedgerBalanced(db, player.companyId);
  });
});
