/**
 * Limit orders on the exchange (issue 22, docs/exchange.md): placing escrows at once with ledger
 * rows, cancelling releases exactly once (also under 40 concurrent requests), GET /api/company shows
 * cash_in_escrow, the warehouse lists escrowed goods apart, bad input answers clear 4xx messages,
 * token scopes and ended worlds are respected.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { WORLD_ENDED, actMany, createWorld, joinWorld, ledgerMismatches, type Database } from '@marketcraft/db';
import { EXCHANGE_FEE_BP } from '@marketcraft/shared';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';
import { cashCentsOf, createProductionWorld, expectLedgerBalanced, type ProductionWorld } from './helpers/productionFixtures.ts';

/** cash + cash in escrow - starting cash - the ledger's rows that are not escrow moves: 0 for every company when all is well. */
async function escrowMismatches(db: Database): Promise<{ id: number; gap: number }[]> {
  const rows = await db.execute<{ id: number; gap: number }>(sql`
    select c.id, (c.cash_cents
                  + coalesce((select sum(o.escrow_cents) from exchange_orders o where o.company_id = c.id and o.status in ('open', 'partially_filled')), 0)
                  - c.starting_cash_cents
                  - coalesce((select sum(t.amount_cents) from transactions t where t.company_id = c.id and t.reason not in ('exchange_escrow', 'exchange_release')), 0))::bigint as gap
    from companies c`);
  return rows.map((row) => ({ id: Number(row.id), gap: Number(row.gap) })).filter((row) => row.gap !== 0);
}

