/**
 * What a player who tries to break the rules with odd input meets (the second attacker audit,
 * docs/api.md): each refusal is a clear 4xx with the rule's message and writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_NAME_INVISIBLE_MESSAGE, isConsumerGood } from '@marketcraft/shared';
import { startTestApp, type TestApp } from './helpers/testApp.ts';

describe('names a player types', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  // trim() keeps these: a name of only them showed as a blank line on the leaderboard.
  const invisible = ['\u200b', '\u200b\u200c\u200d', '\ufeff\u2060', ' \u3164 ', '\u00ad'];
  // "\u202Eevil Corp" reads "proC live" on screen: a name posing as another.
  const bidiOverrides = ['\u202Eevil Corp', 'Acme\u202D', 'Acme \u2066Corp\u2069', '\u202Bx'];

  it('a company name of invisible characters is empty, one with a bidirectional override is refused; nothing is saved', async () => {
    const player = await app.createPlayer({ name: 'Steady Co' });
    for (const name of invisible) {
      const answer = await app.api('PATCH', '/company/profile', { token: player.token, body: { name } });
      expect(answer.status, JSON.stringify(name)).toBe(400);
      expect(answer.body).toEqual({ error: 'Company name cannot be empty' });
    }
    for (const name of bidiOverrides) {
      const answer = await app.api('PATCH', '/company/profile', { token: player.token, body: { name } });
      expect(answer.status, JSON.stringify(name)).toBe(400);
      expect(answer.body).toEqual({ error: 'Company name cannot contain control characters' });
    }
    expect((await app.api('GET', '/company', { token: player.token })).body.name).toBe('Steady Co');
    // Real names in any script and emoji with joiners pass; a zero-width space inside a name does
    // not (a look-alike of another name: api/test/companyNames.integration.test.ts).
    expect((await app.api('PATCH', '/company/profile', { token: player.token, body: { name: 'Zero\u200bWidth' } })).body).toEqual({
      error: COMPANY_NAME_INVISIBLE_MESSAGE,
    });
    for (const name of ['שלום Trading', 'شركة النور', '👨‍👩‍👧 Family Farms']) {
      const answer = await app.api('PATCH', '/company/profile', { token: player.token, body: { name } });
      expect(answer.status, name).toBe(200);
      expect(answer.body.name).toBe(name);
    }
  });

  it('the same rules hold for world, token and announcement texts', async () => {
    const teacher = await app.createPlayer();
    for (const name of invisible) {
      expect((await app.api('POST', '/worlds', { token: teacher.token, body: { name } })).body, JSON.stringify(name)).toEqual({
        error: 'World name cannot be empty',
      });
      expect((await app.api('POST', '/tokens', { token: teacher.token, body: { name, scope: 'read' } })).body).toEqual({ error: 'Token name cannot be empty' });
    }
    expect((await app.api('POST', '/worlds', { token: teacher.token, body: { name: '\u202Eclass' } })).body).toEqual({
      error: 'World name cannot contain control characters',
    });
    expect((await app.api('POST', '/tokens', { token: teacher.token, body: { name: '\u202Ebot', scope: 'read' } })).body).toEqual({
      error: 'Token name cannot contain control characters',
    });
    expect((await app.api('GET', '/worlds', { token: teacher.token })).body.filter((world: { kind: string }) => world.kind === 'private')).toEqual([]);
    expect((await app.api('GET', '/tokens', { token: teacher.token })).body.tokens).toEqual([]);

    const world = await app.api('POST', '/worlds', { token: teacher.token, body: { name: 'Econ 101' } });
    expect(world.status).toBe(200);
    const announce = (message: string) => app.api('POST', `/worlds/${world.body.id}/announcements`, { token: teacher.token, body: { message } });
    expect((await announce('\u200b\n\u200b')).body).toEqual({ error: 'Announcement cannot be empty' });
    expect((await announce('Quiz on \u202Efriday')).body).toEqual({ error: 'Announcement cannot contain control characters' });
    expect((await announce('Quiz on Friday\nBring notes')).status).toBe(200);
  });
});

describe('quotes promise only what a trade would do', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it("a quote for your own company's shares answers the trade's refusal, not a price", async () => {
    const player = await app.createPlayer();
    const refusal = { error: "You cannot trade your own company's shares" };
    for (const action of ['buy', 'sell']) {
      const quote = await app.api('GET', `/stocks/quote?company_id=${player.companyId}&shares=10&action=${action}`, { token: player.token });
      expect(quote.status, action).toBe(422);
      expect(quote.body).toEqual(refusal);
      const trade = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: player.companyId, shares: 10, action } });
      expect(trade.status, action).toBe(422);
      expect(trade.body).toEqual(refusal);
    }
  });
});

describe('prices in whole cents', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('refuses a fraction of a cent however small, and keeps the price; floating-point noise passes', async () => {
    const player = await app.createPlayer();
    const cities = (await app.api('GET', '/cities', { token: player.token })).body;
    const store = (await app.api('POST', '/buildings', { token: player.token, body: { type: 'store', city_id: cities[0].id } })).body;
    // Stores sell consumer goods: the cheapest one.
    const goods: Array<{ id: number; category: string; current_price: number }> = (await app.api('GET', '/goods', { token: player.token })).body;
    const good = goods.filter((product) => isConsumerGood(product.category)).sort((a, b) => a.current_price - b.current_price)[0]!;
    expect(
      (await app.api('POST', `/buildings/${store.id}/inventory/purchase`, { token: player.token, body: { product_id: good.id, quantity: 5 } })).status,
    ).toBe(200);
    const shelved = await app.api('POST', `/buildings/${store.id}/inventory/transfer-to-store`, {
      token: player.token,
      body: { product_id: good.id, quantity: 2, retail_price: 40 },
    });
    expect(shelved.status, JSON.stringify(shelved.body)).toBe(200);
    for (const retail_price of [4.350000001, 4.3500001, 0.010000001, 99.999999999]) {
      const priced = await app.api('PUT', `/stores/${store.id}/products/${good.id}`, { token: player.token, body: { retail_price } });
      expect(priced.status, String(retail_price)).toBe(400);
      expect(priced.body.error).toContain('Please enter a valid price');
      const moved = await app.api('POST', `/buildings/${store.id}/inventory/transfer-to-store`, {
        token: player.token,
        body: { product_id: good.id, quantity: 1, retail_price },
      });
      expect(moved.status, String(retail_price)).toBe(400);
    }
    const shelf = (await app.api('GET', `/stores/${store.id}/products`, { token: player.token })).body;
    expect(shelf).toEqual([expect.objectContaining({ product_id: good.id, quantity: 2, retail_price: 40 })]);
    // What a script's arithmetic gives for whole cents still reads as those cents.
    for (const [retail_price, cents] of [
      [0.1 + 0.2, 0.3],
      [12.34 * 1.5 + 0.0, 18.51],
      [4.35, 4.35],
      [999_999_999.99, 999_999_999.99],
    ] as const) {
      const priced = await app.api('PUT', `/stores/${store.id}/products/${good.id}`, { token: player.token, body: { retail_price } });
      expect(priced.status, String(retail_price)).toBe(200);
      expect(priced.body.retail_price).toBe(cents);
    }
  });
});
