import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { worldProducts, type Database } from '@marketcraft/db';
import { centsToDollars, marketBuyCostRule, marketSellProceedsRule } from '@marketcraft/shared';
import { startTestApp, type TestApp } from './helpers/testApp.ts';
import { createProductionWorld, type ProductionWorld } from './helpers/productionFixtures.ts';

describe('catalog: goods, recipes, cities, market data', () => {
  let app: TestApp;
  let db: Database;
  let world: ProductionWorld;
  let token: string;
  beforeAll(async () => {
    app = await startTestApp();
    db = app.database.db;
    world = await createProductionWorld(db);
    token = (await app.createPlayer()).token;
  });
  afterAll(async () => {
    await app.close();
  });

  /** A product's exchange state: posted price, depth, this week's flow. */
  async function exchange(productId: number) {
    const [row] = await db.execute<{ price: number; depth: number; flow: number }>(sql`
      select wp.current_price_cents as price, p.depth_units as depth,
             coalesce((select units_bought - units_sold from market_activity where world_id = 1 and product_id = p.id and week = (select current_week from worlds)), 0) as flow
      from products p join world_products wp on wp.world_id = 1 and wp.product_id = p.id where p.id = ${productId}`);
    return { price: Number(row!.price), depth: Number(row!.depth), flow: Number(row!.flow) };
  }

  it('lists every product with prices in dollars and the price change percent', async () => {
    await db
      .update(worldProducts)
      .set({ currentPriceCents: 230 })
      .where(and(eq(worldProducts.worldId, 1), eq(worldProducts.productId, world.wheat.id)));
    const response = await app.api('GET', '/goods', { token });
    expect(response.status).toBe(200);
    const wheat = response.body.find((good: { id: number }) => good.id === world.wheat.id);
    expect(wheat).toEqual({
      id: world.wheat.id,
      name: world.wheat.name,
      category: 'Agricultural',
      subcategory: 'Fixture',
      current_price: 2.3,
      base_price: 2,
      price_change_percent: 15,
      // One unit on the exchange now, nothing traded this week (posted $2.30, depth 4,000):
      // the curve gives 230 x 4,000 x (e^(1/4000) - 1) = 230.03 cents; buying adds the 2.5% half-spread
      // (235.78, rounded up: $2.36), selling walks down to 229.97 and takes it off (224.22, rounded down: $2.24).
      buy_price: 2.36,
      sell_price: 2.24,
    });
    expect(
      response.body.every((good: Record<string, unknown>) => typeof good.current_price === 'number' && typeof good.price_change_percent === 'number'),
    ).toBe(true);
    await db
      .update(worldProducts)
      .set({ currentPriceCents: world.wheat.priceCents })
      .where(and(eq(worldProducts.worldId, 1), eq(worldProducts.productId, world.wheat.id)));
  });

  it('answers each trade and each price move at once (the list is kept between them)', async () => {
    const wheatOf = async () => (await app.api('GET', '/goods', { token })).body.find((good: { id: number }) => good.id === world.wheat.id);
    const expected = async () => {
      const state = await exchange(world.wheat.id);
      return {
        current_price: centsToDollars(state.price),
        buy_price: centsToDollars(marketBuyCostRule.evaluate({ ...state, quantity: 1 })),
        sell_price: centsToDollars(marketSellProceedsRule.evaluate({ ...state, quantity: 1 })),
      };
    };
    const before = await wheatOf();
    expect(await wheatOf()).toEqual(before);
    // A trade moves the week's flow, so the one-unit prices: the next answer shows it.
    const trade = await app.api('POST', '/market/trade', { token, body: { product_id: world.wheat.id, quantity: 400, action: 'buy' } });
    expect(trade.status).toBe(200);
    const afterTrade = await wheatOf();
    expect(afterTrade.buy_price).toBeGreaterThan(before.buy_price);
    expect(afterTrade).toMatchObject(await expected());
    // A posted price moved mid-week (an instructor's price shock does this) shows at once too.
    await db
      .update(worldProducts)
      .set({ currentPriceCents: 260 })
      .where(and(eq(worldProducts.worldId, 1), eq(worldProducts.productId, world.wheat.id)));
    const afterMove = await wheatOf();
    expect(afterMove.current_price).toBe(2.6);
    expect(afterMove).toMatchObject(await expected());
    await db
      .update(worldProducts)
      .set({ currentPriceCents: world.wheat.priceCents })
      .where(and(eq(worldProducts.worldId, 1), eq(worldProducts.productId, world.wheat.id)));
  });

  it('answers trades sent together, a new week and a rolled-back change as they are (the kept list follows the price version)', async () => {
    const wheatOf = async () => (await app.api('GET', '/goods', { token })).body.find((good: { id: number }) => good.id === world.wheat.id);
    const expected = async () => {
      const state = await exchange(world.wheat.id);
      return { buy_price: centsToDollars(marketBuyCostRule.evaluate({ ...state, quantity: 1 })) };
    };
    const versionOf = async () =>
      Number(
        (await db.execute<{ version: number }>(sql`select coalesce((select version from world_price_versions where world_id = 1), 0) as version`))[0]!.version,
      );
    const before = await wheatOf();
    // Trades sent at once go together in one transaction (actTogether): one new version, every unit counted.
    const traders = [token, ...(await Promise.all([1, 2, 3].map(async () => (await app.createPlayer()).token)))];
    const versionBefore = await versionOf();
    const trades = await Promise.all(
      traders.map((trader) => app.api('POST', '/market/trade', { token: trader, body: { product_id: world.wheat.id, quantity: 100, action: 'buy' } })),
    );
    expect(trades.map((trade) => trade.status)).toEqual([200, 200, 200, 200]);
    expect(await versionOf()).toBeGreaterThan(versionBefore);
    const afterTrades = await wheatOf();
    expect(afterTrades.buy_price).toBeGreaterThan(before.buy_price);
    expect(afterTrades).toMatchObject(await expected());
    // A change that is rolled back raises nothing and shows nothing.
    const versionKept = await versionOf();
    await db
      .transaction(async (tx) => {
        await tx
          .update(worldProducts)
          .set({ currentPriceCents: 999 })
          .where(and(eq(worldProducts.worldId, 1), eq(worldProducts.productId, world.wheat.id)));
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await versionOf()).toBe(versionKept);
    expect(await wheatOf()).toEqual(afterTrades);
    // A new week starts with no flow (the turn moves the week): the curve is back at the posted price.
    await db.execute(sql`update worlds set current_week = current_week + 1 where id = 1`);
    try {
      const newWeek = await wheatOf();
      expect(newWeek.buy_price).toBeLessThan(afterTrades.buy_price);
      expect(newWeek).toMatchObject(await expected());
    } finally {
      await db.execute(sql`update worlds set current_week = current_week - 1 where id = 1`);
    }
    expect(await wheatOf()).toEqual(afterTrades);
  });

  /** GET /api/goods as a script sends it, with the bytes as they come (fetch would unpack a gzip body itself). */
  function rawGoods(headers: Record<string, string>) {
    return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }>((resolve, reject) => {
      const call = request(`${app.baseUrl}/api/goods`, { headers: { authorization: `Bearer ${token}`, ...headers } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, bytes: Buffer.concat(chunks) }));
        response.on('error', reject);
      });
      call.on('error', reject);
      call.end();
    });
  }

  it('sends the kept list gzipped to a caller that accepts gzip, and answers 304 to one that has it until a trade changes it', async () => {
    const plain = await rawGoods({});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const list = JSON.parse(plain.bytes.toString('utf8')) as { id: number; buy_price: number }[];
    expect(list.length).toBeGreaterThan(0);
    const etag = plain.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(plain.headers.vary).toBe('Accept-Encoding');

    // What browsers and Python's requests ask for: the same list in far fewer bytes, the same ETag.
    const zipped = await rawGoods({ 'accept-encoding': 'gzip, deflate' });
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.bytes.length).toBeLessThan(plain.bytes.length / 3);
    expect(JSON.parse(gunzipSync(zipped.bytes).toString('utf8'))).toEqual(list);
    expect(zipped.headers.etag).toBe(etag);
    // gzip refused with q=0: the plain bytes.
    expect((await rawGoods({ 'accept-encoding': 'gzip;q=0, identity' })).headers['content-encoding']).toBeUndefined();

    // A caller that has this list hears so, with no body.
    const unchanged = await rawGoods({ 'if-none-match': etag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.bytes.length).toBe(0);

    // A trade moves wheat's price: the same If-None-Match now gets the new list and a new ETag.
    const trade = await app.api('POST', '/market/trade', { token, body: { product_id: world.wheat.id, quantity: 50, action: 'buy' } });
    expect(trade.status).toBe(200);
    const changed = await rawGoods({ 'if-none-match': etag, 'accept-encoding': 'gzip' });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    const wheatOf = (goods: { id: number; buy_price: number }[]) => goods.find((good) => good.id === world.wheat.id)!;
    expect(wheatOf(JSON.parse(gunzipSync(changed.bytes).toString('utf8'))).buy_price).toBeGreaterThan(wheatOf(list).buy_price);
  });

  it('lists recipes with their inputs, optionally by building type', async () => {
    const response = await app.api('GET', '/recipes', { token });
    expect(response.status).toBe(200);
    const mill = response.body.find((recipe: { id: number }) => recipe.id === world.millRecipeId);
    expect(mill).toEqual({
      id: world.millRecipeId,
      building_type: 'mill',
      output_product_id: world.flour.id,
      output_product_name: world.flour.name,
      output_quantity: 50,
      inputs: [{ product_id: world.wheat.id, product_name: world.wheat.name, quantity: 100 }],
    });
    const farm = response.body.find((recipe: { id: number }) => recipe.id === world.farmRecipeId);
    expect(farm.inputs).toEqual([]);
    const bakeries = await app.api('GET', '/recipes?building_type=bakery', { token });
    expect(bakeries.status).toBe(200);
    expect(bakeries.body.length).toBeGreaterThan(0);
    expect(bakeries.body.every((recipe: { building_type: string }) => recipe.building_type.toLowerCase() === 'bakery')).toBe(true);
    expect(bakeries.body.map((recipe: { id: number }) => recipe.id)).toContain(world.bakeryRecipeId);
    expect((await app.api('GET', '/recipes?building_type=castle', { token })).status).toBe(400);
  });

  it('lists cities with country and bonus, and a city market data', async () => {
    const cities = await app.api('GET', '/cities', { token });
    expect(cities.status).toBe(200);
    expect(cities.body).toContainEqual({
      id: world.city.id,
      name: world.city.name,
      country_id: world.countryId,
      country_name: expect.stringContaining('Fixtureland'),
      bonus_type: 'agricultural',
      bonus_value: 15,
    });
    const market = await app.api('GET', `/cities/${world.city.id}/market-data`, { token });
    expect(market.status).toBe(200);
    expect(market.body).toEqual([
      { product_id: world.wheat.id, product_name: world.wheat.name, category: 'Agricultural', demand_level: 60, market_price: 2.5 },
      { product_id: world.flour.id, product_name: world.flour.name, category: 'Processed Materials', demand_level: 60, market_price: 5.5 },
      { product_id: world.bread.id, product_name: world.bread.name, category: 'Food Products', demand_level: 60, market_price: 4.5 },
    ]);
    expect(await app.api('GET', '/cities/999999/market-data', { token })).toMatchObject({ status: 404, body: { error: 'City not found' } });
    expect((await app.api('GET', '/cities/abc/market-data', { token })).status).toBe(400);
    expect((await app.api('GET', '/cities/-4/market-data', { token })).status).toBe(400);
  });

  it('needs a session for every catalog read', async () => {
    for (const path of ['/goods', '/recipes', '/cities', `/cities/${world.city.id}/market-data`, '/inventory', '/buildings']) {
      expect((await app.api('GET', path)).status, path).toBe(401);
    }
  });
});
