/**
 * Worlds through the API (docs/worlds.md): a private world is a whole game of its own. A player
 * switched into it sees and changes only its week, market, companies and shares; the public world
 * sees nothing of it; a user who is not a member cannot switch to it (404, like an unknown world).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createWorld, joinWorld, ledgerMismatches, switchWorld, type Database } from '@marketcraft/db';
import { PUBLIC_WORLD_ID } from '@marketcraft/shared';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';

const sessionIdOf = (player: TestPlayer) => player.token.split('.')[0]!;

describe('worlds: isolation through the API', () => {
  let app: TestApp;
  let db: Database;
  let instructor: TestPlayer;
  let student: TestPlayer;
  let outsider: TestPlayer;
  let worldId: number;
  let studentCompany: number;

  beforeAll(async () => {
    app = await startTestApp();
    db = app.database.db;
    instructor = await app.createPlayer({ name: 'Teacher Co' });
    student = await app.createPlayer({ name: 'Student Public Co' });
    outsider = await app.createPlayer({ name: 'Outsider Co' });
    const world = await createWorld(
      db,
      { id: instructor.userId, isAdmin: false },
      {
        name: 'Econ 101',
        turnIntervalMinutes: null,
        startingCashDollars: 50_000,
        bots: 3,
        seed: 7,
        maxPlayers: 30,
      },
    );
    worldId = world.id;
    expect(world.join_code).toMatch(/^[A-Z2-9]{8}$/);
    const joined = await joinWorld(
      db,
      { id: student.userId, isAdmin: false, email: student.email },
      { code: world.join_code!, companyName: 'Student Class Co' },
    );
    expect(joined).toMatchObject({ id: worldId, role: 'player', joined: true });
    await switchWorld(db, { id: student.userId, isAdmin: false }, sessionIdOf(student), worldId);
    const [row] = await db.execute<{ id: number }>(sql`select id from companies where world_id = ${worldId} and user_id = ${student.userId}`);
    studentCompany = Number(row!.id);
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers the player for the current world: its own company, week, leaderboard and starting cash', async () => {
    const company = await app.api('GET', '/company', { token: student.token });
    expect(company.status).toBe(200);
    expect(company.body).toMatchObject({ id: studentCompany, name: 'Student Class Co', cash: 50_000 });
    const leaderboard = await app.api<Array<{ id: number; is_bot: boolean }>>('GET', '/companies', { token: student.token });
    expect(leaderboard.status).toBe(200);
    // The world's 3 bots and the student: none of the public world's 25 bots or players.
    expect(leaderboard.body).toHaveLength(4);
    const inWorld = await db.execute<{ id: number }>(sql`select id from companies where world_id = ${worldId} and status = 'active'`);
    expect(new Set(leaderboard.body.map((row) => row.id))).toEqual(new Set(inWorld.map((row) => Number(row.id))));
    const publicBoard = await app.api<Array<{ id: number }>>('GET', '/companies', { token: instructor.token });
    expect(publicBoard.body.some((row) => inWorld.some((own) => Number(own.id) === row.id))).toBe(false);
  });

  it('keeps the market apart: a purchase in the class world moves only its flow and prices', async () => {
    const goods = await app.api<Array<{ id: number; name: string; current_price: number }>>('GET', '/goods', { token: student.token });
    const wheat = goods.body.find((good) => good.name === 'Wheat')!;
    const before = await app.api<Array<{ id: number; buy_price: number }>>('GET', '/goods', { token: instructor.token });
    const bought = await app.api('POST', '/market/trade', { token: student.token, body: { product_id: wheat.id, quantity: 500, action: 'buy' } });
    expect(bought.status).toBe(200);
    const flows = await db.execute<{ world_id: number; flow: number }>(sql`
      select world_id, units_bought - units_sold as flow from market_activity where product_id = ${wheat.id} order by world_id`);
    expect(flows.map((row) => ({ world: Number(row.world_id), flow: Number(row.flow) }))).toEqual([{ world: worldId, flow: 500 }]);
    const after = await app.api<Array<{ id: number; buy_price: number }>>('GET', '/goods', { token: instructor.token });
    expect(after.body.find((good) => good.id === wheat.id)).toEqual(before.body.find((good) => good.id === wheat.id));
    const quoteHere = await app.api<{ price_before: number }>('GET', `/market/quote?product_id=${wheat.id}&quantity=1&action=buy`, { token: student.token });
    const quotePublic = await app.api<{ price_before: number }>('GET', `/market/quote?product_id=${wheat.id}&quantity=1&action=buy`, {
      token: instructor.token,
    });
    expect(quoteHere.body.price_before).toBeGreaterThan(quotePublic.body.price_before);
    const [ledger] = await db.execute<{ world_id: number }>(
      sql`select world_id from transactions where company_id = ${studentCompany} and reason = 'market_buy'`,
    );
    expect(Number(ledger!.world_id)).toBe(worldId);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it("refuses to trade, quote or chart another world's companies (404), and to touch its buildings", async () => {
    const [publicBot] = await db.execute<{ id: number }>(sql`select id from companies where world_id = ${PUBLIC_WORLD_ID} and is_bot order by id limit 1`);
    const trade = await app.api('POST', '/stocks/trade', { token: student.token, body: { company_id: Number(publicBot!.id), shares: 1, action: 'buy' } });
    expect(trade.status).toBe(404);
    const quote = await app.api('GET', `/stocks/quote?company_id=${Number(publicBot!.id)}&shares=1&action=buy`, { token: student.token });
    expect(quote.status).toBe(404);
    const history = await app.api('GET', `/stocks/history?company_id=${Number(publicBot!.id)}`, { token: student.token });
    expect(history.status).toBe(404);
    const shares = await app.api<Array<{ company_id: number }>>('GET', '/shares', { token: student.token });
    expect(shares.body.some((row) => row.company_id === Number(publicBot!.id))).toBe(false);
    const [publicBuilding] = await db.execute<{ id: number }>(sql`select id from buildings where world_id = ${PUBLIC_WORLD_ID} order by id limit 1`);
    const hire = await app.api('POST', `/buildings/${Number(publicBuilding!.id)}/hire-employees`, { token: student.token, body: { count: 1 } });
    expect(hire.status).toBe(404);
  });

  it("builds in the class world: the building, its ledger row and the week are the world's", async () => {
    const cities = await app.api<Array<{ id: number }>>('GET', '/cities', { token: student.token });
    const built = await app.api<{ id: number }>('POST', '/buildings', { token: student.token, body: { type: 'farm', city_id: cities.body[0]!.id } });
    expect(built.status).toBe(200);
    const [row] = await db.execute<{ world_id: number }>(sql`select world_id from buildings where id = ${built.body.id}`);
    expect(Number(row!.world_id)).toBe(worldId);
    const mine = await app.api<Array<{ id: number }>>('GET', '/buildings', { token: student.token });
    expect(mine.body.map((building) => building.id)).toEqual([built.body.id]);
    // The same user in the public world still has the public company (one company per world).
    await switchWorld(db, { id: student.userId, isAdmin: false }, sessionIdOf(student), PUBLIC_WORLD_ID);
    const publicCompany = await app.api<{ id: number; name: string }>('GET', '/company', { token: student.token });
    expect(publicCompany.body).toMatchObject({ id: student.companyId, name: 'Student Public Co' });
    expect((await app.api<unknown[]>('GET', '/buildings', { token: student.token })).body).toEqual([]);
    await switchWorld(db, { id: student.userId, isAdmin: false }, sessionIdOf(student), worldId);
  });

  it('answers 404 to a user who is not in the private world, as for a world that does not exist', async () => {
    await expect(switchWorld(db, { id: outsider.userId, isAdmin: false }, sessionIdOf(outsider), worldId)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'World not found',
    });
    await expect(switchWorld(db, { id: outsider.userId, isAdmin: false }, sessionIdOf(outsider), 999_999)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'World not found',
    });
    // Their session stays in the public world.
    const company = await app.api<{ id: number }>('GET', '/company', { token: outsider.token });
    expect(company.body.id).toBe(outsider.companyId);
  });

  it("says how each world's turns come now, in the server's words (/worlds, the manage page, the header)", async () => {
    type Row = { id: number; turns: string };
    const turnsOf = async (id: number) => (await app.api<Row[]>('GET', '/worlds', { token: instructor.token })).body.find((row) => row.id === id)?.turns;
    expect(await turnsOf(PUBLIC_WORLD_ID)).toBe('Every 12 hours');
    expect(await turnsOf(worldId)).toBe('Manual turns');
    expect((await app.api('GET', '/world', { token: student.token })).body).toMatchObject({ next_turn_at: null, turns: 'Manual turns' });

    const timed = await app.api('PATCH', `/worlds/${worldId}`, { token: instructor.token, body: { turn_interval_minutes: 5 } });
    expect(timed).toMatchObject({ status: 200, body: { turns: 'Every 5 min' } });
    const paused = await app.api('PATCH', `/worlds/${worldId}`, { token: instructor.token, body: { status: 'paused' } });
    expect(paused).toMatchObject({ status: 200, body: { turns: 'Paused' } });
    expect(await turnsOf(worldId)).toBe('Paused');
    expect((await app.api('GET', '/world', { token: student.token })).body.turns).toBe('Paused');
    await app.api('PATCH', `/worlds/${worldId}`, { token: instructor.token, body: { status: 'active', turn_interval_minutes: null } });
    expect(await turnsOf(worldId)).toBe('Manual turns');

    // The public world without a schedule: the worker started with TURN_SCHEDULE_ENABLED=0 leaves it
    // no next turn time (worker/test/queue.integration.test.ts), so it no longer says every 12 hours.
    const [saved] = await db.execute<{ next_turn_at: Date }>(sql`select next_turn_at from worlds where id = ${PUBLIC_WORLD_ID}`);
    await db.execute(sql`update worlds set next_turn_at = null where id = ${PUBLIC_WORLD_ID}`);
    try {
      expect(await turnsOf(PUBLIC_WORLD_ID)).toBe('Manual turns');
      expect((await app.api('GET', '/world')).body).toMatchObject({ next_turn_at: null, turns: 'Manual turns' });
    } finally {
      await db.execute(sql`update worlds set next_turn_at = ${saved!.next_turn_at} where id = ${PUBLIC_WORLD_ID}`);
    }
    expect((await app.api('GET', '/world')).body.turns).toBe('Every 12 hours');

    const short = await createWorld(
      db,
      { id: instructor.userId, isAdmin: false },
      { name: 'Ends soon', turnIntervalMinutes: 10, startingCashDollars: 50_000, bots: 0, seed: 1, maxPlayers: 30 },
    );
    expect(short.turns).toBe('Every 10 min');
    expect((await app.api('POST', `/worlds/${short.id}/end`, { token: instructor.token })).status).toBe(200);
    expect(await turnsOf(short.id)).toBe('Ended');
  });
});
