// What a script written from the OpenAPI document and docs/api.md meets: path ids only in the path,
// and paging words that belong to another list refused instead of ignored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/testApp.ts';

describe('API contract for scripts', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('the OpenAPI request bodies leave out the ids the path carries', async () => {
    const document = (await app.api('GET', '/openapi.json')).body;
    const hire = document.paths['/buildings/{id}/hire-employees'].post.requestBody.content['application/json'].schema;
    expect(hire.properties).toEqual({ count: expect.any(Object) });
    expect(hire.required).toEqual(['count']);
    const price = document.paths['/stores/{id}/products/{product_id}'].put.requestBody.content['application/json'].schema;
    expect(Object.keys(price.properties)).toEqual(['retail_price']);
    for (const [path, operations] of Object.entries<Record<string, any>>(document.paths)) {
      for (const operation of Object.values<any>(operations)) {
        const schema = operation.requestBody?.content?.['application/json']?.schema;
        if (!schema) continue;
        for (const name of path.matchAll(/\{(\w+)\}/g)) {
          expect(Object.keys(schema.properties ?? {}), `${path} body`).not.toContain(name[1]);
          expect(schema.required ?? [], `${path} required`).not.toContain(name[1]);
        }
      }
    }
  });

  it('the OpenAPI document tells the unit of a political investment, which the server enforces', async () => {
    const document = (await app.api('GET', '/openapi.json')).body;
    const amount = document.paths['/politics/invest'].post.requestBody.content['application/json'].schema.properties.amount;
    expect(amount).toMatchObject({ type: 'number', multipleOf: 1000, description: 'Dollars: a whole number of units of $1,000.00' });
    const player = await app.createPlayer();
    const country = (await app.api('GET', '/countries', { token: player.token })).body[0];
    const refused = await app.api('POST', '/politics/invest', { token: player.token, body: { country_id: country.id, amount: 1500 } });
    expect(refused).toMatchObject({ status: 400, body: { error: 'Amount must be a whole number of units of $1,000.00' } });
    const invested = await app.api('POST', '/politics/invest', { token: player.token, body: { country_id: country.id, amount: 2000 } });
    expect(invested).toMatchObject({ status: 200, body: { units: 2, amount: 2000 } });
  });

  it('the OpenAPI document gives the whole-number ranges of a class world, which the server enforces', async () => {
    const document = (await app.api('GET', '/openapi.json')).body;
    const create = document.paths['/worlds'].post.requestBody.content['application/json'].schema.properties;
    expect(create.starting_cash).toEqual({ type: 'integer', minimum: 1000, maximum: 10_000_000, default: 100_000 });
    expect(create.bots).toEqual({ type: 'integer', minimum: 0, maximum: 25, default: 10 });
    expect(create.max_players).toEqual({ type: 'integer', minimum: 1, maximum: 200, default: 200 });
    const interval = { anyOf: [{ type: 'integer', minimum: 1, maximum: 1440 }, { type: 'null' }] };
    expect(create.turn_interval_minutes).toEqual({ ...interval, default: null });
    const clock = document.paths['/worlds/{id}'].patch.requestBody.content['application/json'].schema.properties;
    expect(clock.turn_interval_minutes).toEqual(interval);
    const shock = document.paths['/worlds/{id}/shocks'].post.requestBody.content['application/json'].schema.properties;
    expect(shock.percent).toEqual({ type: 'integer', minimum: -90, maximum: 200, not: { const: 0 } });
    expect(shock.weeks).toMatchObject({ type: 'integer', minimum: 1 });
    const teacher = await app.createPlayer();
    const tooMany = await app.api('POST', '/worlds', { token: teacher.token, body: { name: 'Econ 101', bots: 26 } });
    expect(tooMany).toMatchObject({ status: 400, body: { error: 'Bots must be between 0 and 25' } });
    const half = await app.api('POST', '/worlds', { token: teacher.token, body: { name: 'Econ 101', starting_cash: 100_000.5 } });
    expect(half).toMatchObject({ status: 400, body: { error: 'Starting cash must be whole dollars' } });
  });

  it('path parameters carry their input schema: an id is a bounded integer, an export kind a word', async () => {
    const document = (await app.api('GET', '/openapi.json')).body;
    const [id, kind] = document.paths['/worlds/{id}/export/{kind}'].get.parameters;
    expect(id).toMatchObject({ name: 'id', in: 'path', required: true, schema: { type: 'integer', maximum: 2147483647 } });
    expect(kind).toMatchObject({ name: 'kind', in: 'path', required: true, schema: { type: 'string' } });
    expect(kind.schema.enum).toContain('companies');
    const hire = document.paths['/buildings/{id}/hire-employees'].post.parameters[0];
    expect(hire.schema).toMatchObject({ type: 'integer', maximum: 2147483647 });
  });

  it('a body naming another id than the path is refused, and nothing is hired; the same id or none works', async () => {
    const player = await app.createPlayer({ cash: 1_000_000 });
    const city = (await app.api('GET', '/cities', { token: player.token })).body[0];
    const build = async () => (await app.api('POST', '/buildings', { token: player.token, body: { type: 'farm', city_id: city.id } })).body;
    const first = await build();
    const second = await build();

    const conflicting = await app.api('POST', `/buildings/${second.id}/hire-employees`, { token: player.token, body: { id: first.id, count: 2 } });
    expect(conflicting).toMatchObject({ status: 400, body: { error: `id is ${second.id} in the path but ${first.id} in the body: send it in the path only` } });
    const query = await app.api('GET', `/buildings/${second.id}?id=${first.id}`, { token: player.token });
    expect(query).toMatchObject({ status: 400, body: { error: `id is ${second.id} in the path but "${first.id}" in the query: send it in the path only` } });
    const buildings = (await app.api('GET', '/buildings', { token: player.token })).body;
    expect(buildings.map((building: { employees: number }) => building.employees)).toEqual([first.employees, second.employees]);

    const pathOnly = await app.api('POST', `/buildings/${second.id}/hire-employees`, { token: player.token, body: { count: 2 } });
    expect(pathOnly).toMatchObject({ status: 200, body: { id: second.id, employees: second.employees + 2 } });
    const sameId = await app.api('POST', `/buildings/${second.id}/hire-employees`, { token: player.token, body: { id: second.id, count: 1 } });
    expect(sameId).toMatchObject({ status: 200, body: { id: second.id, employees: second.employees + 3 } });
    expect((await app.api('GET', `/buildings/${first.id}`, { token: player.token })).body.employees).toBe(first.employees);
  });

  it('a path id that is not a number is named in the error, once', async () => {
    const player = await app.createPlayer();
    const word = await app.api('GET', '/buildings/abc', { token: player.token });
    expect(word).toMatchObject({ status: 400, body: { error: 'id must be a number' } });
    const store = await app.api('GET', '/stores/abc/products', { token: player.token });
    expect(store).toMatchObject({ status: 400, body: { error: 'id must be a number' } });
    const huge = await app.api('GET', '/buildings/99999999999', { token: player.token });
    expect(huge).toMatchObject({ status: 400, body: { error: 'This id does not exist' } });
  });

  it('a known path with another method answers 405 with Allow; an unknown path stays 404', async () => {
    const player = await app.createPlayer();
    const wrong = await app.api('PUT', '/stores/1/products/2/toggle', { token: player.token, body: { is_active: true } });
    expect(wrong).toMatchObject({ status: 405, body: { error: 'PUT is not allowed on /api/stores/1/products/2/toggle: it takes PATCH' } });
    expect(wrong.headers.get('allow')).toBe('PATCH');
    const goods = await app.api('DELETE', '/goods', { token: player.token });
    expect(goods).toMatchObject({ status: 405, body: { error: 'DELETE is not allowed on /api/goods: it takes GET' } });
    const buildings = await app.api('PATCH', '/buildings', { token: player.token });
    expect(buildings.headers.get('allow')).toBe('GET, POST');
    expect(await app.api('GET', '/nope', { token: player.token })).toMatchObject({ status: 404, body: { error: 'No such API route: GET /api/nope' } });
  });

  it('a body over 64 KB is refused with 413 before it is read, and the document says so on every route that takes a body', async () => {
    const player = await app.createPlayer();
    const before = (await app.api('GET', '/company', { token: player.token })).body.cash;
    const big = await app.api('POST', '/market/trade', { token: player.token, body: { product_id: 1, quantity: 1, action: 'buy', note: 'x'.repeat(70_000) } });
    expect(big).toMatchObject({ status: 413, body: { error: 'The request body is too large (at most 64 KB)' } });
    expect((await app.api('GET', '/company', { token: player.token })).body.cash).toBe(before);
    const document = (await app.api('GET', '/openapi.json')).body;
    let withBody = 0;
    for (const [path, operations] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        if (!operation.requestBody) continue;
        withBody += 1;
        expect(operation.responses['413']?.content, `${method.toUpperCase()} ${path}`).toEqual({
          'application/json': { schema: { $ref: '#/components/schemas/Error' } },
        });
      }
    }
    expect(document.paths['/market/trade'].post.responses['413']).toBeDefined();
    expect(withBody).toBeGreaterThan(40);
  });

  it('a query word given twice is refused, not read as its first value', async () => {
    const player = await app.createPlayer();
    const twice = await app.api('GET', '/market/quote?product_id=1&quantity=5&action=buy&product_id=2', { token: player.token });
    expect(twice).toMatchObject({ status: 400, body: { error: 'product_id is given 2 times in the query: send it once' } });
    const orders = await app.api('GET', '/exchange/orders?status=open&status=filled', { token: player.token });
    expect(orders).toMatchObject({ status: 400, body: { error: 'status is given 2 times in the query: send it once' } });
    const once = await app.api('GET', '/market/quote?product_id=1&quantity=5&action=buy', { token: player.token });
    expect(once).toMatchObject({ status: 200, body: { product_id: 1, quantity: 5 } });
  });

  it('the ledger refuses limit and offset (its paging is page and page_size) instead of answering page 1', async () => {
    const player = await app.createPlayer();
    const message = 'This list pages with page and page_size (limit and offset are for the lists of companies)';
    expect(await app.api('GET', '/transactions?limit=5', { token: player.token })).toMatchObject({ status: 400, body: { error: message } });
    expect(await app.api('GET', '/transactions?offset=25', { token: player.token })).toMatchObject({ status: 400, body: { error: message } });
    const page = await app.api('GET', '/transactions?page=1&page_size=5', { token: player.token });
    expect(page).toMatchObject({ status: 200, body: { page: 1, page_size: 5 } });
    expect(Array.isArray(page.body.items)).toBe(true);
  });
});
