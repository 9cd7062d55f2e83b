/**
 * The economy over many turns: money invariants under random player actions, and three kinds of
 * player: sensible (farm, mill, bakery, store selling bread) earns money over 10 turns, reckless
 * goes bankrupt, idle stays consistent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { cityMarketsSql, getBuilding, getCompany, ledgerMismatches, orphanLedgerRows, shareMismatches, type DbExecutor, act } from '@marketcraft/db';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { BANKRUPTCY_TURNS, GameError, PUBLIC_WORLD_ID, mulberry32, randomInt, type BuildingType } from '@marketcraft/shared';
import { runTurn } from '../src/turn/index.ts';
import { cashOf, createCompany, createTurnWorld, warehouse, type TurnWorld } from './fixtures.ts';

async function tryAction(action: () => Promise<unknown>): Promise<boolean> {
  try {
    await action();
    return true;
  } catch (error) {
    if (error instanceof GameError) return false;
    throw error;
  }
}

async function soldLastTurn(db: DbExecutor, storeId: number): Promise<number> {
  const [row] = await db.execute<{ sold: number }>(
    sql`select coalesce(sum(units_sold_last_turn), 0)::bigint as sold from store_products where building_id = ${storeId}`,
  );
  return Number(row?.sold ?? 0);
}

async function maxLedgerId(db: DbExecutor): Promise<number> {
  const [row] = await db.execute<{ id: number }>(sql`select coalesce(max(id), 0)::bigint as id from transactions`);
  return Number(row?.id ?? 0);
}

async function cashByCompany(db: DbExecutor): Promise<Map<number, number>> {
  const rows = await db.execute<{ id: number; cash_cents: number }>(sql`select id, cash_cents from companies`);
  return new Map(rows.map((row) => [Number(row.id), Number(row.cash_cents)]));
}

/** Checks everything that must hold after a turn (docs/invariants.md). */
async function checkInvariants(db: DbExecutor, cashBefore: Map<number, number>, ledgerIdBefore: number, week: number) {
  expect(await ledgerMismatches(db)).toEqual([]);
  expect(await orphanLedgerRows(db)).toBe(0);
  expect(await shareMismatches(db)).toEqual([]);
  // The turn's cash change of every company = the sum of the ledger rows the turn wrote = its financial history entry.
  const turnRows = await db.execute<{ company_id: number; total: number }>(sql`
    select company_id, sum(amount_cents)::bigint as total from transactions where id > ${ledgerIdBefore} group by company_id`);
  const turnTotals = new Map(turnRows.map((row) => [Number(row.company_id), Number(row.total)]));
  const cashAfter = await cashByCompany(db);
  for (const [companyId, cash] of cashAfter) {
    expect(cash - (cashBefore.get(companyId) ?? cash), `company ${companyId}`).toBe(turnTotals.get(companyId) ?? 0);
  }
  // The books are written before the bots make their moves for the next week (ledgered in week + 1).
  const bookRows = await db.execute<{ company_id: number; turn_total: number; after_books: number }>(sql`
    select company_id, sum(amount_cents) filter (where week = ${week})::bigint as turn_total,
           coalesce(sum(amount_cents) filter (where week > ${week}), 0)::bigint as after_books
    from transactions where id > ${ledgerIdBefore} group by company_id`);
  const books = new Map(bookRows.map((row) => [Number(row.company_id), { turn: Number(row.turn_total ?? 0), after: Number(row.after_books) }]));
  const history = await db.execute<{ company_id: number; amount_cents: number; cash_after_cents: number }>(sql`
    select company_id, amount_cents, cash_after_cents from financial_history where week = ${week}`);
  for (const entry of history) {
    const companyBooks = books.get(Number(entry.company_id)) ?? { turn: 0, after: 0 };
    expect(Number(entry.amount_cents)).toBe(companyBooks.turn);
    expect(Number(entry.cash_after_cents)).toBe(cashAfter.get(Number(entry.company_id))! - companyBooks.after);
  }
  const [negatives] = await db.execute<{ n: number }>(sql`
    select (select count(*) from inventory_items where quantity < 0)
         + (select count(*) from store_products where quantity < 0 or units_sold_last_turn < 0 or retail_price_cents <= 0)
         + (select count(*) from building_inventory_items where quantity < 0)
         + (select count(*) from portfolio_entries where shares_owned < 0)
         + (select count(*) from share_records where share_price_cents < 0 or total_shares <= 0 or last_dividend_cents < 0)
         + (select count(*) from world_products wp join products p on p.id = wp.product_id
            where wp.current_price_cents <= 0 or wp.current_price_cents < ceil(p.base_price_cents * 0.25)
                                              or wp.current_price_cents > floor(p.base_price_cents * 4))
         + (select count(*) from city_market_data where demand_level not between 0 and 100)
         + (select count(*) from influence_records where influence_points < 0)
         + (select count(*) from world_countries where tax_rate not between 0 and 100) as n`);
  expect(Number(negatives?.n)).toBe(0);
}

