/**
 * Numbers over REST (docs/api.md, "Numbers"): a JSON body carries real numbers, so "5" where a
 * number goes is a 400 naming the field and writes nothing, on every route that writes; the path
 * and the query string are text by nature, and their number fields are still read as numbers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../src/rest.ts';
import { startTestApp, type TestApp } from './helpers/testApp.ts';

describe('numbers given as text', () => {
  let app: TestApp;
  beforeAll(async () => {
    // The walk sends three bodies to every number field of every route that writes: more than a
    // session's mutations a minute (RATE_LIMIT_SESSION_MUTATIONS), which is not what it tests.
    app = await startTestApp({ env: { RATE_LIMIT_SESSION_MUTATIONS: '100000', RATE_LIMIT_SESSION_REQUESTS: '100000' } });
  });
  afterAll(async () => {
    await app.close();
  });

  it('a JSON body with a number as text is a 400 naming the field, on every route that takes a body', async () => {
    const player = await app.createPlayer();
    // The player instructs a class world of their own: a world's instructor routes check who asks
    // before they read the body (docs/api.md, "Errors"), so the walk must be allowed on them.
    const classWorld = await app.api('POST', '/worlds', { token: player.token, body: { name: 'Numbers 101' } });
    expect(classWorld.status).toBe(200);
    const checked: string[] = [];
    for (const route of restRoutes()) {
      if (route.method === 'GET' || route.method === 'DELETE') continue;
      const path = route.path.replace(/^\/worlds\/\{id\}/, `/worlds/${classWorld.body.id}`).replace(/\{\w+\}/g, '1');
      for (const field of route.numberFields) {
        if (route.path.includes(`{${field}}`)) continue;
        for (const [text, message] of [
          ['5', `${field} must be a number, not text: send 5 without quotes`],
          [' 5.5 ', `${field} must be a number, not text: send 5.5 without quotes`],
        ]) {
          const answer = await app.api(route.method, path, { token: player.token, body: { [field]: text } });
          expect({ route: `${route.method} ${route.path}`, status: answer.status, body: answer.body }).toEqual({
            route: `${route.method} ${route.path}`,
            status: 400,
            body: { error: message },
          });
        }
        // Text that spells no number is refused too, with the field's own message (the spec's, for some).
        const spelled = await app.api(route.method, path, { token: player.token, body: { [field]: 'five' } });
        expect({ route: `${route.method} ${route.path}`, status: spelled.status }).toEqual({ route: `${route.method} ${route.path}`, status: 400 });
        checked.push(`${route.procedurePath}.${field}`);
      }
    }
    // The walk reached the number fields of the mutations (not an empty table).
    for (const field of [
      'market.trade.quantity',
      'market.trade.product_id',
      'buildings.hireEmployees.count',
      'buildings.transferToStore.retail_price',
      'stores.updatePrice.retail_price',
      'stocks.trade.shares',
      'politics.invest.amount',
      'worlds.create.starting_cash',
      'worlds.update.turn_interval_minutes',
      'worlds.addShock.percent',
      'tokens.create.expires_in_days',
      'warehouse.move.quantity',
      'research.purchase.upgrade_id',
    ]) {
      expect(checked).toContain(field);
    }
  });

  it('a trade or a hire with a number as text writes nothing; the same with a JSON number goes through', async () => {
    const player = await app.createPlayer();
    const before = (await app.api('GET', '/company', { token: player.token })).body;
    const product = (await app.api('GET', '/market/products', { token: player.token })).body[0];
    const trade = await app.api('POST', '/market/trade', { token: player.token, body: { product_id: product.id, quantity: '5', action: 'buy' } });
    expect(trade).toMatchObject({ status: 400, body: { error: 'quantity must be a number, not text: send 5 without quotes' } });
    const build = await app.api('POST', '/buildings', { token: player.token, body: { type: 'Store', city_id: '1' } });
    expect(build).toMatchObject({ status: 400, body: { error: 'city_id must be a number, not text: send 1 without quotes' } });
    const after = (await app.api('GET', '/company', { token: player.token })).body;
    expect(after.cash).toBe(before.cash);
    expect((await app.api('GET', '/buildings', { token: player.token })).body).toEqual([]);

    expect((await app.api('POST', '/market/trade', { token: player.token, body: { product_id: product.id, quantity: 5, action: 'buy' } })).status).toBe(200);
    expect((await app.api('GET', '/company', { token: player.token })).body.cash).toBeLessThan(before.cash);
  });

  it('query strings and path parameters are read as numbers', async () => {
    const player = await app.createPlayer();
    const product = (await app.api('GET', '/market/products', { token: player.token })).body[0];
    const quote = await app.api('GET', `/market/quote?product_id=${product.id}&quantity=5&action=buy`, { token: player.token });
    expect(quote.status).toBe(200);
    expect((await app.api('GET', `/market/products/${product.id}`, { token: player.token })).status).toBe(200);
    expect((await app.api('GET', '/companies?limit=2&offset=0', { token: player.token })).status).toBe(200);
    // Text that spells no number is still refused, naming the field.
    const bad = await app.api('GET', `/market/quote?product_id=${product.id}&quantity=five&action=buy`, { token: player.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/quantity/);
  });
});
