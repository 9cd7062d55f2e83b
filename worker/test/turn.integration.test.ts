/**
 * One real turn over a small world, phase by phase: what a player would check in their ledger and
 * on their building pages. Every expected figure comes from the shared rules (shared/src/rules) or
 * from the building's forecast read BEFORE the turn (the forecast must be what the turn does).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { cityMarketsSql, getBuilding, ledgerMismatches, assetsSql, valuationSql, act } from '@marketcraft/db';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { PUBLIC_WORLD_ID, dividendPerShareRule, nextMarketPriceRule, taxRule } from '@marketcraft/shared';
import { PHASES } from '../src/turn/context.ts';
import { runTurn } from '../src/turn/index.ts';
import { cashOf, createCompany, createTurnWorld, insertBuilding, warehouse, worldWeek, type TurnWorld } from './fixtures.ts';

async function ledger(db: TestDatabase['db'], companyId: number, week: number): Promise<Record<string, number>> {
  const rows = await db.execute<{ reason: string; total: number }>(sql`
    select reason, sum(amount_cents)::bigint as total from transactions where company_id = ${companyId} and week = ${week} group by reason`);
  return Object.fromEntries(rows.map((row) => [row.reason, Number(row.total)]));
}

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

  it('advances the week and every phase shows: production, sales, costs, taxes, dividends, prices, shares, the books', async () => {
    const { db } = database;
    const producer = await createCompany(db, { name: `Producer ${world.tag}`, cashCents: 50_000_000 });
    const trader = await createCompany(db, { name: `Trader ${world.tag}`, cashCents: 50_000_000 });
    const holder = await createCompany(db, { name: `Holder ${world.tag}`, cashCents: 50_000_000 });

    const farm = await act(db, 'buildBuilding', { companyId: producer, actingUserId: null, input: { type: 'farm', city_id: world.farmCityId } });
    await act(db, 'selectRecipe', { companyId: producer, actingUserId: null, input: { id: farm.id, recipe_id: world.farmRecipeId } });
    await act(db, 'hireEmployees', { companyId: producer, actingUserId: null, input: { id: farm.id, count: 5 } });
    const store = await act(db, 'buildBuilding', { companyId: producer, actingUserId: null, input: { type: 'store', city_id: world.retailCityId } });
    await act(db, 'purchaseForBuilding', { companyId: producer, actingUserId: null, input: { id: store.id, product_id: world.bread, quantity: 300 } });
    await act(db, 'transferToStore', {
      companyId: producer,
      actingUserId: null,
      input: { id: store.id, product_id: world.bread, quantity: 300, retail_price: 3_900 / 100 },
    });
    await act(db, 'marketTrade', { companyId: trader, actingUserId: null, input: { product_id: world.flour, quantity: 500, action: 'buy' } });
    await act(db, 'tradeShares', { companyId: holder, actingUserId: null, input: { company_id: producer, shares: 10, action: 'buy' } });

    const week = await worldWeek(db);
    const [flourBefore] = await db.execute<{ p: number; base: number; depth: number }>(sql`
      select current_price_cents as p, base_price_cents as base, depth_units as depth from products join world_products on product_id = id and world_id = 1 where id = ${world.flour}`);
    const holderCashBefore = await cashOf(db, holder);
    const farmForecast = (await getBuilding(db, producer, farm.id)).forecast;
    const storeForecast = (await getBuilding(db, producer, store.id)).forecast;
    const producerPurchases = -(await ledger(db, producer, week)).store_stock!;

    let netWorthAtTheBooks: number | undefined;
    let goodsAtTheTaxes: number | undefined;
    const result = await runTurn(db, {
      hooks: {
        // The books record the net worth at the end of the turn, before the bots' moves for next week.
        afterPhase: async (phase, ctx) => {
          if (phase === 'taxes') {
            const [row] = await ctx.tx.execute<{ goods_cents: number }>(
              sql`select goods_cents from ${assetsSql({ worldId: 1, companyIds: sql`(${producer})` })} a`,
            );
            goodsAtTheTaxes = Number(row?.goods_cents);
          }
          if (phase !== 'finish') return;
          const [row] = await ctx.tx.execute<{ net_worth_cents: number }>(sql`
            select net_worth_cents from ${valuationSql(sql`(select id as company_id, cash_cents from companies where id = ${producer})`, { worldId: 1 })} v`);
          netWorthAtTheBooks = Number(row?.net_worth_cents);
        },
      },
    });
    expect(result.status).toBe('advanced');
    expect(await worldWeek(db)).toBe(week + 1);

    // Production: what the farm's forecast said: efficiency min(100, 6 x 10 + 15) = 75, +15% city bonus.
    expect(farmForecast.planned_output).toMatchObject({ value: 86 }); // round(100 x 100% x 75% x 115%)
    expect(farmForecast.output_units).toBe(86);
    expect(await warehouse(db, producer, world.wheat)).toBe(86);
    const production = await db.execute<{ description: string; amount_cents: number }>(sql`
      select description, amount_cents from transactions where company_id = ${producer} and type = 'production' and week = ${week}`);
    expect(production).toHaveLength(1);
    expect(Number(production[0]?.amount_cents)).toBe(0);

    // Store sales: the forecast's units and revenue, from the city's demand at this one store's price.
    expect(storeForecast.sales).toHaveLength(1);
    const [forecastSale] = storeForecast.sales;
    expect(forecastSale!.units).toBeGreaterThan(0);
    // The screens' totals come from the forecast too: units sold, costs, profit = revenue - costs.
    expect(storeForecast.units).toBe(forecastSale!.units);
    expect(Math.round(storeForecast.costs * 100)).toBe(Math.round(storeForecast.wages.value * 100) + Math.round(storeForecast.operating_cost.value * 100));
    expect(Math.round(storeForecast.profit * 100)).toBe(Math.round(storeForecast.revenue * 100) - Math.round(storeForecast.costs * 100));
    expect(farmForecast.units).toBe(farmForecast.output_units);
    // "Why this number": the revenue's terms give the revenue (units x shelf price, no price bonus here).
    expect(forecastSale!.revenue_why.value).toBe(forecastSale!.revenue);
    expect(forecastSale!.revenue_why.terms.map((term) => [term.name, term.value])).toEqual([
      ['units', forecastSale!.units],
      ['retail', 39],
      ['price_bonus', 0],
    ]);
    const [shelf] = await db.execute<{ quantity: number; units_sold_last_turn: number }>(sql`
      select quantity, units_sold_last_turn from store_products where building_id = ${store.id}`);
    expect(Number(shelf?.units_sold_last_turn)).toBe(forecastSale!.units);
    expect(Number(shelf?.quantity)).toBe(300 - forecastSale!.units);
    const books = await ledger(db, producer, week + 0);
    expect(books.store_sales).toBe(Math.round(forecastSale!.revenue * 100));
    expect(books.store_sales).toBe(forecastSale!.units * 3_900);

    // Costs: the forecasts' wages and operating costs (two buildings: +2% overhead each).
    const wages = Math.round((farmForecast.wages.value + storeForecast.wages.value) * 100);
    const operating = Math.round((farmForecast.operating_cost.value + storeForecast.operating_cost.value) * 100);
    expect(books.wages).toBe(-wages);
    expect(books.operating_costs).toBe(-operating);
    expect(wages).toBe(7 * 10_000);

    // Taxes: 20% (the country's rate, both buildings there) of store revenue - goods bought - wages -
    // operating costs + the goods held now (the wheat made, the bread left), valued as net worth values
    // them, less those held when last taxed (none: a new company). Accrual basis.
    expect(goodsAtTheTaxes).toBeGreaterThan(0);
    const taxable = books.store_sales! - producerPurchases - wages - operating + goodsAtTheTaxes!;
    const [taxed] = await db.execute<{ taxed_goods_cents: number }>(sql`select taxed_goods_cents from companies where id = ${producer}`);
    expect(Number(taxed?.taxed_goods_cents)).toBe(goodsAtTheTaxes);
    const tax = taxRule.evaluate({ profitCents: taxable, carriedLossCents: 0, rateBp: 2_000 });
    expect((books.tax ?? 0) + tax).toBe(0);
    const [losses] = await db.execute<{ tax_loss_cents: number }>(sql`select tax_loss_cents from companies where id = ${producer}`);
    expect(Number(losses?.tax_loss_cents)).toBe(Math.max(0, -taxable));
    // The week's posted price is kept for the market's history (before it moved), once per product.
    const recorded = await db.execute<{ price_cents: number }>(
      sql`select price_cents from product_price_history where product_id = ${world.flour} and week = ${week}`,
    );
    expect(recorded.map((row) => Number(row.price_cents))).toEqual([Number(flourBefore!.p)]);
    const [counts] = await db.execute<{ rows: number; products: number }>(sql`
      select (select count(*) from product_price_history where week = ${week})::int as rows, (select count(*) from products)::int as products`);
    expect(counts?.rows).toBe(counts?.products);

    // Dividends: 20% of the profit after tax, per share, to the holder of 10 shares (none when there is no profit).
    const profit = taxable - tax;
    const [shares] = await db.execute<{ total_shares: number }>(sql`select total_shares from share_records where company_id = ${producer}`);
    const perShare = dividendPerShareRule.evaluate({ profitCents: profit, totalShares: Number(shares?.total_shares) });
    const holderBooks = await ledger(db, holder, week);
    expect(holderBooks.dividend ?? 0).toBe(10 * perShare);
    expect((books.dividend_paid ?? 0) + 10 * perShare).toBe(0);
    expect(await cashOf(db, holder)).toBe(holderCashBefore + 10 * perShare);

    // Markets: 500 flour bought net on a depth of 3,200 moves the price up the curve, 10% back toward base, plus the world's noise.
    const [flourAfter] = await db.execute<{ p: number }>(
      sql`select current_price_cents as p from world_products where world_id = 1 and product_id = ${world.flour}`,
    );
    const next = (noiseBp: number) =>
      nextMarketPriceRule.evaluate({
        price: Number(flourBefore!.p),
        depth: Number(flourBefore!.depth),
        flow: 500,
        basePrice: Number(flourBefore!.base),
        targetPrice: Number(flourBefore!.base),
        noiseBp,
      });
    expect(Number(flourAfter?.p)).toBeGreaterThanOrEqual(next(-600));
    expect(Number(flourAfter?.p)).toBeLessThanOrEqual(next(600));
    expect(Number(flourAfter?.p)).toBeGreaterThan(Number(flourBefore!.p));
    // Reference prices follow: 130% of the new price in a city at 100%.
    const [reference] = await db.execute<{ market_price_cents: number }>(sql`
      select market_price_cents from ${cityMarketsSql(PUBLIC_WORLD_ID)} cmd where city_id = ${world.retailCityId} and product_id = ${world.flour}`);
    expect(Number(reference?.market_price_cents)).toBe(Math.round((Number(flourAfter?.p) * 130) / 100));

    // Stocks: a history row for every listed company of the week, prices never negative; the
    // producer's price is its book value per share (no sentiment after the holder's buying decays by half).
    const history = await db.execute<{ company_id: number; price_cents: number }>(sql`
      select company_id, price_cents from stock_price_history where week = ${week}`);
    const listed = await db.execute(sql`select 1 from share_records s join companies c on c.id = s.company_id where s.is_listed and c.status = 'active'`);
    expect(history.length).toBe(listed.length);
    expect(history.every((row) => Number(row.price_cents) >= 0)).toBe(true);
    const [record] = await db.execute<{ sentiment: number; week_flow: number; fundamental_cents: number; share_price_cents: number }>(sql`
      select sentiment, week_flow, fundamental_cents, share_price_cents from share_records where company_id = ${producer}`);
    expect(Number(record?.week_flow)).toBe(0);
    expect(Number(record?.sentiment)).toBeGreaterThan(0);
    expect(Number(record?.share_price_cents)).toBeGreaterThan(Number(record?.fundamental_cents));

    // Books: a financial history row per active company: the cash change, the cash after, the profit, the net worth.
    const [entry] = await db.execute<{ amount_cents: number; cash_after_cents: number; profit_cents: number; net_worth_cents: number }>(sql`
      select amount_cents, cash_after_cents, profit_cents, net_worth_cents from financial_history where company_id = ${producer} and week = ${week}`);
    expect(Number(entry?.cash_after_cents)).toBe(await cashOf(db, producer));
    expect(Number(entry?.profit_cents)).toBe(profit);
    expect(Number(entry?.net_worth_cents)).toBe(netWorthAtTheBooks);
    const [turn] = await db.execute<{ duration_ms: number; phase_timings: Record<string, number> }>(sql`
      select duration_ms, phase_timings from turns where week = ${week}`);
    expect(Object.keys(turn?.phase_timings ?? {}).sort()).toEqual([...PHASES].sort());
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it("taxes on an accrual basis: profit turned into stock before the turn defers no tax, only the trade's real loss counts", async () => {
    const { db } = database;
    const stockpiler = await createCompany(db, { name: `Stockpiler ${world.tag}`, cashCents: 50_000_000 });
    const week = await worldWeek(db);
    await act(db, 'marketTrade', { companyId: stockpiler, actingUserId: null, input: { product_id: world.flour, quantity: 500, action: 'buy' } });
    const paid = -(await ledger(db, stockpiler, week)).market_buy!;
    let goodsAtTheTaxes: number | undefined;
    const result = await runTurn(db, {
      hooks: {
        afterPhase: async (phase, ctx) => {
          if (phase !== 'taxes') return;
          const [row] = await ctx.tx.execute<{ goods_cents: number }>(
            sql`select goods_cents from ${assetsSql({ worldId: 1, companyIds: sql`(${stockpiler})` })} a`,
          );
          goodsAtTheTaxes = Number(row?.goods_cents);
        },
      },
    });
    expect(result.status).toBe('advanced');
    // The flour counts at what selling it pays (as net worth counts it): the week's loss is the
    // spread and the curve's walk, not the whole purchase (cash basis carried all of it).
    expect(goodsAtTheTaxes).toBeGreaterThan(paid / 2);
    const [row] = await db.execute<{ tax_loss_cents: number; taxed_goods_cents: number }>(sql`
      select tax_loss_cents, taxed_goods_cents from companies where id = ${stockpiler}`);
    expect(Number(row?.tax_loss_cents)).toBe(paid - goodsAtTheTaxes!);
    expect(Number(row?.taxed_goods_cents)).toBe(goodsAtTheTaxes);
    const [history] = await db.execute<{ profit_cents: number }>(
      sql`select profit_cents from financial_history where company_id = ${stockpiler} and week = ${week}`,
    );
    expect(Number(history?.profit_cents)).toBe(goodsAtTheTaxes! - paid);
  });

  it("taxes a company with buildings in two countries at the average of its buildings' rates", async () => {
    const { db } = database;
    const spread = await createCompany(db, { name: `Spread ${world.tag}`, cashCents: 50_000_000 });
    // Two stores in the first country (20%) and one in the third (30%): (20 + 20 + 30) / 3 = 23.33%.
    const [farCity] = await db.execute<{ id: number }>(sql`select id from cities where country_id = ${world.countryIds[2]!} order by id limit 1`);
    for (const cityId of [world.retailCityId, world.farmCityId, Number(farCity!.id)]) await insertBuilding(db, { companyId: spread, type: 'store', cityId });
    // A profit to tax: goods in the warehouse that were never taxed (accrual: they count as this week's gain).
    await db.execute(sql`
      insert into inventory_items (world_id, company_id, product_id, quantity, average_cost_cents) values (1, ${spread}, ${world.flour}, 2000, 0)`);
    await db.execute(sql`update companies set taxed_goods_cents = 0 where id = ${spread}`);
    const week = await worldWeek(db);
    expect((await runTurn(db)).status).toBe('advanced');
    const taxes = await db.execute<{ description: string }>(sql`
      select description from transactions where company_id = ${spread} and week = ${week} and reason = 'tax'`);
    expect(taxes).toHaveLength(1);
    expect(taxes[0]!.description).toMatch(/^Taxes: 23\.33% of a profit of \$/);
  });
});