describe('limit orders: escrow, cancel, errors', () => {
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
    expect(await escrowMismatches(db)).toEqual([]);
    await app.close();
  });

  const fee = (cents: number) => Math.ceil((cents * EXCHANGE_FEE_BP) / 10_000);
  const place = (player: TestPlayer, body: Record<string, unknown>) => app.api('POST', '/exchange/orders', { token: player.token, body });

  it('a buy order answers 201, holds limit x units plus the fee out of the cash a player can spend (a ledger row), and cancelling gives it back once', async () => {
    const player = await app.createPlayer({ cash: 10_000 });
    const placed = await place(player, { product_id: world.flour.id, side: 'buy', quantity: 100, limit_price: 4.5, weeks: 3 });
    expect(placed.status).toBe(201);
    const held = 100 * 450 + fee(100 * 450);
    const [week] = await db.execute<{ w: number }>(sql`select current_week as w from worlds where id = 1`);
    expect(placed.body).toEqual({
      id: expect.any(Number),
      product_id: world.flour.id,
      product_name: world.flour.name,
      side: 'buy',
      quantity: 100,
      filled_quantity: 0,
      limit_price: 4.5,
      escrow: held / 100,
      escrow_units: 0,
      average_fill_price: null,
      status: 'open',
      week_placed: Number(week!.w),
      expires_week: Number(week!.w) + 2,
    });
    expect(await cashCentsOf(db, player.companyId)).toBe(1_000_000 - held);
    const company = await app.api('GET', '/company', { token: player.token });
    expect(company.body).toMatchObject({ cash: (1_000_000 - held) / 100, cash_in_escrow: held / 100 });
    // Net worth does not drop by placing an order: the escrow is still the company's.
    const before = await app.createPlayer({ cash: 10_000 });
    const untouched = await app.api('GET', '/company', { token: before.token });
    expect(company.body.net_worth).toBe(untouched.body.net_worth);

    const listed = await app.api('GET', `/exchange/orders?status=open&product_id=${world.flour.id}`, { token: player.token });
    expect(listed.body).toEqual([placed.body]);
    expect((await app.api('GET', '/exchange/orders?status=cancelled', { token: player.token })).body).toEqual([]);

    const cancelled = await app.api('DELETE', `/exchange/orders/${placed.body.id}`, { token: player.token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: placed.body.id, status: 'cancelled', escrow: 0 });
    expect(await cashCentsOf(db, player.companyId)).toBe(1_000_000);
    const again = await app.api('DELETE', `/exchange/orders/${placed.body.id}`, { token: player.token });
    expect(again).toMatchObject({ status: 409, body: { error: 'This order is cancelled: only an open order can be cancelled' } });
    expect(await cashCentsOf(db, player.companyId)).toBe(1_000_000);
    const ledger = await db.execute<{ reason: string; amount_cents: number }>(
      sql`select reason, amount_cents from transactions where company_id = ${player.companyId} order by id`,
    );
    expect(ledger.map((row) => [row.reason, Number(row.amount_cents)])).toEqual([
      ['exchange_escrow', -held],
      ['exchange_release', held],
    ]);
    await expectLedgerBalanced(db, player.companyId);
  });

  it('a sell order takes its goods out of the warehouse into escrow (listed apart), and cancelling puts them back at their cost', async () => {
    const player = await app.createPlayer({ cash: 10_000 });
    expect((await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.wheat.id, quantity: 50, action: 'buy' } })).status).toBe(
      200,
    );
    const before = await app.api('GET', '/warehouse', { token: player.token });
    const wheat = before.body.items.find((item: { product_id: number }) => item.product_id === world.wheat.id);
    const placed = await place(player, { product_id: world.wheat.id, side: 'sell', quantity: 30, limit_price: 2.1 });
    expect(placed.status).toBe(201);
    expect(placed.body).toMatchObject({ side: 'sell', quantity: 30, escrow: 0, escrow_units: 30, expires_week: placed.body.week_placed });
    const during = await app.api('GET', '/warehouse', { token: player.token });
    expect(during.body.items.find((item: { product_id: number }) => item.product_id === world.wheat.id)).toMatchObject({ quantity: 20 });
    expect(during.body.in_escrow).toEqual([
      { product_id: world.wheat.id, product_name: world.wheat.name, quantity: 30, average_cost: wheat.average_cost, held_by: 'sell_order', id: placed.body.id },
    ]);
    const goodsRow = await db.execute<{ amount_cents: number; product_id: number }>(
      sql`select amount_cents, product_id from transactions where company_id = ${player.companyId} and reason = 'exchange_escrow'`,
    );
    expect(goodsRow.map((row) => [Number(row.amount_cents), Number(row.product_id)])).toEqual([[0, world.wheat.id]]);

    expect((await app.api('DELETE', `/exchange/orders/${placed.body.id}`, { token: player.token })).status).toBe(200);
    const after = await app.api('GET', '/warehouse', { token: player.token });
    expect(after.body.items.find((item: { product_id: number }) => item.product_id === world.wheat.id)).toMatchObject({
      quantity: 50,
      average_cost: wheat.average_cost,
    });
    expect(after.body.in_escrow).toEqual([]);
  });

  it('refuses with clear messages: not enough cash or stock (409), unknown product or order (404), bad fields (400), and writes nothing', async () => {
    const player = await app.createPlayer({ cash: 100 });
    const other = await app.createPlayer({ cash: 10_000 });
    expect(await place(player, { product_id: world.flour.id, side: 'buy', quantity: 100, limit_price: 5 })).toMatchObject({
      status: 409,
      body: { error: `Not enough cash: this order holds $505.00 (100 x $5.00 plus the 1% fee) and you have $100.00` },
    });
    expect(await place(player, { product_id: world.flour.id, side: 'sell', quantity: 5, limit_price: 5 })).toMatchObject({
      status: 409,
      body: { error: `Not enough stock: you have 0 ${world.flour.name} in the warehouse and offered 5` },
    });
    expect(await place(player, { product_id: 999_999, side: 'buy', quantity: 1, limit_price: 1 })).toMatchObject({
      status: 404,
      body: { error: 'Product not found' },
    });
    for (const [body, error] of [
      [{ product_id: world.flour.id, side: 'buy', quantity: 1, limit_price: 0 }, 'Please enter a valid price'],
      [{ product_id: world.flour.id, side: 'buy', quantity: 1, limit_price: 1.234 }, 'Please enter a valid price'],
      [{ product_id: world.flour.id, side: 'buy', quantity: 0, limit_price: 1 }, 'quantity must be at least 1'],
      [{ product_id: world.flour.id, side: 'buy', quantity: 1.5, limit_price: 1 }, 'quantity must be a whole number'],
      [{ product_id: world.flour.id, side: 'hold', quantity: 1, limit_price: 1 }, 'side must be one of: buy, sell'],
      [{ product_id: world.flour.id, side: 'buy', quantity: 1, limit_price: 1, weeks: 9 }, 'weeks must be between 1 and 8'],
      [{ product_id: world.flour.id, side: 'buy', quantity: 1, limit_price: 1, weeks: 0 }, 'weeks must be between 1 and 8'],
      [{ side: 'buy', quantity: 1, limit_price: 1 }, 'Required: product_id'],
    ] as const) {
      expect(await place(player, body)).toMatchObject({ status: 400, body: { error } });
    }
    const mine = await place(other, { product_id: world.flour.id, side: 'buy', quantity: 1, limit_price: 1 });
    expect(await app.api('DELETE', `/exchange/orders/${mine.body.id}`, { token: player.token })).toMatchObject({
      status: 404,
      body: { error: 'Order not found' },
    });
    expect(await app.api('DELETE', '/exchange/orders/999999', { token: player.token })).toMatchObject({ status: 404, body: { error: 'Order not found' } });
    expect(await cashCentsOf(db, player.companyId)).toBe(10_000);
    const [count] = await db.execute<{ n: number }>(sql`select count(*)::int as n from transactions where company_id = ${player.companyId}`);
    expect(Number(count!.n)).toBe(0);
  });

  it('personal tokens: read may list orders but not place them; trade may place and cancel', async () => {
    const player = await app.createPlayer({ cash: 1_000 });
    const token = async (scope: string) =>
      (await app.api('POST', '/tokens', { token: player.token, body: { name: `${scope} bot`, scope } })).body.token as string;
    const read = await token('read');
    const trade = await token('trade');
    const body = { product_id: world.flour.id, side: 'buy', quantity: 1, limit_price: 1 };
    expect((await app.api('POST', '/exchange/orders', { token: read, body })).status).toBe(403);
    expect((await app.api('GET', '/exchange/orders', { token: read })).status).toBe(200);
    const placed = await app.api('POST', '/exchange/orders', { token: trade, body });
    expect(placed.status).toBe(201);
    expect((await app.api('DELETE', `/exchange/orders/${placed.body.id}`, { token: read })).status).toBe(403);
    expect((await app.api('DELETE', `/exchange/orders/${placed.body.id}`, { token: trade })).status).toBe(200);
  });

  it('40 concurrent orders and cancels never overdraw and never release an escrow twice', async () => {
    const player = await app.createPlayer({ cash: 1_000 });
    // Each order holds $101: at most 9 of 30 can be open at once on $1,000.
    const body = { product_id: world.flour.id, side: 'buy', quantity: 100, limit_price: 1 };
    const first = await Promise.all(Array.from({ length: 3 }, () => place(player, body)));
    const ids = first.filter((answer) => answer.status === 201).map((answer) => answer.body.id as number);
    expect(ids).toHaveLength(3);
    const answers = await Promise.all([
      ...Array.from({ length: 30 }, () => place(player, body)),
      // Every open order cancelled three or four times over.
      ...Array.from({ length: 10 }, (_, index) => app.api('DELETE', `/exchange/orders/${ids[index % 3]}`, { token: player.token })),
    ]);
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.every((status) => status === 201 || status === 200 || status === 409)).toBe(true);
    const cancels = answers.slice(30);
    expect(cancels.filter((answer) => answer.status === 200)).toHaveLength(3);
    const placedNow = answers.slice(0, 30).filter((answer) => answer.status === 201).length;
    expect(placedNow).toBe(9);
    const releases = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from transactions where company_id = ${player.companyId} and reason = 'exchange_release'`,
    );
    expect(Number(releases[0]!.n)).toBe(3);
    expect(await cashCentsOf(db, player.companyId)).toBe(100_000 - 9 * 10_100);
    expect(await escrowMismatches(db)).toEqual([]);
    await expectLedgerBalanced(db, player.companyId);
  });

  it('an ended world refuses new orders; orders are per world', async () => {
    const teacher = await app.createPlayer({ name: 'Exchange teacher' });
    const classWorld = await createWorld(
      db,
      { id: teacher.userId, isAdmin: false },
      { name: 'Exchange class', turnIntervalMinutes: null, startingCashDollars: 50_000, bots: 0, seed: 3, maxPlayers: 30 },
    );
    const student = await app.createPlayer({ name: 'Exchange student public co' });
    await joinWorld(db, { id: student.userId, isAdmin: false, email: student.email }, { code: classWorld.join_code!, companyName: 'Exchange student co' });
    const [company] = await db.execute<{ id: number }>(sql`select id from companies where world_id = ${classWorld.id} and user_id = ${student.userId}`);
    const [product] = await db.execute<{ id: number }>(
      sql`select product_id as id from world_products where world_id = ${classWorld.id} order by product_id limit 1`,
    );
    // An order belongs to its company's world: the student's public company does not see it.
    const inClass = await actMany(db, 'placeExchangeOrders', [
      {
        companyId: Number(company!.id),
        actingUserId: student.userId,
        input: { product_id: Number(product!.id), side: 'buy', quantity: 1, limit_price: 1, weeks: 1 },
      },
    ]);
    expect(inClass[0]).toMatchObject({ applied: true, result: { status: 'open' } });
    const [row] = await db.execute<{ world_id: number }>(
      sql`select world_id from exchange_orders where id = ${inClass[0]!.applied ? inClass[0]!.result.id : 0}`,
    );
    expect(Number(row!.world_id)).toBe(classWorld.id);
    expect((await app.api('GET', '/exchange/orders', { token: student.token })).body).toEqual([]);
    expect(await app.api('DELETE', `/exchange/orders/${inClass[0]!.applied ? inClass[0]!.result.id : 0}`, { token: student.token })).toMatchObject({
      status: 404,
    });
    await db.execute(sql`update worlds set status = 'ended', ended_at = now(), next_turn_at = null where id = ${classWorld.id}`);
    const refused = await actMany(db, 'placeExchangeOrders', [
      {
        companyId: Number(company!.id),
        actingUserId: student.userId,
        input: { product_id: Number(product!.id), side: 'buy', quantity: 1, limit_price: 1, weeks: 1 },
      },
    ]);
    expect(refused[0]).toMatchObject({ applied: false, refusal: { message: WORLD_ENDED } });
  });

  it('publishes the book: anonymous cumulative bids and asks, the maker apart, and the indicative clearing; a read token may read it', async () => {
    const buyer = await app.createPlayer({ cash: 10_000 });
    const seller = await app.createPlayer({ cash: 10_000 });
    // Stock given, not bought: an instant purchase would move the maker's curve (this week's flow).
    await db.execute(
      sql`insert into inventory_items (world_id, company_id, product_id, quantity, average_cost_cents) values (1, ${seller.companyId}, ${world.bread.id}, 40, 300)`,
    );
    // Bread is posted at $4.00: 20 wanted up to $4.10 and 10 more up to $3.95; 40 offered from $3.90.
    await place(buyer, { product_id: world.bread.id, side: 'buy', quantity: 20, limit_price: 4.1 });
    await place(buyer, { product_id: world.bread.id, side: 'buy', quantity: 10, limit_price: 3.95 });
    await place(seller, { product_id: world.bread.id, side: 'sell', quantity: 40, limit_price: 3.9 });
    const read = (await app.api('POST', '/tokens', { token: buyer.token, body: { name: 'reader', scope: 'read' } })).body.token as string;
    const book = await app.api('GET', `/exchange/books/${world.bread.id}`, { token: read });
    expect(book.status).toBe(200);
    expect(book.body).toMatchObject({
      product_id: world.bread.id,
      product_name: world.bread.name,
      posted_price: 4,
      bids: [
        { price: 4.1, quantity: 20 },
        { price: 3.95, quantity: 30 },
      ],
      asks: [{ price: 3.9, quantity: 40 }],
    });
    // Anonymous: a level is a price and a quantity, nothing says whose.
    for (const level of [...book.body.bids, ...book.body.asks, ...book.body.maker.bids, ...book.body.maker.asks])
      expect(Object.keys(level).sort()).toEqual(['price', 'quantity']);
    // The maker's schedule: it sells above the posted price plus the spread (and bread's wholesale margin) and buys below it less the spread.
    expect(book.body.maker.asks.length).toBeGreaterThan(0);
    expect(book.body.maker.bids.length).toBeGreaterThan(0);
    expect(book.body.maker.asks[0].price).toBeGreaterThan(4 * 1.025);
    expect(book.body.maker.bids[0].price).toBeLessThan(4 * 0.975);
    // The maker buys nothing at $3.90 or more (its bid: $4.00 less 2.5%) and sells nothing below
    // $4.10: from $3.90 to $3.95 the players' 30 wanted meet 40 offered. Unbalanced: the crossing
    // price itself, $3.90 (at $3.89 the maker would want 5 more and nobody would sell).
    expect(book.body).toMatchObject({ indicative_price: 3.9, indicative_volume: 30 });
    expect(await app.api('GET', '/exchange/books/999999', { token: read })).toMatchObject({ status: 404, body: { error: 'Product not found' } });
    const history = await app.api('GET', `/exchange/auctions/${world.bread.id}?weeks=4`, { token: read });
    expect(history).toMatchObject({ status: 200, body: [] });
  });
});