describe('the economy over many turns', () => {
  let database: TestDatabase;
  let world: TurnWorld;
  beforeAll(async () => {
    database = await createTestDatabase();
    world = await createTurnWorld(database.db);
  });
  afterAll(async () => {
    await database.drop();
  });

  it('keeps money, goods and shares consistent over 20 turns of random player actions', { timeout: 300_000 }, async () => {
    const { db } = database;
    const rng = mulberry32(20261122);
    const players: number[] = [];
    for (let index = 0; index < 5; index += 1) {
      players.push(await createCompany(db, { name: `Random ${index} ${world.tag}`, cashCents: 30_000_000 }));
    }
    const types: BuildingType[] = ['farm', 'mill', 'bakery', 'store'];
    const recipeOf: Record<string, number> = { farm: world.farmRecipeId, mill: world.millRecipeId, bakery: world.bakeryRecipeId };
    const products = [world.wheat, world.flour, world.bread];
    for (let turn = 0; turn < 20; turn += 1) {
      for (const company of players) {
        const actions = randomInt(rng, 0, 4);
        for (let step = 0; step < actions; step += 1) {
          const kind = randomInt(rng, 0, 6);
          const product = products[randomInt(rng, 0, 2)]!;
          const buildingsOwned = await db.execute<{ id: number; type: string }>(sql`select id, type from buildings where company_id = ${company} order by id`);
          const building = buildingsOwned[randomInt(rng, 0, Math.max(0, buildingsOwned.length - 1))];
          if (kind === 0) {
            const type = types[randomInt(rng, 0, 3)]!;
            await tryAction(async () => {
              const built = await act(db, 'buildBuilding', {
                companyId: company,
                actingUserId: null,
                input: { type, city_id: rng() < 0.5 ? world.farmCityId : world.retailCityId },
              });
              if (recipeOf[type])
                await act(db, 'selectRecipe', { companyId: company, actingUserId: null, input: { id: built.id, recipe_id: recipeOf[type]! } });
            });
          } else if (kind === 1 && building) {
            await tryAction(() =>
              act(db, 'hireEmployees', { companyId: company, actingUserId: null, input: { id: Number(building.id), count: randomInt(rng, 1, 3) } }),
            );
          } else if (kind === 2) {
            await tryAction(() =>
              act(db, 'marketTrade', {
                companyId: company,
                actingUserId: null,
                input: { product_id: product, quantity: randomInt(rng, 1, 400), action: rng() < 0.6 ? 'buy' : 'sell' },
              }),
            );
          } else if (kind === 3 && building?.type === 'store') {
            await tryAction(() =>
              act(db, 'purchaseForBuilding', {
                companyId: company,
                actingUserId: null,
                input: { id: Number(building.id), product_id: product, quantity: randomInt(rng, 1, 100) },
              }),
            );
          } else if (kind === 4 && building?.type === 'store') {
            await tryAction(() =>
              act(db, 'transferToStore', {
                companyId: company,
                actingUserId: null,
                input: { id: Number(building.id), product_id: product, quantity: randomInt(rng, 1, 150), retail_price: randomInt(rng, 500, 9_000) / 100 },
              }),
            );
          } else if (kind === 5) {
            const issuer = players[randomInt(rng, 0, players.length - 1)]!;
            if (issuer !== company) {
              await tryAction(() =>
                act(db, 'tradeShares', {
                  companyId: company,
                  actingUserId: null,
                  input: { company_id: issuer, shares: randomInt(rng, 1, 10), action: rng() < 0.7 ? 'buy' : 'sell' },
                }),
              );
            }
          } else if (kind === 6) {
            await tryAction(() =>
              act(db, 'investInPolitics', {
                companyId: company,
                actingUserId: null,
                input: { country_id: world.countryIds[randomInt(rng, 0, world.countryIds.length - 1)]!, amount: 1_000 * randomInt(rng, 1, 3) },
              }),
            );
          }
        }
      }
      const cashBefore = await cashByCompany(db);
      const ledgerIdBefore = await maxLedgerId(db);
      const result = await runTurn(db);
      expect(result.status).toBe('advanced');
      await checkInvariants(db, cashBefore, ledgerIdBefore, result.week);
    }
  });

  it(
    'a sensible player (the Learning Base chain: farm, mill, bakery, store selling bread) earns money and beats an idle one',
    { timeout: 180_000 },
    async () => {
      const { db } = database;
      const company = await createCompany(db, { name: `Sensible ${world.tag}`, cashCents: 50_000_000 });
      const idle = await createCompany(db, { name: `Idle twin ${world.tag}`, cashCents: 50_000_000 });
      const seeded = async (name: string) => Number((await db.execute<{ id: number }>(sql`select id from products where name = ${name}`))[0]!.id);
      const city = async (name: string) => Number((await db.execute<{ id: number }>(sql`select id from cities where name = ${name}`))[0]!.id);
      const recipe = async (type: string, product: number) =>
        Number((await db.execute<{ id: number }>(sql`select id from recipes where building_type = ${type} and output_product_id = ${product}`))[0]!.id);
      const [wheat, flour, bread, milk, sugar] = await Promise.all(['Wheat', 'Wheat Flour', 'White Bread', 'Milk', 'Cane Sugar'].map(seeded));
      // Cities whose bonus fits each building (the Learning Base's advice), 9 employees each (efficiency 100%).
      const chain: [BuildingType, number, number | null][] = [
        ['farm', await city('Wheatfield'), await recipe('farm', wheat!)],
        ['mill', await city('Millbrook'), await recipe('mill', flour!)],
        ['bakery', await city('Ovenstead'), await recipe('bakery', bread!)],
        ['store', await city('Port Aldor'), null],
      ];
      const ids: number[] = [];
      for (const [type, cityId, recipeId] of chain) {
        const building = await act(db, 'buildBuilding', { companyId: company, actingUserId: null, input: { type, city_id: cityId } });
        if (recipeId) await act(db, 'selectRecipe', { companyId: company, actingUserId: null, input: { id: building.id, recipe_id: recipeId } });
        await act(db, 'hireEmployees', { companyId: company, actingUserId: null, input: { id: building.id, count: 8 } });
        ids.push(building.id);
      }
      const store = ids[3]!;
      const startCash = await cashOf(db, company);
      const log: string[] = [];
      // The target: the chain pays back within 15 weeks at sensible prices.
      const weeks = 15;
      for (let turn = 0; turn < weeks; turn += 1) {
        // The bakery's other inputs for a week, surplus flour sold.
        const bakery = await getBuilding(db, company, ids[2]!);
        for (const input of bakery.forecast.inputs.filter((item) => item.product_id !== flour)) {
          const missing = input.needed - input.in_stock;
          if (missing > 0)
            await act(db, 'marketTrade', { companyId: company, actingUserId: null, input: { product_id: input.product_id, quantity: missing, action: 'buy' } });
        }
        const flourNeeded = bakery.forecast.inputs.find((item) => item.product_id === flour)?.needed ?? 0;
        const surplus = (await warehouse(db, company, flour!)) - flourNeeded;
        if (surplus > 0)
          await act(db, 'marketTrade', { companyId: company, actingUserId: null, input: { product_id: flour!, quantity: surplus, action: 'sell' } });
        // Bread: the shelf holds about two weeks of what one city buys, at its reference price; the
        // bakery makes about three cities' worth, so the rest is sold on the market.
        const loaves = await warehouse(db, company, bread!);
        const [shelf] = await db.execute<{ quantity: number }>(sql`
        select quantity from store_products where building_id = ${store} and product_id = ${bread}`);
        const toShelf = Math.min(loaves, Math.max(0, 2 * 160 - Number(shelf?.quantity ?? 0)));
        if (toShelf > 0) {
          const [reference] = await db.execute<{ price: number }>(sql`
          select market_price_cents as price from ${cityMarketsSql(PUBLIC_WORLD_ID)} cmd where city_id = ${chain[3]![1]} and product_id = ${bread}`);
          await act(db, 'transferToStore', {
            companyId: company,
            actingUserId: null,
            input: { id: store, product_id: bread!, quantity: toShelf, retail_price: Number(reference?.price) / 100 },
          });
        }
        if (loaves - toShelf > 0)
          await act(db, 'marketTrade', { companyId: company, actingUserId: null, input: { product_id: bread!, quantity: loaves - toShelf, action: 'sell' } });
        await runTurn(db);
        log.push(
          `turn ${turn}: cash ${(await cashOf(db, company)) / 100}, bread sold in the store ${await soldLastTurn(db, store)}, net worth ${(await getCompany(db, company)).net_worth}`,
        );
      }
      void milk;
      void sugar;
      const worth = async (id: number) => Number((await getCompany(db, id)).net_worth);
      expect(await cashOf(db, company), log.join('\n')).toBeGreaterThan(startCash);
      expect(await worth(company), log.join('\n')).toBeGreaterThan(await worth(idle));
    },
  );

  it('a reckless player (no sales, many employees, cash spent on goods) goes bankrupt', { timeout: 120_000 }, async () => {
    const { db } = database;
    const company = await createCompany(db, { name: `Reckless ${world.tag}`, cashCents: 30_000_000 });
    for (let index = 0; index < 4; index += 1) {
      const mill = await act(db, 'buildBuilding', { companyId: company, actingUserId: null, input: { type: 'mill', city_id: world.farmCityId } });
      await act(db, 'hireEmployees', { companyId: company, actingUserId: null, input: { id: mill.id, count: 9 } });
    }
    const cash = await cashOf(db, company);
    await act(db, 'marketTrade', {
      companyId: company,
      actingUserId: null,
      input: { product_id: world.flour, quantity: Math.floor((cash - 100_000) / 3_500), action: 'buy' },
    });
    let turns = 0;
    for (; turns < 10; turns += 1) {
      await runTurn(db);
      const [row] = await db.execute<{ status: string }>(sql`select status from companies where id = ${company}`);
      if (row?.status === 'bankrupt') break;
    }
    expect(turns + 1).toBe(BANKRUPTCY_TURNS);
    expect(await db.execute(sql`select 1 from buildings where company_id = ${company}`)).toHaveLength(0);
    expect(await db.execute(sql`select 1 from inventory_items where company_id = ${company}`)).toHaveLength(0);
    const [shares] = await db.execute<{ is_listed: boolean }>(sql`select is_listed from share_records where company_id = ${company}`);
    expect(shares?.is_listed).toBe(false);
    const [liquidation] = await db.execute<{ amount_cents: number }>(sql`
      select amount_cents from transactions where company_id = ${company} and reason = 'liquidation'`);
    expect(Number(liquidation?.amount_cents)).toBeGreaterThan(0);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('a player who does nothing keeps a consistent state', { timeout: 120_000 }, async () => {
    const { db } = database;
    const company = await createCompany(db, { name: `Idle ${world.tag}`, cashCents: 10_000_000 });
    for (let turn = 0; turn < 5; turn += 1) {
      const result = await runTurn(db);
      expect(result.status).toBe('advanced');
    }
    // Nothing happens to it but what others do: value-investing bots may buy new shares from it
    // (cash in, at about its book value: ledger 'share_issue'); no costs, no sales, no taxes.
    const reasons = await db.execute<{ reason: string; total: number }>(sql`
      select reason, sum(amount_cents)::bigint as total from transactions where company_id = ${company} group by reason`);
    expect(reasons.every((row) => row.reason === 'share_issue')).toBe(true);
    const raised = reasons.reduce((sum, row) => sum + Number(row.total), 0);
    expect(await cashOf(db, company)).toBe(10_000_000 + raised);
    const history = await db.execute<{ amount_cents: number; profit_cents: number }>(sql`
      select amount_cents, profit_cents from financial_history where company_id = ${company}`);
    expect(history).toHaveLength(5);
    expect(history.every((entry) => Number(entry.amount_cents) === 0 && Number(entry.profit_cents) === 0)).toBe(true);
    const [share] = await db.execute<{ fundamental_cents: number; total_shares: number }>(sql`
      select fundamental_cents, total_shares from share_records where company_id = ${company}`);
    // Listed at its book value ($100,000: 1,000 shares at $100); shares issued at about book value keep
    // it there: no company gets richer through its own share price.
    expect(Math.abs(Number(share?.fundamental_cents) - 10_000)).toBeLessThanOrEqual(300);
    // Its own player's net worth: what it had, plus the spread buyers paid over what their shares fetch.
    const worth = (await getCompany(db, company)).net_worth;
    expect(worth).toBeGreaterThanOrEqual(100_000);
    expect(worth).toBeLessThan(100_000 + raised / 100 / 10 + 1);
    expect(await ledgerMismatches(db)).toEqual([]);
  });
});
