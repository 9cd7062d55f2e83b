/**
 * The 400s a player or a script reads (docs/api.md, "Errors"): one sentence, the spec's words
 * verbatim where it gives them, otherwise naming the field; never zod's 'Invalid input: expected
 * number, received undefined' nor a 'field: ' prefix. The same message over REST and tRPC.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/testApp.ts';

/** A tRPC error answer: the message under error. */
type TrpcError = { error: { message: string } };

describe('validation messages', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('read as one sentence on every kind of route, the spec messages verbatim', async () => {
    const player = await app.createPlayer({ cash: 1_000_000 });
    const token = player.token;
    const city = (await app.api('GET', '/cities', { token })).body[0];
    const farm = (await app.api('POST', '/buildings', { token, body: { type: 'farm', city_id: city.id } })).body;
    const cases: [string, string, unknown, string][] = [
      // The spec's messages (section 5), without a field in front.
      ['POST', `/buildings/${farm.id}/hire-employees`, { count: 11 }, 'Please enter a number between 1 and 10'],
      ['POST', `/buildings/${farm.id}/upgrade-equipment`, { target_level: 9 }, 'Please select a valid level (2-5)'],
      ['PUT', `/buildings/${farm.id}/production-rate`, { new_rate: 5 }, 'Production rate must be between 10 and 200'],
      ['PATCH', '/company/profile', { name: '   ' }, 'Company name cannot be empty'],
      ['PATCH', '/company/profile', { name: 'Acme', bio: 'x'.repeat(501) }, 'Bio must be 500 characters or less'],
      // Our rules' own messages, also without a prefix.
      ['POST', '/politics/invest', { country_id: 1, amount: 1000, platform: 'none' }, 'Platform must be lower_taxes or higher_taxes'],
      ['POST', '/tokens', { name: 'bot', scope: 'read', expires_in_days: 0 }, 'Expiry must be at least 1 day'],
      // Fields without a message of their own: named, in words.
      ['POST', '/market/trade', { product_id: 1, action: 'buy' }, 'Required: quantity'],
      ['POST', '/market/trade', { product_id: 1, quantity: 0, action: 'buy' }, 'quantity must be at least 1'],
      ['POST', '/market/trade', { product_id: 1, quantity: 1.5, action: 'buy' }, 'quantity must be a whole number'],
      ['POST', '/market/trade', { product_id: 1, quantity: 1, action: 'steal' }, 'action must be one of: buy, sell'],
      ['POST', '/stocks/trade', { company_id: 1, shares: 1 }, 'Required: action'],
      ['POST', '/buildings', { city_id: city.id }, 'Required: type'],
      ['PATCH', '/company/profile', { name: 5 }, 'name must be text'],
      ['PATCH', '/company/profile', { name: 'x'.repeat(81) }, 'Company name must be 80 characters or less'],
      ['GET', '/buildings/abc', undefined, 'id must be a number'],
      ['GET', '/transactions?page=0', undefined, 'page must be at least 1'],
      ['GET', '/transactions?type=gift', undefined, 'type must be one of: production, sale, purchase, stock_trade, building, other'],
    ];
    for (const [method, path, body, error] of cases) {
      const answer = await app.api(method, path, { token, body });
      expect({ request: `${method} ${path} ${JSON.stringify(body)}`, status: answer.status, body: answer.body }).toEqual({
        request: `${method} ${path} ${JSON.stringify(body)}`,
        status: 400,
        body: { error },
      });
    }
  });

  it('tRPC answers the same message as REST', async () => {
    const player = await app.createPlayer();
    const response = await fetch(`${app.baseUrl}/api/trpc/market.trade`, {
      method: 'POST',
      headers: { authorization: `Bearer ${player.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ product_id: 1, quantity: 0, action: 'buy' }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as TrpcError).error.message).toBe('quantity must be at least 1');
    const hire = await fetch(`${app.baseUrl}/api/trpc/buildings.hireEmployees`, {
      method: 'POST',
      headers: { authorization: `Bearer ${player.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 1, count: '5' }),
    });
    expect(hire.status).toBe(400);
    // The schema's own message (the spec's): a JSON body's "5" is no number over tRPC either.
    expect(((await hire.json()) as TrpcError).error.message).toBe('Please enter a number between 1 and 10');
  });
});
