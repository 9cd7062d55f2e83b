import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildBuilding, hireEmployees, ledgerMismatches, marketTrade, purchaseForBuilding, selectRecipe, tradeShares, transferToStore } from '@marketcraft/db';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { runTurn } from '../src/turn/index.ts';
import { cashOf, createCompany, createTurnWorld, warehouse, worldWeek, type TurnWorld } from './fixtures.ts';

describe('a full turn', () => {
  let database: TestDatabase;
  let world: TurnWorld;
  beforeAll(async () => {
    database = await createTestDatabase();
    world = await createTurnWorld(database.db);
  });
  afterAll(async () => {
    await database.drop();
  });

  it('advances the week and every phase shows: production, sales, costs, prices, shares, dividends, history', async () => {
    const { db } = database;
    const producer = await createCompany(db, { name: `Producer ${world.tag}`, cashCents: 50_000_000 });
    const trader = await createCompany(db, { name: `Trader ${world.tag}`, cashCents: 50_000_000 });
    const holder = await createCompany(db, { name: `Holder ${world.tag}`, cashCents: 50_000_000 });

    const farm = await buildBuilding(db, producer, { type: 'farm', cityId: world.farmCityId });
    await selectRecipe(db, producer, farm.id, world.farmRecipeId);
    await hireEmployees(db, producer, farm.id, 5);
    const store = await buildBuilding(db, producer, { type: 'store', cityId: world.retailCityId });
    await purchaseForBuilding(db, producer, store.id, { productId: world.bread, quantity: 300 });
    await transferToStore(db, producer, store.id, { productId: world.bread, quantity: 300, retailPriceCents: 3_900 });
    await marketTrade(db, trader, { productId: world.flour, quantity: 500, action: 'buy' });
    await tradeShares(db, { holderCompanyId: holder, issuerCompanyId: producer, shares: 10, action: 'buy' });

    const week = await worldWeek(db);
    const flourBefore = Number((await db.execute<{ p: number }>(sql`select current_price_cents as p from products where id = ${world.flour}`))[0]?.p);
    const holderCashBefore = await cashOf(db, holder);

    const result = await runTurn(db);
    expect(result.status).toBe('advanced');
    expect(await worldWeek(db)).toBe(week + 1);

    // Production: efficiency min(100, 6 x 10 + 1 x 15) = 75; 100 x 100% x 75% x (100 + 15 city bonus)% = 86 wheat.
    expect(await warehouse(db, producer, world.wheat)).toBe(86);
    const production = await db.execute<{ description: string; amount_cents: number }>(sql`
      select description, amount_cents from transactions where company_id = ${producer} and type = 'production' and week = ${week}`);
    expect(production).toHaveLength(1);
    expect(Number(production[0]?.amount_cents)).toBe(0);

    // Store sales: 200 x (60/50) x (2625/3900)^2 x 1.10 = 119 units (floor).
    const [shelf] = await db.execute<{ quantity: number; units_sold_last_turn: number }>(sql`
      select quantity, units_sold_last_turn from store_products where building_id = ${store.id}`);
    expect(Number(shelf?.units_sold_last_turn)).toBe(119);
    expect(Number(shelf?.quantity)).toBe(300 - 119);
    const [sale] = await db.execute<{ amount_cents: number }>(sql`
      select amount_cents from transactions where company_id = ${producer} and type = 'sale' and week = ${week}`);
    expect(Number(sale?.amount_cents)).toBe(119 * 3_900);
    const [demand] = await db.execute<{ demand_level: number }>(sql`
      select demand_level from city_market_data where city_id = ${world.retailCityId} and product_id = ${world.bread}`);
    // 60 - ceil(119 / 20) = 54, then recovery 25% of the gap of 6 -> +2 (round 1.5) = 56.
    expect(Number(demand?.demand_level)).toBe(56);

    // Costs: wages 7 employees x $50; operating farm $400 + store $300; taxes 20% on positive profit.
    const costs = await db.execute<{ reason: string; amount_cents: number }>(sql`
      select reason, amount_cents from transactions where company_id = ${producer} and week = ${week} and reason in ('wages', 'operating_costs', 'tax') order by reason`);
    const byReason = Object.fromEntries(costs.map((row) => [row.reason, Number(row.amount_cents)]));
    expect(byReason.wages).toBe(-7 * 5_000);
    expect(byReason.operating_costs).toBe(-(40_000 + 30_000));
    const profitBeforeTax = 119 * 3_900 - 7 * 5_000 - 70_000;
    expect(byReason.tax).toBe(-Math.round(profitBeforeTax * 0.2));

    // Markets: 500 flour bought net -> +5%, then 10% back toward base.
    const flourAfter = Number((await db.execute<{ p: number }>(sql`select current_price_cents as p from products where id = ${world.flour}`))[0]?.p);
    expect(flourAfter).toBe(Math.round(flourBefore * 1.05 + (3_190 - flourBefore * 1.05) * 0.1));
    expect(flourAfter).toBeGreaterThan(flourBefore);

    // Stocks: a history row for every listed company of the week, prices never negative.
    const history = await db.execute<{ company_id: number; price_cents: number }>(sql`
      select company_id, price_cents from stock_price_history where week = ${week}`);
    const listed = await db.execute(sql`select 1 from share_records s join companies c on c.id = s.company_id where s.is_listed and c.status = 'active'`);
    expect(history.length).toBe(listed.length);
    expect(history.every((row) => Number(row.price_cents) >= 0)).toBe(true);

    // Dividends: 20% of the profit after tax, per share, to the holder of 10 shares.
    const profit = profitBeforeTax - Math.round(profitBeforeTax * 0.2);
    const perShare = Math.floor((profit * 0.2) / 100);
    const [dividend] = await db.execute<{ amount_cents: number }>(sql`
      select amount_cents from transactions where company_id = ${holder} and reason = 'dividend' and week = ${week}`);
    expect(Number(dividend?.amount_cents)).toBe(10 * perShare);
    const [paid] = await db.execute<{ amount_cents: number }>(sql`
      select amount_cents from transactions where company_id = ${producer} and reason = 'dividend_paid' and week = ${week}`);
    expect(Number(paid?.amount_cents)).toBe(-10 * perShare);
    expect(await cashOf(db, holder)).toBe(holderCashBefore + 10 * perShare);

    // Books: a financial history row per active company, the turn's cash change.
    const [entry] = await db.execute<{ amount_cents: number; cash_after_cents: number }>(sql`
      select amount_cents, cash_after_cents from financial_history where company_id = ${producer} and week = ${week}`);
    expect(Number(entry?.cash_after_cents)).toBe(await cashOf(db, producer));
    const [turn] = await db.execute<{ duration_ms: number; phase_timings: Record<string, number> }>(sql`
      select duration_ms, phase_timings from turns where week = ${week}`);
    expect(Object.keys(turn?.phase_timings ?? {})).toEqual(
      expect.arrayContaining(['bots', 'production', 'sales', 'costs', 'markets', 'stocks', 'dividends', 'politics', 'bankruptcy', 'finish']),
    );
    expect(await ledgerMismatches(db)).toEqual([]);
  });
});
