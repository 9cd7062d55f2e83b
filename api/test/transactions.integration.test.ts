/**
 * GET /api/transactions: the company's ledger, newest first, paged on the server, filtered by type
 * and week, each line saying what it concerns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { changeCash, type Database } from '@marketcraft/db';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';
import { createProductionWorld, type ProductionWorld } from './helpers/productionFixtures.ts';

describe('the ledger page by page', () => {
  let app: TestApp;
  let db: Database;
  let world: ProductionWorld;
  let player: TestPlayer;
  let farm: number;
  let bot: number;
  let countryId: number;

  beforeAll(async () => {
    app = await startTestApp();
    db = app.database.db;
    world = await createProductionWorld(db);
    player = await app.createPlayer({ cash: 200_000 });
    const built = await app.api('POST', '/buildings', { token: player.token, body: { type: 'farm', city_id: world.city.id } });
    farm = built.body.id;
    await app.api('POST', `/buildings/${farm}/hire-employees`, { token: player.token, body: { count: 2 } });
    await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.flour.id, quantity: 10, action: 'buy' } });
    const shares = await app.api('GET', '/shares', { token: player.token });
    bot = shares.body.find((record: { is_bot: boolean }) => record.is_bot).company_id;
    await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot, shares: 2, action: 'buy' } });
    countryId = world.countryId;
    await app.api('POST', '/politics/invest', { token: player.token, body: { country_id: countryId, amount: 1_000 } });
    // A turn's line (written by the worker in a later week): it concerns its week's report.
    await db.execute(sql`update worlds set current_week = 2 where id = 1`);
    await changeCash(db, {
      companyId: player.companyId,
      amountCents: -5_000,
      type: 'other',
      reason: 'wages',
      description: 'Wages: 3 employees',
      allowNegative: true,
    });
    await db.execute(sql`update worlds set current_week = 1 where id = 1`);
  });
  afterAll(async () => {
    await app.close();
  });

  const list = (query = '') => app.api('GET', `/transactions${query}`, { token: player.token });

  it('answers the newest lines first, each with what it concerns', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ page: 1, page_size: 25, total: 6, weeks: [2, 1] });
    const lines = response.body.items as Array<{ reason: string; week: number; amount: number; type: string; concerns: unknown }>;
    expect(lines.map((line) => [line.week, line.reason, line.amount, line.concerns])).toEqual([
      [2, 'wages', -50, { kind: 'week', id: 2 }],
      [1, 'politics', -1_000, { kind: 'country', id: countryId }],
      [1, 'stock_buy', expect.any(Number), { kind: 'company', id: bot }],
      [1, 'market_buy', expect.any(Number), { kind: 'product', id: world.flour.id }],
      [1, 'hire', -10_000, { kind: 'building', id: farm }],
      [1, 'build', -20_000, { kind: 'building', id: farm }],
    ]);
  });

  it('pages on the server and filters by type and week', async () => {
    const first = await list('?page=1&page_size=4');
    const second = await list('?page=2&page_size=4');
    expect(first.body.items).toHaveLength(4);
    expect(second.body.items).toHaveLength(2);
    expect(second.body).toMatchObject({ page: 2, page_size: 4, total: 6 });
    const ids = [...first.body.items, ...second.body.items].map((line: { id: number }) => line.id);
    expect(new Set(ids).size).toBe(6);
    expect((await list('?page=3&page_size=4')).body.items).toEqual([]);

    const buildingLines = await list('?type=building');
    expect(buildingLines.body.total).toBe(2);
    expect(buildingLines.body.items.every((line: { type: string }) => line.type === 'building')).toBe(true);
    const weekTwo = await list('?week=2');
    expect(weekTwo.body.items.map((line: { reason: string }) => line.reason)).toEqual(['wages']);
    expect((await list('?week=2&type=building')).body).toMatchObject({ items: [], total: 0 });
  });

  it('says where a page is in X-Total-Count and Link headers, like the lists of companies', async () => {
    const links = (link: string | null) => Object.fromEntries([...(link ?? '').matchAll(/<([^>]+)>; rel="(\w+)"/g)].map((match) => [match[2], match[1]]));
    const first = await list('?page=1&page_size=4');
    expect(first.headers.get('x-total-count')).toBe('6');
    expect(links(first.headers.get('link'))).toEqual({
      first: '/api/transactions?page=1&page_size=4',
      next: '/api/transactions?page=2&page_size=4',
      last: '/api/transactions?page=2&page_size=4',
    });
    // Following rel="next" reads the rest of the ledger, and the last page has no next.
    const second = await app.api('GET', links(first.headers.get('link')).next!.replace(/^\/api/, ''), { token: player.token });
    expect(second.body).toMatchObject({ page: 2, total: 6 });
    expect(second.body.items).toHaveLength(2);
    expect(links(second.headers.get('link'))).toEqual({
      first: '/api/transactions?page=1&page_size=4',
      prev: '/api/transactions?page=1&page_size=4',
      last: '/api/transactions?page=2&page_size=4',
    });
    // Filters stay in the links, and the count is the filtered one; an empty list has one page.
    const filtered = await list('?type=building&page_size=1');
    expect(filtered.headers.get('x-total-count')).toBe('2');
    expect(links(filtered.headers.get('link')).next).toBe('/api/transactions?type=building&page_size=1&page=2');
    const none = await list('?week=2&type=building');
    expect(none.headers.get('x-total-count')).toBe('0');
    expect(links(none.headers.get('link'))).toEqual({
      first: '/api/transactions?week=2&type=building&page=1&page_size=25',
      last: '/api/transactions?week=2&type=building&page=1&page_size=25',
    });
    // Past the end: prev leads back to the last page.
    expect(links((await list('?page=9&page_size=4')).headers.get('link')).prev).toBe('/api/transactions?page=2&page_size=4');
    // The OpenAPI document says so, as for the lists of companies.
    const document = (await app.api('GET', '/openapi.json')).body;
    expect(Object.keys(document.paths['/transactions'].get.responses['200'].headers)).toEqual(expect.arrayContaining(['X-Total-Count', 'Link']));
  });

  it("refuses bad filters with 400 and shows nobody else's ledger", async () => {
    for (const query of ['?page=0', '?page=abc', '?page_size=101', '?type=gift', '?week=-1', '?week=1.5']) {
      const response = await list(query);
      expect(response.status, query).toBe(400);
      expect(typeof response.body.error).toBe('string');
    }
    const stranger = await app.createPlayer({ cash: 1_000 });
    const theirs = await app.api('GET', '/transactions', { token: stranger.token });
    expect(theirs.body).toMatchObject({ items: [], total: 0, weeks: [] });
    expect((await app.api('GET', '/transactions')).status).toBe(401);
  });
});
