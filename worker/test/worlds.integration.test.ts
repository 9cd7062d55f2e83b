/**
 * Worlds in the turn (docs/worlds.md): a turn takes one world and touches only its rows; turns of
 * one world run exactly once per week however many are sent at once, turns of different worlds run
 * side by side; an ended world never changes again; the private worlds' clock sends each due world
 * once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { PgBoss } from 'pg-boss';
import {
  addShock,
  cityMarketsSql,
  createWorld,
  endWorld,
  exportWorldCsv,
  joinWorld,
  ledgerMismatches,
  recentNews,
  updateWorldClock,
  users,
  type Database,
  act,
} from '@marketcraft/db';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { PUBLIC_WORLD_ID } from '@marketcraft/shared';
import { TURN_QUEUE, type TurnJobData } from '@marketcraft/shared/queues.ts';
import { runTurn } from '../src/turn/index.ts';
import { enqueueDueWorlds } from '../src/queue.ts';

async function weekOf(db: Database, worldId: number): Promise<number> {
  const [row] = await db.execute<{ current_week: number }>(sql`select current_week from worlds where id = ${worldId}`);
  return Number(row!.current_week);
}

/** Everything of one world a turn could change, as plain data. */
async function worldState(db: Database, worldId: number) {
  const q = async (query: ReturnType<typeof sql>) => (await db.execute(query)).map((row) => ({ ...row }));
  return {
    week: await weekOf(db, worldId),
    companies: await q(sql`select id, cash_cents, status from companies where world_id = ${worldId} order by id`),
    prices: await q(sql`select product_id, current_price_cents from world_products where world_id = ${worldId} order by product_id`),
    taxes: await q(sql`select country_id, tax_rate from world_countries where world_id = ${worldId} order by country_id`),
    markets: await q(sql`select city_id, product_id, demand_level, market_price_cents from ${cityMarketsSql(worldId)} cmd order by 1, 2`),
    ledger: await q(sql`select count(*)::int as n from transactions where world_id = ${worldId}`),
    shares: await q(sql`select company_id, share_price_cents from share_records where world_id = ${worldId} order by 1`),
    events: await q(sql`select count(*)::int as n from political_events where world_id = ${worldId}`),
  };
}

