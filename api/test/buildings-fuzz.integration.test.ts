import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/testApp.ts';
import { createProductionWorld } from './helpers/productionFixtures.ts';

/** Every route of this domain with hostile ids and bodies: never a 500. */
describe('buildings, stores, market and catalog routes never answer 500 to client input', () => {
  let app: TestApp;
  let token: string;
  let store: number;
  beforeAll(async () => {
    app = await startTestApp();
    const world = await createProductionWorld(app.database.db);
    token = (await app.createPlayer({ cash: 100_000 })).token;
    store = (await app.api('POST', '/buildings', { token, body: { type: 'store', city_id: world.city.id } })).body.id;
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers 4xx to hostile ids and bodies', async () => {
    const ids = ['0', '-1', '1.5', 'abc', '99999999999', '1e3', '%20', String(Number.MAX_SAFE_INTEGER), '00001'];
    const bodies: unknown[] = [
      undefined,
      {},
      [],
      'null',
      '{"count":',
      { count: Infinity },
      { count: '1e2' },
      { quantity: 1e20, product_id: 1, action: 'buy', retail_price: 1e20 },
      { product_id: 99999999999, quantity: 1, action: 'buy' },
      { product_id: 1, quantity: 1, action: 'buy', recipe_id: 99999999999, category: null, type: {}, city_id: 99999999999 },
      { new_rate: true, target_level: [3], is_active: 'true', retail_price: '' },
    ];
    const routes: Array<[string, (id: string) => string]> = [
      ['GET', (id) => `/buildings/${id}`],
      ['POST', (id) => `/buildings/${id}/hire-employees`],
      ['POST', (id) => `/buildings/${id}/upgrade-equipment`],
      ['PUT', (id) => `/buildings/${id}/production-rate`],
      ['PUT', (id) => `/buildings/${id}/select-recipe`],
      ['PUT', (id) => `/buildings/${id}/select-category`],
      ['POST', (id) => `/buildings/${id}/sell`],
      ['GET', (id) => `/buildings/${id}/inventory`],
      ['POST', (id) => `/buildings/${id}/inventory/purchase`],
      ['POST', (id) => `/buildings/${id}/inventory/transfer-to-store`],
      ['GET', (id) => `/stores/${id}/products`],
      ['PUT', (id) => `/stores/${store}/products/${id}`],
      ['PATCH', (id) => `/stores/${id}/products/${id}/toggle`],
      ['DELETE', (id) => `/stores/${store}/products/${id}`],
      ['GET', (id) => `/cities/${id}/market-data`],
      ['POST', () => '/buildings'],
      ['POST', () => '/market/trade'],
      ['GET', () => '/recipes?building_type=%00'],
    ];
    const requests: Array<() => Promise<void>> = [];
    for (const [method, path] of routes) {
      for (const id of ids) {
        for (const body of method === 'GET' || method === 'DELETE' ? [undefined] : bodies) {
          requests.push(async () => {
            const response = await app.api(method, path(id), { token, body });
            expect(response.status, `${method} ${path(id)} ${JSON.stringify(body)} -> ${JSON.stringify(response.body)}`).toBeLessThan(500);
          });
        }
      }
    }
    // 8 at a time, as a player's open tabs and scripts would send them (one after the other they
    // took over 60 s on a busy machine); concurrent requests must not answer 500 either.
    for (let start = 0; start < requests.length; start += 8) await Promise.all(requests.slice(start, start + 8).map((send) => send()));
  }, 120_000);
});
