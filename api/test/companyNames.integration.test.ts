/**
 * Company names are unique per world among active companies, bots included, ignoring case and
 * surrounding spaces (docs/world.md, "Company names"): on PATCH /api/company/profile, on founding
 * (joining a class world, founding again after bankruptcy) and under concurrency, where the
 * database's unique index decides: one request wins, the other gets 409, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { COMPANY_NAME_TAKEN, companies, createPlayerCompany, createWorld, users, type Database } from '@marketcraft/db';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';
import { COMPANY_NAME_INVISIBLE_MESSAGE } from '@marketcraft/shared';

describe('company names', () => {
  let app: TestApp;
  let db: Database;
  let botName: string;

  beforeAll(async () => {
    app = await startTestApp();
    db = app.database.db;
    const [bot] = await db.execute<{ name: string }>(sql`select name from companies where world_id = 1 and is_bot order by id limit 1`);
    botName = bot!.name;
  });
  afterAll(async () => {
    await app.close();
  });

  const rename = (player: TestPlayer, name: string) => app.api('PATCH', '/company/profile', { token: player.token, body: { name } });
  const nameOf = async (player: TestPlayer) => (await app.api('GET', '/company', { token: player.token })).body.name;

  it("refuses a bot's or another player's name, whatever its case and spaces (409), and keeps the profile", async () => {
    const player = await app.createPlayer({ name: 'Original Name Co' });
    const taken = await rename(player, `  ${botName.toUpperCase()}  `);
    expect(taken).toMatchObject({ status: 409, body: { error: COMPANY_NAME_TAKEN } });
    const other = await app.createPlayer({ name: 'Taken Traders' });
    expect(await rename(player, 'taken traders')).toMatchObject({ status: 409, body: { error: COMPANY_NAME_TAKEN } });
    expect(await nameOf(player)).toBe('Original Name Co');
    expect(await nameOf(other)).toBe('Taken Traders');
    // Its own name in another case is not taken.
    expect(await rename(player, 'ORIGINAL name co')).toMatchObject({ status: 200, body: { name: 'ORIGINAL name co' } });
  });

  it('refuses a look-alike of a taken name: invisible characters inside it (400), and a run of spaces counts as one (409)', async () => {
    const player = await app.createPlayer({ name: 'Lookalike Maker Co' });
    await app.createPlayer({ name: 'Acme Original' });
    for (const disguised of ['Acme Original\u200B', 'Acme\u200BOriginal', 'Acme\u2060 Original', '\u00ADAcme Original']) {
      expect(await rename(player, disguised)).toMatchObject({ status: 400, body: { error: COMPANY_NAME_INVISIBLE_MESSAGE } });
    }
    expect(await rename(player, 'Acme   Original')).toMatchObject({ status: 409, body: { error: COMPANY_NAME_TAKEN } });
    // Spaces inside a free name are kept as one; an emoji with its variation selector is fine.
    expect(await rename(player, 'Sun  \u2600\uFE0F   Bakery')).toMatchObject({ status: 200, body: { name: 'Sun \u2600\uFE0F Bakery' } });
    expect(await nameOf(player)).toBe('Sun \u2600\uFE0F Bakery');
  });

  it('two players renaming to one name at once: one wins, the other gets 409, never a 500', async () => {
    const first = await app.createPlayer({ name: 'Racer One' });
    const second = await app.createPlayer({ name: 'Racer Two' });
    for (let round = 1; round <= 5; round += 1) {
      const wanted = `Photo Finish ${round}`;
      const answers = await Promise.all([rename(first, wanted), rename(second, wanted.toLowerCase())]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect(answers.find((answer) => answer.status === 409)!.body).toEqual({ error: COMPANY_NAME_TAKEN });
      const [row] = await db.execute<{ n: number }>(sql`select count(*)::int as n from companies where world_id = 1 and lower(name) = ${wanted.toLowerCase()}`);
      expect(row!.n).toBe(1);
    }
  });

  it('refuses a taken name when joining a class world (bots included), also when two students race for it', async () => {
    const teacher = await app.createPlayer({ name: 'Name Teacher Co' });
    const world = await createWorld(db, { id: teacher.userId, isAdmin: false }, { name: 'Names class', turnIntervalMinutes: null, startingCashDollars: 50_000, bots: 2, seed: 5, maxPlayers: 30 });
    const [classBot] = await db.execute<{ name: string }>(sql`select name from companies where world_id = ${world.id} and is_bot order by id limit 1`);
    const join = (player: TestPlayer, companyName: string) => app.api('POST', '/worlds/join', { token: player.token, body: { code: world.join_code, company_name: companyName } });

    const student = await app.createPlayer({ name: 'Student Names Co' });
    expect(await join(student, ` ${classBot!.name.toLowerCase()} `)).toMatchObject({ status: 409, body: { error: COMPANY_NAME_TAKEN } });
    expect(await join(student, 'Class Bakery')).toMatchObject({ status: 200, body: { id: world.id, joined: true } });

    const a = await app.createPlayer({ name: 'Student A Names' });
    const b = await app.createPlayer({ name: 'Student B Names' });
    const answers = await Promise.all([join(a, 'Twin Mills'), join(b, 'TWIN MILLS')]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body).toEqual({ error: COMPANY_NAME_TAKEN });
    const [row] = await db.execute<{ n: number }>(sql`select count(*)::int as n from companies where world_id = ${world.id} and not is_bot`);
    expect(row!.n).toBe(2);
  });

  it('refuses a taken name when founding again after bankruptcy; a bankrupt company frees its name', async () => {
    const keeper = await app.createPlayer({ name: 'Phoenix Holdings' });
    const player = await app.createPlayer({ name: 'Going Under Ltd' });
    await db.update(companies).set({ status: 'bankrupt', bankruptAt: new Date() }).where(eq(companies.id, player.companyId));
    expect(await app.api('POST', '/company', { token: player.token, body: { name: 'phoenix holdings' } })).toMatchObject({ status: 409, body: { error: COMPANY_NAME_TAKEN } });
    expect((await app.api('GET', '/company', { token: player.token })).status).toBe(404);
    // The bankrupt company's own name is free again.
    expect(await app.api('POST', '/company', { token: player.token, body: { name: 'Going Under Ltd' } })).toMatchObject({ status: 200, body: { name: 'Going Under Ltd' } });
    expect(await nameOf(keeper)).toBe('Phoenix Holdings');
  });

  it('gives a default name the next free number (sign-ups whose addresses make the same name)', async () => {
    const founded: string[] = [];
    for (const email of ['sam.lee@one.example', 'Sam.Lee@two.example', 'sam-lee+x@three.example']) {
      const company = await db.transaction(async (tx) => {
        const [user] = await tx.insert(users).values({ email }).returning({ id: users.id });
        return createPlayerCompany(tx, { worldId: 1, userId: user!.id, email, mode: 'flat' });
      });
      founded.push(company.name);
    }
    expect(founded).toEqual(['Sam Lee Enterprises', 'Sam Lee Enterprises 2', 'Sam Lee Enterprises 3']);
  });
});