// Several whole turns of seeded worlds: generous under a loaded machine (CI runs every file at once).
describe('worlds in the turn', { timeout: 180_000 }, () => {
  let database: TestDatabase;
  let db: Database;
  let classWorld: number;
  let otherWorld: number;
  let teacherId: number;

  beforeAll(async () => {
    database = await createTestDatabase({ max: 12 });
    db = database.db;
    const [teacher] = await db
      .insert(users)
      .values({ email: `teacher-${Date.now()}@example.com` })
      .returning({ id: users.id });
    const [student] = await db
      .insert(users)
      .values({ email: `student-${Date.now()}@example.com` })
      .returning({ id: users.id });
    teacherId = teacher!.id;
    const teacherUser = { id: teacherId, isAdmin: false };
    const options = { turnIntervalMinutes: null, startingCashDollars: 100_000, bots: 4, maxPlayers: 40 };
    const created = await createWorld(db, teacherUser, { name: 'Class A', seed: 11, ...options });
    classWorld = created.id;
    otherWorld = (await createWorld(db, teacherUser, { name: 'Class B', seed: 12, ...options })).id;
    await joinWorld(db, { id: student!.id, isAdmin: false, email: 'student@example.com' }, { code: created.join_code! });
  });
  afterAll(async () => {
    await database.drop();
  });

  it('a new world has its own market, taxes, city markets and bots, copied from the catalogue', async () => {
    const state = await worldState(db, classWorld);
    expect(state.week).toBe(1);
    expect(state.prices.length).toBeGreaterThan(300);
    expect(state.markets).toHaveLength(15_200);
    expect(state.taxes).toHaveLength(9);
    const [counts] = await db.execute<{ bots: number; players: number }>(sql`
      select count(*) filter (where is_bot)::int as bots, count(*) filter (where not is_bot)::int as players from companies where world_id = ${classWorld}`);
    expect(counts).toEqual({ bots: 4, players: 1 });
  });

  it('a public turn changes nothing in the class worlds, and a class turn nothing in the public world', async () => {
    const classBefore = await worldState(db, classWorld);
    const publicResult = await runTurn(db, { worldId: PUBLIC_WORLD_ID });
    expect(publicResult.status).toBe('advanced');
    expect(await worldState(db, classWorld)).toEqual(classBefore);

    const publicBefore = await worldState(db, PUBLIC_WORLD_ID);
    const otherBefore = await worldState(db, otherWorld);
    const classResult = await runTurn(db, { worldId: classWorld });
    expect(classResult).toMatchObject({ status: 'advanced', week: 1, newWeek: 2 });
    expect(await worldState(db, PUBLIC_WORLD_ID)).toEqual(publicBefore);
    expect(await worldState(db, otherWorld)).toEqual(otherBefore);
    const classAfter = await worldState(db, classWorld);
    expect(classAfter.week).toBe(2);
    expect(classAfter.prices).not.toEqual(classBefore.prices);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it("runs each world's week exactly once under concurrent turns, and different worlds side by side", async () => {
    const classWeek = await weekOf(db, classWorld);
    const otherWeek = await weekOf(db, otherWorld);
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () => runTurn(db, { worldId: classWorld, week: classWeek })),
      ...Array.from({ length: 4 }, () => runTurn(db, { worldId: otherWorld, week: otherWeek })),
    ]);
    expect(results.slice(0, 4).filter((result) => result.status === 'advanced')).toHaveLength(1);
    expect(results.slice(4).filter((result) => result.status === 'advanced')).toHaveLength(1);
    expect(await weekOf(db, classWorld)).toBe(classWeek + 1);
    expect(await weekOf(db, otherWorld)).toBe(otherWeek + 1);
    const turns = await db.execute<{ world_id: number; week: number }>(sql`
      select world_id, week from turns where world_id in (${classWorld}, ${otherWorld}) order by world_id, week`);
    expect(turns.map((row) => `${row.world_id}:${row.week}`)).toEqual([
      ...Array.from({ length: classWeek }, (_, index) => `${classWorld}:${index + 1}`),
      ...Array.from({ length: otherWeek }, (_, index) => `${otherWorld}:${index + 1}`),
    ]);
  });

  it('the clock sends each due class world once, with its week and its singleton key', async () => {
    await db.execute(sql`update worlds set turn_interval_minutes = 1, next_turn_at = now() - interval '1 second' where id = ${classWorld}`);
    const sent: Array<{ name: string; data: TurnJobData; key: string | undefined }> = [];
    const boss = {
      send: async (name: string, data: TurnJobData, options: { singletonKey?: string }) => {
        sent.push({ name, data, key: options.singletonKey });
        return `job-${sent.length}`;
      },
    } as unknown as PgBoss;
    const [first, second] = await Promise.all([enqueueDueWorlds(boss, db), enqueueDueWorlds(boss, db)]);
    expect([...first!, ...second!]).toEqual([classWorld]);
    expect(sent).toEqual([{ name: TURN_QUEUE, data: { worldId: classWorld, week: await weekOf(db, classWorld) }, key: `world:${classWorld}` }]);
    // The turn sets the world's next turn one interval after it ran.
    const result = await runTurn(db, { worldId: classWorld, week: sent[0]!.data.week });
    expect(result.status).toBe('advanced');
    const [clock] = await db.execute<{ minutes: number }>(sql`
      select extract(epoch from next_turn_at - last_turn_at)::float8 / 60 as minutes from worlds where id = ${classWorld}`);
    expect(Number(clock!.minutes)).toBeCloseTo(1, 5);
  });

  it('moves the price at once when an instructor adds a price shock, keeps it while it lasts, shows it in the news, and exports the weeks as CSV', async () => {
    const teacher = { id: teacherId, isAdmin: false };
    const options = { turnIntervalMinutes: null, startingCashDollars: 100_000, bots: 0, maxPlayers: 10, seed: 99 };
    const shocked = (await createWorld(db, teacher, { name: 'Shocked', ...options })).id;
    const control = (await createWorld(db, teacher, { name: 'Control', ...options })).id;
    const [wheat] = await db.execute<{ id: number; base: number }>(sql`select id, base_price_cents as base from products where name = 'Wheat'`);
    const priceIn = async (worldId: number) =>
      Number(
        (
          await db.execute<{ p: number }>(sql`select current_price_cents as p from world_products where world_id = ${worldId} and product_id = ${wheat!.id}`)
        )[0]!.p,
      );
    // Same seed, same (empty) market: the same prices week after week.
    await runTurn(db, { worldId: shocked, week: 1 });
    await runTurn(db, { worldId: control, week: 1 });
    expect(await priceIn(shocked)).toBe(await priceIn(control));
    const postedInWeekTwo = await priceIn(control);

    const shock = await addShock(db, teacher, shocked, { kind: 'price', productId: Number(wheat!.id), percent: 50, weeks: 1 });
    expect(shock).toMatchObject({ start_week: 2, end_week: 2, active: true, description: 'The exchange price of Wheat +50% for 1 week' });
    // At once: nobody can buy at the old price knowing the new one (nor the cities' shoppers).
    const shockedInWeekTwo = Math.round(postedInWeekTwo * 1.5);
    expect(await priceIn(shocked)).toBe(shockedInWeekTwo);
    const [reference] = await db.execute<{ r: number; f: number }>(sql`
      select market_price_cents as r, price_factor_bp as f from ${cityMarketsSql(shocked)} cmd where product_id = ${wheat!.id} order by city_id limit 1`);
    expect(Number(reference!.r)).toBe(Math.round((shockedInWeekTwo * 130 * Number(reference!.f)) / 1_000_000));
    // Its week's turn drifts toward the base moved by the shock: the price stays about 1.5x the control's.
    await runTurn(db, { worldId: shocked, week: 2 });
    await runTurn(db, { worldId: control, week: 2 });
    expect(Math.abs((await priceIn(shocked)) - (await priceIn(control)) * 1.5)).toBeLessThanOrEqual(2);
    // Over: nothing jumps back; the price drifts home like after any move (10% of its log gap a week).
    await runTurn(db, { worldId: shocked, week: 3 });
    await runTurn(db, { worldId: control, week: 3 });
    expect(Math.abs((await priceIn(shocked)) - (await priceIn(control)) * 1.5 ** 0.9)).toBeLessThanOrEqual(2);
    const news = await recentNews(db, shocked);
    expect(news.find((item) => item.kind === 'shock')?.description).toBe('Shock: The exchange price of Wheat +50% for 1 week');
    expect((await recentNews(db, control)).some((item) => item.kind === 'shock')).toBe(false);

    const { csv: prices } = await exportWorldCsv(db, teacher, shocked, 'prices');
    const lines = prices.trim().split('\r\n');
    expect(lines[0]).toBe('week,product_id,product,category,price');
    expect(lines.filter((line) => line.startsWith(`2,${wheat!.id},Wheat,`))).toEqual([
      `2,${wheat!.id},Wheat,Agricultural,${(shockedInWeekTwo / 100).toFixed(2)}`,
    ]);
    await expect(exportWorldCsv(db, { id: teacherId + 1_000_000, isAdmin: false }, shocked, 'prices')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it("a -90% price shock stops at the exchange's floor and, once over, leaves the price below its base drifting home (the first version left it at 2.5x its base)", async () => {
    const teacher = { id: teacherId, isAdmin: false };
    const options = { turnIntervalMinutes: null, startingCashDollars: 100_000, bots: 0, maxPlayers: 10, seed: 77 };
    const shocked = (await createWorld(db, teacher, { name: 'Crash', ...options })).id;
    const control = (await createWorld(db, teacher, { name: 'No crash', ...options })).id;
    const [ore] = await db.execute<{ id: number; base: number }>(sql`select id, base_price_cents as base from products where name = 'Iron Ore'`);
    const base = Number(ore!.base);
    const priceIn = async (worldId: number) =>
      Number(
        (await db.execute<{ p: number }>(sql`select current_price_cents as p from world_products where world_id = ${worldId} and product_id = ${ore!.id}`))[0]!
          .p,
      );
    await addShock(db, teacher, shocked, { kind: 'price', productId: Number(ore!.id), percent: -90, weeks: 1 });
    expect(await priceIn(shocked)).toBe(Math.ceil(base / 4));
    await runTurn(db, { worldId: shocked, week: 1 });
    await runTurn(db, { worldId: control, week: 1 });
    let previous = await priceIn(shocked);
    expect(previous).toBeGreaterThanOrEqual(Math.ceil(base / 4));
    for (const week of [2, 3, 4]) {
      await runTurn(db, { worldId: shocked, week });
      await runTurn(db, { worldId: control, week });
      // Over: the price climbs back toward the market's (10% of its log gap a week, noise aside), never past it.
      const price = await priceIn(shocked);
      expect(price, `week ${week + 1}`).toBeGreaterThan(previous);
      expect(price, `week ${week + 1}`).toBeLessThan(await priceIn(control));
      previous = price;
    }
  });

  it('a price shock pays no sure profit: trading on its news or its end loses, and the price stays within its bounds', async () => {
    // Before: the shock moved the price a turn after its news and the turn after its end moved it back
    // by the same factor, whatever trading had done: buying on a +60% shock's news paid +45% in a
    // week, buying during a -50% shock +48%, and 3 depths of wheat during a -90% shock turned $1.5M
    // into $11.7M (the price reached 40x its base). With the shock as a factor over the market's own
    // price, taken off when it ended, a depth of wheat bought for $54,000 during -90% sold for $480,000.
    const teacher = { id: teacherId, isAdmin: false };
    const world = await createWorld(db, teacher, {
      name: 'Shock traders',
      turnIntervalMinutes: null,
      startingCashDollars: 2_000_000,
      bots: 0,
      maxPlayers: 10,
      seed: 5,
    });
    const [trader] = await db
      .insert(users)
      .values({ email: `trader-${Date.now()}@example.com` })
      .returning({ id: users.id });
    await joinWorld(db, { id: trader!.id, isAdmin: false, email: 'trader@example.com' }, { code: world.join_code! });
    const [company] = await db.execute<{ id: number }>(sql`select id from companies where world_id = ${world.id} and user_id = ${trader!.id}`);
    const products = await db.execute<{ id: number; name: string; base: number; depth: number }>(sql`
      select id, name, base_price_cents as base, depth_units as depth from products where name in ('Wheat', 'Iron Ore', 'Cotton') order by name`);
    const [cotton, ironOre, wheat] = products.map((row) => ({ id: Number(row.id), base: Number(row.base), half: Math.round(Number(row.depth) / 2) }));
    const priceOf = async (productId: number) =>
      Number(
        (
          await db.execute<{ p: number }>(sql`select current_price_cents as p from world_products where world_id = ${world.id} and product_id = ${productId}`)
        )[0]!.p,
      );
    const trade = (productId: number, quantity: number, action: 'buy' | 'sell') =>
      act(db, 'marketTrade', { companyId: Number(company!.id), actingUserId: null, input: { product_id: productId, quantity, action } });
    await runTurn(db, { worldId: world.id, week: 1 });

    // Week 2: the news of +60% on iron ore, -40% on wheat (1 week) and -90% on cotton (2 weeks).
    await addShock(db, teacher, world.id, { kind: 'price', productId: ironOre!.id, percent: 60, weeks: 1 });
    await addShock(db, teacher, world.id, { kind: 'price', productId: wheat!.id, percent: -40, weeks: 1 });
    await addShock(db, teacher, world.id, { kind: 'price', productId: cotton!.id, percent: -90, weeks: 2 });
    expect(await priceOf(cotton!.id)).toBe(Math.ceil(cotton!.base / 4)); // -90% stops at the exchange's floor, 0.25x base
    const ironOreCost = (await trade(ironOre!.id, ironOre!.half, 'buy')).total;
    await runTurn(db, { worldId: world.id, week: 2 });
    const ironOreProceeds = (await trade(ironOre!.id, ironOre!.half, 'sell')).total;
    expect(ironOreProceeds).toBeLessThan(ironOreCost);

    // Week 3: wheat's shock is over, cotton's lasts one more week; both bought now, sold when theirs is over.
    const wheatCost = (await trade(wheat!.id, wheat!.half, 'buy')).total;
    const cottonCost = (await trade(cotton!.id, cotton!.half, 'buy')).total;
    await runTurn(db, { worldId: world.id, week: 3 });
    expect((await trade(wheat!.id, wheat!.half, 'sell')).total).toBeLessThan(wheatCost);
    await runTurn(db, { worldId: world.id, week: 4 });
    expect((await trade(cotton!.id, cotton!.half, 'sell')).total).toBeLessThan(cottonCost);
    for (const product of [cotton!, ironOre!, wheat!]) {
      expect(await priceOf(product.id)).toBeGreaterThanOrEqual(Math.ceil(product.base / 4));
      expect(await priceOf(product.id)).toBeLessThanOrEqual(product.base * 4);
    }
  });

  it('demand shocks that add up below -100% leave no shoppers (they sold at full capacity)', async () => {
    const teacher = { id: teacherId, isAdmin: false };
    const world = await createWorld(db, teacher, {
      name: 'Empty shops',
      turnIntervalMinutes: null,
      startingCashDollars: 1_000_000,
      bots: 0,
      maxPlayers: 10,
      seed: 5,
    });
    const [shopkeeper] = await db
      .insert(users)
      .values({ email: `shopkeeper-${Date.now()}@example.com` })
      .returning({ id: users.id });
    await joinWorld(db, { id: shopkeeper!.id, isAdmin: false, email: 'shopkeeper@example.com' }, { code: world.join_code! });
    const [company] = await db.execute<{ id: number }>(sql`select id from companies where world_id = ${world.id} and user_id = ${shopkeeper!.id}`);
    const companyId = Number(company!.id);
    const [bread] = await db.execute<{ id: number; base: number }>(sql`select id, base_price_cents as base from products where name = 'White Bread'`);
    const [city] = await db.execute<{ id: number }>(sql`select id from cities order by population desc limit 1`);
    const store = await act(db, 'buildBuilding', { companyId, actingUserId: null, input: { type: 'store', city_id: Number(city!.id) } });
    await act(db, 'marketTrade', { companyId, actingUserId: null, input: { product_id: Number(bread!.id), quantity: 500, action: 'buy' } });
    await act(db, 'transferToStore', {
      companyId,
      actingUserId: null,
      input: { id: store.id, product_id: Number(bread!.id), quantity: 500, retail_price: Number(bread!.base) / 100 },
    });
    // Two -60% shocks: -120% together.
    for (let index = 0; index < 2; index += 1) await addShock(db, teacher, world.id, { kind: 'demand', productId: Number(bread!.id), percent: -60, weeks: 3 });
    expect((await runTurn(db, { worldId: world.id, week: 1 })).status).toBe('advanced');
    const [shelf] = await db.execute<{ quantity: number }>(sql`select quantity from store_products where world_id = ${world.id} and building_id = ${store.id}`);
    expect(Number(shelf!.quantity)).toBe(500);
  });

  it('an ended world keeps its data and never turns again', async () => {
    const before = await worldState(db, otherWorld);
    const ended = await endWorld(db, { id: teacherId, isAdmin: false }, otherWorld);
    expect(ended.status).toBe('ended');
    const result = await runTurn(db, { worldId: otherWorld, week: before.week });
    expect(result).toMatchObject({ status: 'skipped', reason: `world ${otherWorld} has ended` });
    expect(await worldState(db, otherWorld)).toEqual(before);
  });

  it("a paused public world: the schedule's turn does nothing until the admin resumes the clock", async () => {
    const [admin] = await db
      .insert(users)
      .values({ email: `admin-${Date.now()}@example.com`, isAdmin: true })
      .returning({ id: users.id });
    const siteAdmin = { id: admin!.id, isAdmin: true };
    const week = await weekOf(db, PUBLIC_WORLD_ID);
    await updateWorldClock(db, siteAdmin, PUBLIC_WORLD_ID, { status: 'paused' });
    // A scheduled job names no week (the cron's payload is { worldId }).
    const result = await runTurn(db, { worldId: PUBLIC_WORLD_ID });
    expect(result).toMatchObject({ status: 'skipped', reason: `world ${PUBLIC_WORLD_ID} is paused` });
    expect(await weekOf(db, PUBLIC_WORLD_ID)).toBe(week);
    const resumed = await updateWorldClock(db, siteAdmin, PUBLIC_WORLD_ID, { status: 'active' });
    expect(resumed.status).toBe('active');
  });
});
