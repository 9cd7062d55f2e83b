/**
 * The market's table and product page (GET /api/market/products, /api/market/products/{id}) and
 * the stock exchange's table (GET /api/stocks/overview), over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { productPriceHistory, shareRecords, stockPriceHistory, type Database } from '@marketcraft/db';
import { baseDemandRule, centsToDollars, referencePriceRule } from '@marketcraft/shared';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';
import { createProductionWorld, type ProductionWorld } from './helpers/productionFixtures.ts';

describe('the market table, a product page and the stock table', () => {
  let app: TestApp;
  let db: Database;
  let world: ProductionWorld;
  let player: TestPlayer;

  beforeAll(async () => {
    app = await startTestApp();
    db = app.database.db;
    world = await createProductionWorld(db);
    player = await app.createPlayer({ cash: 100_000 });
    // Three weeks of history for flour: 4.00, 4.60, then this week's current price 5.00.
    await db.execute(sql`update worlds set current_week = 3 where id = 1`);
    await db.insert(productPriceHistory).values([
      { worldId: 1, productId: world.flour.id, week: 1, priceCents: 400 },
      { worldId: 1, productId: world.flour.id, week: 2, priceCents: 460 },
    ]);
    await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.flour.id, quantity: 12, action: 'buy' } });
  });
  afterAll(async () => {
    await db.execute(sql`update worlds set current_week = 1 where id = 1`);
    await app.close();
  });

  /** What shoppers in a city expect to pay for a product at its base price (the weekly demand's yardstick, baseDemandRule). */
  async function baseReferenceCents(productId: number, cityId: number): Promise<number> {
    const [row] = await db.execute<{ base: number; factor: number }>(sql`
      select p.base_price_cents as base, cmd.price_factor_bp as factor from products p
      join city_market_data cmd on cmd.product_id = p.id and cmd.world_id = 1 and cmd.city_id = ${cityId} where p.id = ${productId}`);
    return referencePriceRule.evaluate({ marketPriceCents: Number(row!.base), cityFactorBp: Number(row!.factor) });
  }

  /**
   * One flour on the exchange after this week's 12 bought (posted $5.00, depth 2,000): the next unit
   * walks the curve from 12 to 13, 1,000,000 x (e^(13/2000) - e^(12/2000)) = 503.13 cents, plus the
   * 2.5% half-spread: 515.71, rounded up, $5.16; selling one walks it from 12 down to 11, 502.88
   * cents, less the half-spread: 490.31, rounded down, $4.90.
   */
  const flourUnitPrices = { buy_price: 5.16, sell_price: 4.9 };

  it("lists every product with buy and sell price, this week's change, its sparkline and what you hold", async () => {
    const response = await app.api('GET', '/market/products', { token: player.token });
    expect(response.status).toBe(200);
    const [productCount] = await db.execute<{ n: number }>(sql`select count(*)::int as n from products`);
    expect(response.body).toHaveLength(productCount!.n);
    const flour = response.body.find((product: { id: number }) => product.id === world.flour.id);
    expect(flour).toEqual({
      id: world.flour.id,
      name: world.flour.name,
      category: 'Processed Materials',
      subcategory: 'Fixture',
      // 12 bought this week: the next unit costs a little more than the posted $5.00.
      ...flourUnitPrices,
      current_price: 5,
      base_price: 5,
      change_percent: 8.7, // 4.60 -> 5.00
      sparkline: [4, 4.6, 5],
      held: 12,
    });
    // No recorded week before this one: no change yet, a one-point sparkline, nothing held.
    const bread = response.body.find((product: { id: number }) => product.id === world.bread.id);
    expect(bread).toMatchObject({ change_percent: null, sparkline: [4], held: 0 });
  });

  it('answers one product: its weekly history, its price in each city, the recipes that make it and use it', async () => {
    const response = await app.api('GET', `/market/products/${world.flour.id}`, { token: player.token });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: world.flour.id, ...flourUnitPrices, held: 12, change_percent: 8.7 });
    expect(response.body.sparkline).toBeUndefined();
    expect(response.body.history).toEqual([
      { week: 1, price: 4 },
      { week: 2, price: 4.6 },
      { week: 3, price: 5 },
    ]);
    // No store sells flour: every shopper of the city's weekly demand is unserved.
    const flourDemand = async (population: number, demandLevel: number) =>
      baseDemandRule.evaluate({
        population,
        demandLevel,
        baseReferenceCents: await baseReferenceCents(world.flour.id, population === 200_000 ? world.retailCity.id : world.city.id),
      });
    const unserved = (weekly: number) => ({ weekly_demand: weekly, stores_selling: 0, sold_last_week: 0, unserved_demand: weekly });
    expect(response.body.cities).toEqual([
      {
        city_id: world.retailCity.id,
        city_name: world.retailCity.name,
        country_name: expect.any(String),
        market_price: 5.6,
        demand_level: 80,
        ...unserved(await flourDemand(200_000, 80)),
      },
      {
        city_id: world.city.id,
        city_name: world.city.name,
        country_name: expect.any(String),
        market_price: 5.5,
        demand_level: 60,
        ...unserved(await flourDemand(100_000, 60)),
      },
    ]);
    expect(response.body.made_by).toEqual([
      {
        recipe_id: world.millRecipeId,
        building_type: 'mill',
        building_name: 'Mill',
        output_product_id: world.flour.id,
        output_product_name: world.flour.name,
        output_quantity: 50,
        inputs: [{ product_id: world.wheat.id, product_name: world.wheat.name, quantity: 100 }],
      },
    ]);
    expect(response.body.used_by).toEqual([
      {
        recipe_id: world.bakeryRecipeId,
        building_type: 'bakery',
        building_name: 'Bakery',
        output_product_id: world.bread.id,
        output_product_name: world.bread.name,
        output_quantity: 40,
        inputs: [{ product_id: world.flour.id, product_name: world.flour.name, quantity: 20 }],
      },
    ]);
    // Wheat comes from nature: a farm recipe without inputs.
    const wheat = await app.api('GET', `/market/products/${world.wheat.id}`, { token: player.token });
    expect(wheat.body.made_by).toEqual([expect.objectContaining({ recipe_id: world.farmRecipeId, building_name: 'Farm', inputs: [] })]);

    expect((await app.api('GET', '/market/products/999999', { token: player.token })).status).toBe(404);
    expect((await app.api('GET', '/market/products/abc', { token: player.token })).status).toBe(400);
    expect((await app.api('GET', `/market/products/${world.flour.id}`)).status).toBe(401);
  });

  it("shows a player choosing where to open a store the shoppers each city's stores left unserved last week", async () => {
    // The player's store in the retail city sells bread; another player's store there sold 25 last week.
    const rival = await app.createPlayer({ cash: 100_000 });
    for (const seller of [player, rival]) {
      const store = await app.api('POST', '/buildings', { token: seller.token, body: { type: 'store', city_id: world.retailCity.id } });
      expect(store.status, JSON.stringify(store.body)).toBe(200);
      expect((await app.api('POST', '/market/trade', { token: seller.token, body: { product_id: world.bread.id, quantity: 30, action: 'buy' } })).status).toBe(
        200,
      );
      const shelved = await app.api('POST', `/buildings/${store.body.id}/inventory/transfer-to-store`, {
        token: seller.token,
        body: { product_id: world.bread.id, quantity: 30, retail_price: 6 },
      });
      expect(shelved.status, JSON.stringify(shelved.body)).toBe(200);
      if (seller === rival) {
        await db.execute(sql`update store_products set units_sold_last_turn = 25 where building_id = ${store.body.id} and product_id = ${world.bread.id}`);
      }
    }
    const response = await app.api('GET', `/market/products/${world.bread.id}`, { token: player.token });
    expect(response.status).toBe(200);
    const weekly = baseDemandRule.evaluate({
      population: 200_000,
      demandLevel: 80,
      baseReferenceCents: await baseReferenceCents(world.bread.id, world.retailCity.id),
    });
    const byCity = new Map(response.body.cities.map((city: { city_id: number }) => [city.city_id, city]));
    expect(byCity.get(world.retailCity.id)).toMatchObject({ weekly_demand: weekly, stores_selling: 2, sold_last_week: 25, unserved_demand: weekly - 25 });
    expect(byCity.get(world.city.id)).toMatchObject({ stores_selling: 0, sold_last_week: 0 });
  });

  it("lists every listed company with its price, change, sparkline, market value and your position's gain", async () => {
    const shares = await app.api('GET', '/shares', { token: player.token });
    const bot = shares.body.find((record: { is_bot: boolean }) => record.is_bot) as { company_id: number };
    await db.update(shareRecords).set({ sharePriceCents: 12_000 }).where(eq(shareRecords.companyId, bot.company_id));
    await db.insert(stockPriceHistory).values([
      { worldId: 1, companyId: bot.company_id, week: 1, priceCents: 10_000 },
      { worldId: 1, companyId: bot.company_id, week: 2, priceCents: 12_000 },
    ]);
    const bought = await app.api('POST', '/stocks/trade', { token: player.token, body: { company_id: bot.company_id, shares: 10, action: 'buy' } });
    expect(bought.status).toBe(200);
    // The price moves after the purchase: the position gains.
    await db.update(shareRecords).set({ sharePriceCents: 15_000 }).where(eq(shareRecords.companyId, bot.company_id));
    const portfolio = await app.api('GET', '/portfolio', { token: player.token });
    const held = portfolio.body.find((entry: { company_id: number }) => entry.company_id === bot.company_id) as { average_price: number; value: number };
    expect(held.average_price).toBe(bought.body.price);
    const cost = Math.round(held.average_price * 100) * 10;
    const gain = Math.round(held.value * 100) - cost;
    expect(gain).toBeGreaterThan(0);

    const response = await app.api('GET', '/stocks/overview', { token: player.token });
    expect(response.status).toBe(200);
    const row = response.body.companies.find((entry: { company_id: number }) => entry.company_id === bot.company_id);
    const [record] = await db.select({ totalShares: shareRecords.totalShares }).from(shareRecords).where(eq(shareRecords.companyId, bot.company_id));
    expect(row).toMatchObject({
      is_bot: true,
      is_you: false,
      share_price: 150,
      total_shares: record!.totalShares,
      market_cap: 150 * record!.totalShares,
      change_percent: 20, // 100 -> 120 between the last two recorded weeks
      sparkline: [100, 120],
      // The position is valued as the portfolio values it; the gain is that value less what was paid.
      position: {
        shares_owned: 10,
        average_price: held.average_price,
        value: held.value,
        cost: centsToDollars(cost),
        gain: centsToDollars(gain),
        gain_percent: Math.round((gain / cost) * 10_000) / 100,
      },
    });
    const mine = response.body.companies.find((entry: { company_id: number }) => entry.company_id === player.companyId);
    expect(mine).toMatchObject({ is_you: true, position: null, change_percent: null });
    expect(response.body.portfolio).toEqual({ shares: 10, value: held.value, cost: centsToDollars(cost), gain: centsToDollars(gain) });
  });
});
