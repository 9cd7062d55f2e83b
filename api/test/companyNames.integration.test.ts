/**
 * Company names are unique per world among active companies, bots included, ignoring case and
 * surrounding spaces (docs/world.md, "Company names"): on PATCH /api/company/profile, on founding
 * (joining a class world, founding again after bankruptcy) and under concurrency, where the
 * database's unique index decides: one request wins, the other gets 409, never a 500. Nor may a
 * name look like a taken one (Unicode's confusable skeleton: a Cyrillic 'а' for a Latin 'a').
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import {
  COMPANY_NAME_TAKEN,
  COMPANY_NAME_TOO_SIMILAR,
  companies,
  companyNameKey,
  createPlayerCompany,
  createWorld,
  fillCompanyNameKeys,
  users,
  type Database,
} from '@marketcraft/db';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';
import { COMPANY_NAME_INVISIBLE_MESSAGE, type CompanyStatus } from '@marketcraft/shared';

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
    const world = await createWorld(
      db,
      { id: teacher.userId, isAdmin: false },
      { name: 'Names class', turnIntervalMinutes: null, startingCashDollars: 50_000, bots: 2, seed: 5, maxPlayers: 30 },
    );
    const [classBot] = await db.execute<{ name: string }>(sql`select name from companies where world_id = ${world.id} and is_bot order by id limit 1`);
    const join = (player: TestPlayer, companyName: string) =>
      app.api('POST', '/worlds/join', { token: player.token, body: { code: world.join_code, company_name: companyName } });

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
    expect(await app.api('POST', '/company', { token: player.token, body: { name: 'phoenix holdings' } })).toMatchObject({
      status: 409,
      body: { error: COMPANY_NAME_TAKEN },
    });
    expect((await app.api('GET', '/company', { token: player.token })).status).toBe(404);
    // The bankrupt company's own name is free again.
    expect(await app.api('POST', '/company', { token: player.token, body: { name: 'Going Under Ltd' } })).toMatchObject({
      status: 200,
      body: { name: 'Going Under Ltd' },
    });
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

  it("refuses a look-alike of a taken name in other scripts ('Acme' with a Cyrillic 'а' or 'о'): 409 too similar", async () => {
    const owner = await app.createPlayer({ name: 'Acme Industries' });
    const copycat = await app.createPlayer({ name: 'Copycat Co' });
    for (const disguised of [
      '\u0410cme Industries', // Cyrillic capital A
      'Acme Industr\u0456es', // Cyrillic i (Ukrainian)
      'Acm\u0435 Industries', // Cyrillic e
      'ACME INDUSTRIES'.replace('C', '\u0421'), // Cyrillic capital Es, and another case
      'Acrne Industries', // r + n for m
      'Acme lndustries', // l for I
    ]) {
      expect(await rename(copycat, disguised)).toMatchObject({ status: 409, body: { error: COMPANY_NAME_TOO_SIMILAR } });
    }
    expect(await nameOf(copycat)).toBe('Copycat Co');
    expect(await nameOf(owner)).toBe('Acme Industries');
    // A bot's name too ('o' as Cyrillic 'о', Greek 'ο').
    expect(await rename(copycat, botName.replace(/o/g, '\u043E'))).toMatchObject({ status: 409 });
    // Names in one non-Latin script are fine, and the owner may restyle its own name.
    expect(await rename(copycat, '\u041C\u043E\u0441\u043A\u0432\u0430 \u0422\u0440\u0435\u0439\u0434')).toMatchObject({ status: 200 }); // Москва Трейд
    const japanese = await app.createPlayer({ name: 'Japan Trading Co' });
    expect(await rename(japanese, '\u682A\u5F0F\u4F1A\u793E\u30C8\u30E8\u30BF')).toMatchObject({ status: 200 }); // 株式会社トヨタ
    const greek = await app.createPlayer({ name: 'Greek Trading Co' });
    expect(await rename(greek, '\u0391\u03B8\u03AE\u03BD\u03B1 \u0395\u03BC\u03C0\u03BF\u03C1\u03B9\u03BA\u03AE')).toMatchObject({ status: 200 }); // Αθήνα Εμπορική
    expect(await rename(owner, 'ACME Industries')).toMatchObject({ status: 200 });
  });

  it('two players renaming to look-alikes of one free name at once: one wins, the others get 409, never a 500', async () => {
    const players = await Promise.all(Array.from({ length: 6 }, (_, i) => app.createPlayer({ name: `Lookalike Racer ${i + 1}` })));
    for (let round = 1; round <= 3; round += 1) {
      const disguises = [
        `Blitz Foods ${round}`,
        `Bl\u0456tz Foods ${round}`,
        `Blitz F\u043Eods ${round}`,
        `Blitz Fo\u03BFds ${round}`,
        `BLITZ F\u041E\u041EDS ${round}`,
        `B1itz Foods ${round}`,
      ];
      const answers = await Promise.all(players.map((player, i) => rename(player, disguises[i]!)));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      for (const answer of answers.filter((a) => a.status === 409)) expect([COMPANY_NAME_TAKEN, COMPANY_NAME_TOO_SIMILAR]).toContain(answer.body.error);
    }
  });

  it('gives a default name the next free number when a look-alike of it is taken (nobody can block a sign-up)', async () => {
    await app.createPlayer({ name: 'D\u0430na Wh\u0456te Enterprises' }); // Cyrillic а and і
    const email = 'dana.white@example.com';
    const company = await db.transaction(async (tx) => {
      const [user] = await tx.insert(users).values({ email }).returning({ id: users.id });
      return createPlayerCompany(tx, { worldId: 1, userId: user!.id, email, mode: 'flat' });
    });
    expect(company.name).toBe('Dana White Enterprises 2');
  });

  it('fills the keys of companies written without one (an upgraded game): a later look-alike keeps its look with its id appended', async () => {
    const world = await createWorld(
      db,
      { id: (await app.createPlayer({ name: 'Upgrade Teacher Co' })).userId, isAdmin: false },
      {
        name: 'Upgrade class',
        turnIntervalMinutes: null,
        startingCashDollars: 50_000,
        bots: 0,
        seed: 7,
        maxPlayers: 30,
      },
    );
    // As before migration 0017: no keys.
    const add = async (name: string, status: CompanyStatus = 'active') => {
      const [row] = await db
        .insert(companies)
        .values({ worldId: world.id, name, cashCents: 100, startingCashCents: 100, status })
        .returning({ id: companies.id });
      return row!.id;
    };
    const first = await add('Old Mill');
    const lookalike = await add('\u041Eld Mill'); // Cyrillic О
    const bankrupt = await add('Old Mi11', 'bankrupt');
    const distinct = await add('New Mill');
    expect(await fillCompanyNameKeys(db)).toBeGreaterThanOrEqual(4);
    const rows = await db.execute<{ id: number; name: string; has_key: boolean }>(sql`
      select id, name, name_key is not null as has_key from companies where world_id = ${world.id} order by id`);
    expect(rows).toEqual([
      { id: first, name: 'Old Mill', has_key: true },
      { id: lookalike, name: `\u041Eld Mill (${lookalike})`, has_key: true },
      { id: bankrupt, name: 'Old Mi11', has_key: true },
      { id: distinct, name: 'New Mill', has_key: true },
    ]);
    expect(await fillCompanyNameKeys(db)).toBe(0);
  });

  it('takes the name whose look-alike key is the longest there is (80 x U+FDFA, 2,400 bytes): the index holds it, no 500; NFC and NFD spellings are one name', async () => {
    const player = await app.createPlayer({ name: 'Long Key Co' });
    const longest = '\uFDFA'.repeat(80);
    expect(Buffer.byteLength(companyNameKey(longest))).toBe(2_400);
    expect(await rename(player, longest)).toMatchObject({ status: 200, body: { name: longest } });
    const other = await app.createPlayer({ name: 'Second Long Key Co' });
    expect(await rename(other, longest)).toMatchObject({ status: 409, body: { error: COMPANY_NAME_TAKEN } });
    expect(await rename(player, 'Caf\u00E9 Central')).toMatchObject({ status: 200 });
    expect(await rename(other, 'Cafe\u0301 Central')).toMatchObject({ status: 409, body: { error: COMPANY_NAME_TOO_SIMILAR } });
  });
});
