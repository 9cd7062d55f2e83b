/**
 * Contracts between companies (issue 22, docs/exchange.md "Contracts"): the seller's goods are held
 * from the offer; the buyer accepts (pays, goods move) or declines; the seller cancels; exactly once
 * under concurrency; clear refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ledgerMismatches, type Database } from '@marketcraft/db';
import { CONTRACT_MAX_OPEN_OFFERS_PER_BUYER } from '@marketcraft/shared';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';
import { cashCentsOf, createProductionWorld, expectLedgerBalanced, type ProductionWorld } from './helpers/productionFixtures.ts';

describe('contracts between companies', () => {
  let app: TestApp;
  let db: Database;
  let world: ProductionWorld;
  let week: number;
  beforeAll(async () => {
    app = await startTestApp();
    db = app.database.db;
    world = await createProductionWorld(db);
    const [row] = await db.execute<{ w: number }>(sql`select current_week as w from worlds where id = 1`);
    week = Number(row!.w);
  });
  afterAll(async () => {
    expect(await ledgerMismatches(db)).toEqual([]);
    await app.close();
  });

  async function give(player: TestPlayer, productId: number, quantity: number, costCents: number) {
    await db.execute(
      sql`insert into inventory_items (world_id, company_id, product_id, quantity, average_cost_cents) values (1, ${player.companyId}, ${productId}, ${quantity}, ${costCents})`,
    );
  }
  const held = async (player: TestPlayer, productId: number) => {
    const [row] = await db.execute<{ q: number }>(
      sql`select coalesce((select quantity from inventory_items where company_id = ${player.companyId} and product_id = ${productId}), 0) as q`,
    );
    return Number(row!.q);
  };
  const offer = (seller: TestPlayer, body: Record<string, unknown>) => app.api('POST', '/contracts', { token: seller.token, body });

  it('an offer holds the goods; the buyer sees it incoming, accepts, pays the price and gets the goods', async () => {
    const seller = await app.createPlayer({ cash: 1_000, name: 'Mill Contract Co' });
    const buyer = await app.createPlayer({ cash: 5_000, name: 'Bakery Contract Co' });
    await give(seller, world.flour.id, 100, 300);
    const made = await offer(seller, { buyer_company_id: buyer.companyId, product_id: world.flour.id, quantity: 60, unit_price: 4.5, expires_week: week + 2 });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      id: expect.any(Number),
      seller_company_id: seller.companyId,
      seller_name: 'Mill Contract Co',
      buyer_company_id: buyer.companyId,
      buyer_name: 'Bakery Contract Co',
      product_id: world.flour.id,
      product_name: world.flour.name,
      quantity: 60,
      unit_price: 4.5,
      total: 270,
      status: 'open',
      week_offered: week,
      expires_week: week + 2,
    });
    expect(await held(seller, world.flour.id)).toBe(40);
    const warehouse = await app.api('GET', '/warehouse', { token: seller.token });
    expect(warehouse.body.in_escrow).toEqual([
      { product_id: world.flour.id, product_name: world.flour.name, quantity: 60, average_cost: 3, held_by: 'contract', id: made.body.id },
    ]);
    expect((await app.api('GET', '/contracts?direction=incoming', { token: buyer.token })).body).toEqual([made.body]);
    expect((await app.api('GET', '/contracts?direction=outgoing', { token: buyer.token })).body).toEqual([]);
    expect((await app.api('GET', '/contracts?direction=outgoing', { token: seller.token })).body).toEqual([made.body]);

    const accepted = await app.api('POST', `/contracts/${made.body.id}/accept`, { token: buyer.token });
    expect(accepted).toMatchObject({ status: 200, body: { id: made.body.id, status: 'accepted' } });
    expect(await cashCentsOf(db, buyer.companyId)).toBe(500_000 - 27_000);
    expect(await cashCentsOf(db, seller.companyId)).toBe(100_000 + 27_000);
    expect(await held(buyer, world.flour.id)).toBe(60);
    const [cost] = await db.execute<{ c: number }>(
      sql`select average_cost_cents as c from inventory_items where company_id = ${buyer.companyId} and product_id = ${world.flour.id}`,
    );
    expect(Number(cost!.c)).toBe(450);
    expect(await app.api('POST', `/contracts/${made.body.id}/accept`, { token: buyer.token })).toMatchObject({
      status: 409,
      body: { error: 'This offer is accepted: only an open offer can be accepted' },
    });
    const reasons = await db.execute<{ company_id: number; reason: string; amount_cents: number }>(
      sql`select company_id, reason, amount_cents from transactions where company_id in (${seller.companyId}, ${buyer.companyId}) order by id`,
    );
    expect(reasons.map((row) => [Number(row.company_id), row.reason, Number(row.amount_cents)])).toEqual([
      [seller.companyId, 'exchange_escrow', 0],
      [buyer.companyId, 'contract_buy', -27_000],
      [seller.companyId, 'contract_sell', 27_000],
    ]);
    await expectLedgerBalanced(db, buyer.companyId);
    await expectLedgerBalanced(db, seller.companyId);
  });

  it('declined or cancelled offers give the goods back; only the buyer answers and only the seller cancels', async () => {
    const seller = await app.createPlayer({ cash: 1_000 });
    const buyer = await app.createPlayer({ cash: 1_000 });
    const stranger = await app.createPlayer({ cash: 1_000 });
    await give(seller, world.wheat.id, 50, 150);
    const first = await offer(seller, { buyer_company_id: buyer.companyId, product_id: world.wheat.id, quantity: 20, unit_price: 2, expires_week: week });
    const second = await offer(seller, { buyer_company_id: buyer.companyId, product_id: world.wheat.id, quantity: 30, unit_price: 2, expires_week: week });
    expect(await held(seller, world.wheat.id)).toBe(0);
    expect(await app.api('POST', `/contracts/${first.body.id}/accept`, { token: seller.token })).toMatchObject({
      status: 403,
      body: { error: 'Only the buyer can answer an offer: cancel it instead' },
    });
    expect(await app.api('POST', `/contracts/${first.body.id}/cancel`, { token: buyer.token })).toMatchObject({
      status: 403,
      body: { error: 'Only the seller can cancel an offer: decline it instead' },
    });
    expect(await app.api('POST', `/contracts/${first.body.id}/accept`, { token: stranger.token })).toMatchObject({
      status: 404,
      body: { error: 'Contract not found' },
    });
    expect(await app.api('POST', `/contracts/${first.body.id}/decline`, { token: buyer.token })).toMatchObject({ status: 200, body: { status: 'declined' } });
    expect(await app.api('POST', `/contracts/${second.body.id}/cancel`, { token: seller.token })).toMatchObject({ status: 200, body: { status: 'cancelled' } });
    expect(await held(seller, world.wheat.id)).toBe(50);
    expect(await cashCentsOf(db, buyer.companyId)).toBe(100_000);
    expect((await app.api('GET', '/contracts?status=declined', { token: seller.token })).body.map((c: { id: number }) => c.id)).toEqual([first.body.id]);
  });

  it('refuses with clear messages and writes nothing', async () => {
    const seller = await app.createPlayer({ cash: 10 });
    const buyer = await app.createPlayer({ cash: 10 });
    await give(seller, world.bread.id, 5, 100);
    const body = { buyer_company_id: buyer.companyId, product_id: world.bread.id, quantity: 5, unit_price: 3, expires_week: week };
    expect(await offer(seller, { ...body, quantity: 6 })).toMatchObject({
      status: 409,
      body: { error: `Not enough stock: you have 5 ${world.bread.name} in the warehouse and offered 6` },
    });
    expect(await offer(seller, { ...body, buyer_company_id: seller.companyId })).toMatchObject({
      status: 422,
      body: { error: 'You cannot offer goods to your own company' },
    });
    expect(await offer(seller, { ...body, buyer_company_id: 999_999 })).toMatchObject({ status: 404, body: { error: 'Company not found' } });
    const tooLate = `An offer expires this week (${week}) or within the next 7 weeks (by week ${week + 7})`;
    expect(await offer(seller, { ...body, expires_week: week + 8 })).toMatchObject({ status: 422, body: { error: tooLate } });
    if (week > 1) expect(await offer(seller, { ...body, expires_week: week - 1 })).toMatchObject({ status: 422, body: { error: tooLate } });
    expect(await offer(seller, { ...body, expires_week: 0 })).toMatchObject({ status: 400 });
    expect(await offer(seller, { ...body, unit_price: 0 })).toMatchObject({ status: 400, body: { error: 'Please enter a valid price' } });
    expect(await offer(seller, { ...body, unit_price: 1.001 })).toMatchObject({ status: 400, body: { error: 'Please enter a valid price' } });
    expect(await held(seller, world.bread.id)).toBe(5);
    const made = await offer(seller, body);
    expect(made.status).toBe(201);
    expect(await app.api('POST', `/contracts/${made.body.id}/accept`, { token: buyer.token })).toMatchObject({
      status: 409,
      body: { error: 'Not enough cash: this offer costs $15.00 and you have $10.00' },
    });
    expect(await held(buyer, world.bread.id)).toBe(0);
  });

  it(`one seller cannot bury a buyer's offers: at most ${CONTRACT_MAX_OPEN_OFFERS_PER_BUYER} open offers to one company, even sent all at once (422 beyond)`, async () => {
    const spammer = await app.createPlayer({ cash: 10, name: 'Offer Spammer Co' });
    const victim = await app.createPlayer({ cash: 10, name: 'Busy Bakery Co' });
    const other = await app.createPlayer({ cash: 10, name: 'Other Buyer Co' });
    await give(spammer, world.bread.id, 100, 100);
    const body = { buyer_company_id: victim.companyId, product_id: world.bread.id, quantity: 1, unit_price: 1, expires_week: week };
    const answers = await Promise.all(Array.from({ length: CONTRACT_MAX_OPEN_OFFERS_PER_BUYER + 5 }, () => offer(spammer, body)));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(CONTRACT_MAX_OPEN_OFFERS_PER_BUYER);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused).toHaveLength(5);
    for (const answer of refused)
      expect(answer).toMatchObject({
        status: 422,
        body: {
          error: `You have ${CONTRACT_MAX_OPEN_OFFERS_PER_BUYER} open offers to Busy Bakery Co, the most one company may make to another: wait for their answer or cancel one first`,
        },
      });
    // The refused ones held nothing; another buyer is another count; an answered offer makes room.
    expect(await held(spammer, world.bread.id)).toBe(100 - CONTRACT_MAX_OPEN_OFFERS_PER_BUYER);
    expect((await offer(spammer, { ...body, buyer_company_id: other.companyId })).status).toBe(201);
    const first = answers.find((answer) => answer.status === 201)!.body.id as number;
    expect((await app.api('POST', `/contracts/${first}/decline`, { token: victim.token })).status).toBe(200);
    expect((await offer(spammer, body)).status).toBe(201);
  });

  it('accepts exactly once under concurrency: 40 accepts, declines and cancels of 8 offers', async () => {
    const seller = await app.createPlayer({ cash: 100 });
    const buyer = await app.createPlayer({ cash: 100 });
    await give(seller, world.wheat.id, 80, 100);
    const offers: number[] = [];
    for (let index = 0; index < 8; index += 1) {
      offers.push(
        (await offer(seller, { buyer_company_id: buyer.companyId, product_id: world.wheat.id, quantity: 10, unit_price: 2, expires_week: week })).body
          .id as number,
      );
    }
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, index) => {
        const id = offers[index % 8]!;
        const kind = index % 5;
        if (kind === 4) return app.api('POST', `/contracts/${id}/cancel`, { token: seller.token });
        if (kind === 3) return app.api('POST', `/contracts/${id}/decline`, { token: buyer.token });
        return app.api('POST', `/contracts/${id}/accept`, { token: buyer.token });
      }),
    );
    expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
    // Each offer was answered once.
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(8);
    const accepted = answers.filter((answer) => answer.status === 200 && answer.body.status === 'accepted').length;
    expect(await held(buyer, world.wheat.id)).toBe(10 * accepted);
    expect(await held(seller, world.wheat.id)).toBe(80 - 10 * accepted);
    expect(await cashCentsOf(db, buyer.companyId)).toBe(10_000 - 2_000 * accepted);
    expect(await cashCentsOf(db, seller.companyId)).toBe(10_000 + 2_000 * accepted);
    await expectLedgerBalanced(db, buyer.companyId);
  });
});
