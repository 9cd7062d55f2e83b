/**
 * Personal access tokens and worlds (docs/api.md, "Worlds"; api/src/access/tokenWorld.ts): a token
 * acts in the public world unless the request names, with X-World-Id, a private world its user
 * plays in; there it reads and trades that world's company and market only. A world the user is not
 * part of (or no world) answers 404 on every route, public reads included; a malformed id 400;
 * browser sessions are told to use the world switcher (400), never silently answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createWorld, joinWorld, ledgerMismatches, type Database } from '@marketcraft/db';
import { PUBLIC_WORLD_ID } from '@marketcraft/shared';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';
import { WORLD_HEADER_FORMAT_MESSAGE, WORLD_HEADER_SESSION_MESSAGE, worldHeaderNotFoundMessage } from '../src/access/tokenWorld.ts';

describe('personal access tokens in worlds (X-World-Id)', () => {
  let app: TestApp;
  let db: Database;
  let student: TestPlayer;
  let teacher: TestPlayer;
  let token: string;
  let classWorld: number;
  let otherWorld: number;
  let classCompany: number;

  const inWorld = (world: number | string) => ({ 'x-world-id': String(world) });

  beforeAll(async () => {
    app = await startTestApp();
    db = app.database.db;
    teacher = await app.createPlayer({ name: 'Token Teacher Co' });
    student = await app.createPlayer({ name: 'Token Public Co' });
    const settings = { turnIntervalMinutes: null, startingCashDollars: 40_000, bots: 2, maxPlayers: 10 };
    const world = await createWorld(db, { id: teacher.userId, isAdmin: false }, { name: 'Token class', seed: 21, ...settings });
    classWorld = world.id;
    otherWorld = (await createWorld(db, { id: teacher.userId, isAdmin: false }, { name: 'Not your class', seed: 22, ...settings })).id;
    await joinWorld(db, { id: student.userId, isAdmin: false, email: student.email }, { code: world.join_code!, companyName: 'Token Class Co' });
    const [row] = await db.execute<{ id: number }>(sql`select id from companies where world_id = ${classWorld} and user_id = ${student.userId}`);
    classCompany = Number(row!.id);
    const created = await app.api('POST', '/tokens', { token: student.token, body: { name: 'class script', scope: 'trade' } });
    expect(created.status).toBe(200);
    token = created.body.token;
  });
  afterAll(async () => {
    await app.close();
  });

  it('acts in the public world without the header (or with id 1)', async () => {
    const plain = await app.api('GET', '/company', { token });
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({ id: student.companyId, name: 'Token Public Co' });
    const named = await app.api('GET', '/company', { token, headers: inWorld(PUBLIC_WORLD_ID) });
    expect(named.body).toMatchObject({ id: student.companyId });
  });

  it("reads and trades the named world's company and market, and nothing of the public world", async () => {
    const company = await app.api('GET', '/company', { token, headers: inWorld(classWorld) });
    expect(company.status).toBe(200);
    expect(company.body).toMatchObject({ id: classCompany, name: 'Token Class Co', cash: 40_000 });
    const board = await app.api<Array<{ id: number }>>('GET', '/companies', { token, headers: inWorld(classWorld) });
    expect(board.body).toHaveLength(3); // the 2 bots and the student
    expect(board.body.map((row) => row.id)).toContain(classCompany);

    const goods = await app.api<Array<{ id: number; name: string; buy_price: number }>>('GET', '/goods', { token, headers: inWorld(classWorld) });
    const wheat = goods.body.find((good) => good.name === 'Wheat')!;
    /** Wheat's one-unit price in a world's goods list: with the token (X-World-Id), or with a session in its current world. */
    const wheatPrice = async (credentials: { token: string; headers?: Record<string, string> }) =>
      (await app.api<Array<{ id: number; buy_price: number }>>('GET', '/goods', credentials)).body.find((good) => good.id === wheat.id)!.buy_price;
    const publicWheat = await wheatPrice({ token });
    const publicCashBefore = (await app.api('GET', '/company', { token })).body.cash;
    const bought = await app.api('POST', '/market/trade', { token, headers: inWorld(classWorld), body: { product_id: wheat.id, quantity: 10, action: 'buy' } });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    // Each world's kept goods list moves with its own trades only, read with a token or a session.
    const moved = await app.api('POST', '/market/trade', {
      token,
      headers: inWorld(classWorld),
      body: { product_id: wheat.id, quantity: 1_000, action: 'buy' },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await wheatPrice({ token, headers: inWorld(classWorld) })).toBeGreaterThan(wheat.buy_price);
    expect(await wheatPrice({ token })).toBe(publicWheat);
    expect(await wheatPrice({ token: student.token })).toBe(publicWheat);
    expect((await app.api('PUT', '/session/world', { token: student.token, body: { world_id: classWorld } })).status).toBe(200);
    expect(await wheatPrice({ token: student.token })).toBe(await wheatPrice({ token, headers: inWorld(classWorld) }));
    expect((await app.api('PUT', '/session/world', { token: student.token, body: { world_id: PUBLIC_WORLD_ID } })).status).toBe(200);
    const [ledger] = await db.execute<{ world_id: number; company_id: number }>(sql`
      select world_id, company_id from transactions where reason = 'market_buy' and company_id in (${classCompany}, ${student.companyId})`);
    expect({ world: Number(ledger!.world_id), company: Number(ledger!.company_id) }).toEqual({ world: classWorld, company: classCompany });
    expect((await app.api('GET', '/company', { token, headers: inWorld(classWorld) })).body.cash).toBeLessThan(40_000);
    expect((await app.api('GET', '/company', { token })).body.cash).toBe(publicCashBefore);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('refuses a world the user is not part of, or no world, with 404 on every route (public reads too)', async () => {
    for (const world of [otherWorld, 999_999]) {
      for (const path of ['/company', '/world', '/goods']) {
        const refused = await app.api('GET', path, { token, headers: inWorld(world) });
        expect(refused.status, `${path} in world ${world}`).toBe(404);
        expect(refused.body).toEqual({ error: worldHeaderNotFoundMessage(world) });
      }
    }
    const trade = await app.api('POST', '/market/trade', { token, headers: inWorld(otherWorld), body: { product_id: 1, quantity: 1, action: 'buy' } });
    expect(trade.status).toBe(404);
    const [counted] = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from transactions where world_id = ${otherWorld} and company_id in (${classCompany}, ${student.companyId})`,
    );
    expect(Number(counted!.n)).toBe(0);
  });

  it('refuses a malformed id with 400', async () => {
    for (const value of ['abc', '0', '-3', '1.5', '7 8', '99999999999']) {
      const refused = await app.api('GET', '/company', { token, headers: inWorld(value) });
      expect(refused.status, value).toBe(400);
      expect(refused.body).toEqual({ error: WORLD_HEADER_FORMAT_MESSAGE });
    }
  });

  it('lets a script on another site send the header (CORS preflight)', async () => {
    const preflight = await fetch(`${app.baseUrl}/api/company`, {
      method: 'OPTIONS',
      headers: { origin: 'https://notebook.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization, x-world-id' },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(
      preflight.headers
        .get('access-control-allow-headers')
        ?.toLowerCase()
        .split(/\s*,\s*/),
    ).toContain('x-world-id');
    const answer = await app.api('GET', '/company', { token, headers: { ...inWorld(classWorld), origin: 'https://notebook.example' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: classCompany });
  });

  it('tells a browser session to use the world switcher instead', async () => {
    const refused = await app.api('GET', '/company', { token: student.token, headers: inWorld(classWorld) });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: WORLD_HEADER_SESSION_MESSAGE });
  });

  it('lets the instructor of a world read it with a token, still never its instructor tools', async () => {
    const created = await app.api('POST', '/tokens', { token: teacher.token, body: { name: 'teacher script', scope: 'manage' } });
    const teacherToken = created.body.token as string;
    const world = await app.api('GET', '/world', { token: teacherToken, headers: inWorld(otherWorld) });
    expect(world.status).toBe(200);
    expect(world.body).toMatchObject({ current_week: 1 });
    // No company of theirs plays there.
    expect((await app.api('GET', '/company', { token: teacherToken, headers: inWorld(otherWorld) })).status).toBe(404);
    const announced = await app.api('POST', `/worlds/${otherWorld}/announcements`, {
      token: teacherToken,
      headers: inWorld(otherWorld),
      body: { message: 'Hello' },
    });
    expect(announced.status).toBe(403);
  });
});
