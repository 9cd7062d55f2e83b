import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import {
  companies,
  countries,
  influenceRecords,
  ledgerMismatches,
  politicalEvents,
  transactions,
  worldCountries,
  worlds,
  type Database,
} from '@marketcraft/db';
import { startTestApp, type TestApp } from './helpers/testApp.ts';

async function createCountry(db: Database, taxRate = 20) {
  const name = `Country ${Math.random().toString(36).slice(2, 9)}`;
  const [country] = await db.insert(countries).values({ name, baseTaxRate: taxRate }).returning({ id: countries.id });
  await db.insert(worldCountries).values({ worldId: 1, countryId: country!.id, taxRate });
  return { id: country!.id, name };
}

async function cashOf(db: Database, companyId: number): Promise<number> {
  const [row] = await db.select({ cash: companies.cashCents }).from(companies).where(eq(companies.id, companyId));
  return row!.cash;
}

describe('politics API', () => {
  let app: TestApp;
  let db: Database;
  beforeAll(async () => {
    app = await startTestApp();
    db = app.database.db;
  });
  afterAll(async () => {
    await app.close();
  });

  it('lists countries with their tax rate', async () => {
    const player = await app.createPlayer();
    const country = await createCountry(db, 17);
    const response = await app.api('GET', '/countries', { token: player.token });
    expect(response.status).toBe(200);
    expect(response.body).toContainEqual({ id: country.id, name: country.name, tax_rate: 17 });
    expect((await app.api('GET', '/countries')).status).toBe(401);
  });

  it('invests whole units: $1,000 per unit, 10 points per unit, ledgered as politics', async () => {
    const player = await app.createPlayer({ cash: 10_000 });
    const country = await createCountry(db);
    const response = await app.api('POST', '/politics/invest', { token: player.token, body: { country_id: country.id, amount: 3_000 } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      country_id: country.id,
      country_name: country.name,
      units: 3,
      amount: 3_000,
      points_added: 30,
      influence_points: 30,
      platform: 'lower_taxes',
      cash: 7_000,
    });
    await app.api('POST', '/politics/invest', { token: player.token, body: { country_id: country.id, amount: 1000 } });
    const influence = await app.api('GET', '/influence', { token: player.token });
    expect(influence.body).toEqual([{ country_id: country.id, country_name: country.name, influence_points: 40, platform: 'lower_taxes' }]);
    // Backing the other platform moves all the company's points there to it.
    const switched = await app.api('POST', '/politics/invest', {
      token: player.token,
      body: { country_id: country.id, amount: 1_000, platform: 'higher_taxes' },
    });
    expect(switched.body).toMatchObject({ influence_points: 50, platform: 'higher_taxes' });
    const invalid = await app.api('POST', '/politics/invest', { token: player.token, body: { country_id: country.id, amount: 1_000, platform: 'no_taxes' } });
    expect(invalid).toMatchObject({ status: 400, body: { error: 'Platform must be lower_taxes or higher_taxes' } });
    const [row] = await db.select().from(transactions).where(eq(transactions.companyId, player.companyId)).limit(1);
    expect(row).toMatchObject({ type: 'other', reason: 'politics', amountCents: -300_000 });
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('refuses invalid amounts (400), unknown countries (404), too little cash (409) and passing the 1,000-point cap (422)', async () => {
    const player = await app.createPlayer({ cash: 200_000 });
    const country = await createCountry(db);
    for (const amount of [0, -1_000, 1_500, 999, 'lots', null, 2e9]) {
      const response = await app.api('POST', '/politics/invest', { token: player.token, body: { country_id: country.id, amount } });
      expect(response.status, String(amount)).toBe(400);
    }
    expect((await app.api('POST', '/politics/invest', { token: player.token, body: { country_id: country.id, amount: 1_500 } })).body.error).toBe(
      'Amount must be a whole number of units of $1,000.00',
    );
    expect((await app.api('POST', '/politics/invest', { token: player.token, body: { amount: 1_000 } })).status).toBe(400);
    expect(await app.api('POST', '/politics/invest', { token: player.token, body: { country_id: 99_999_999, amount: 1_000 } })).toMatchObject({
      status: 404,
      body: { error: 'No country found with id 99999999' },
    });
    const poor = await app.createPlayer({ cash: 500 });
    expect(await app.api('POST', '/politics/invest', { token: poor.token, body: { country_id: country.id, amount: 1_000 } })).toMatchObject({
      status: 409,
      body: { error: 'Not enough cash: this costs $1,000.00 and you have $500.00' },
    });
    expect((await app.api('POST', '/politics/invest', { token: player.token, body: { country_id: country.id, amount: 95_000 } })).body.influence_points).toBe(
      950,
    );
    expect(await app.api('POST', '/politics/invest', { token: player.token, body: { country_id: country.id, amount: 6_000 } })).toMatchObject({
      status: 422,
      body: { error: `Influence in ${country.name} is capped at 1,000 points: you can invest at most 5 more units ($5,000.00)` },
    });
    expect((await app.api('POST', '/politics/invest', { token: player.token, body: { country_id: country.id, amount: 5_000 } })).body.influence_points).toBe(
      1_000,
    );
    expect(await app.api('POST', '/politics/invest', { token: player.token, body: { country_id: country.id, amount: 1_000 } })).toMatchObject({
      status: 422,
      body: { error: `Your influence in ${country.name} is already at the maximum of 1,000 points` },
    });
    expect(await cashOf(db, player.companyId)).toBe(20_000_000 - 10_000_000);
    expect((await app.api('POST', '/politics/invest', { body: { country_id: country.id, amount: 1_000 } })).status).toBe(401);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('parallel investments cannot overdraw', async () => {
    const player = await app.createPlayer({ cash: 7_500 });
    const countryA = await createCountry(db);
    const countryB = await createCountry(db);
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        app.api('POST', '/politics/invest', { token: player.token, body: { country_id: index % 2 ? countryA.id : countryB.id, amount: 1_000 } }),
      ),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(7);
    expect(responses.filter((response) => response.status === 409)).toHaveLength(23);
    expect(await cashOf(db, player.companyId)).toBe(50_000);
    const records = await db
      .select({ points: influenceRecords.influencePoints })
      .from(influenceRecords)
      .where(eq(influenceRecords.companyId, player.companyId));
    expect(records.reduce((sum, record) => sum + record.points, 0)).toBe(70);
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('an investment made while an election turn runs waits for it: no deadlock, no 500', async () => {
    const player = await app.createPlayer({ cash: 10_000 });
    const country = await createCountry(db);
    expect((await app.api('POST', '/politics/invest', { token: player.token, body: { country_id: country.id, amount: 1_000 } })).status).toBe(200);
    // The turn's locks, in its order (worker/src/turn): every active company of the world, then on
    // an election week the influence records it halves. Held open until the investment waits.
    let companiesLocked!: () => void;
    const locked = new Promise<void>((resolve) => (companiesLocked = resolve));
    let investmentWaits!: () => void;
    const waiting = new Promise<void>((resolve) => (investmentWaits = resolve));
    const turn = db.transaction(async (tx) => {
      await tx.execute(sql`select id from companies where world_id = 1 and status = 'active' order by id for update`);
      companiesLocked();
      await waiting;
      await tx.execute(sql`update influence_records set influence_points = floor(influence_points * 0.5)::int where world_id = 1 and influence_points > 0`);
    });
    await locked;
    const investment = app.api('POST', '/politics/invest', { token: player.token, body: { country_id: country.id, amount: 1_000 } });
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const [row] = await db.execute<{ n: number }>(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%companies%'`,
      );
      if (Number(row?.n ?? 0) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    investmentWaits();
    // Before, the investment held its influence row while waiting for the company: the turn's
    // update then waited for it, and PostgreSQL failed one of the two (a 500, or the turn).
    await turn;
    const answer = await investment;
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ influence_points: 15, cash: 8_000 });
    expect(await ledgerMismatches(db)).toEqual([]);
  });

  it('lists active events (/events) and the latest 20 (/political-events), newest first', async () => {
    const player = await app.createPlayer();
    const country = await createCountry(db);
    await db.update(worlds).set({ currentWeek: 10 }).where(eq(worlds.id, 1));
    try {
      const base = Date.now() - 100_000;
      const inserted = await db
        .insert(politicalEvents)
        .values(
          Array.from({ length: 22 }, (_, index) => ({
            worldId: 1,
            countryId: country.id,
            eventType: (['tax_cut', 'tax_increase', 'subsidy', 'election'] as const)[index % 4]!,
            description: `Event ${index}`,
            startedWeek: 1,
            activeUntilWeek: index < 20 ? 5 : 12, // the two newest are still active in week 10
            createdAt: new Date(base + index * 1_000),
          })),
        )
        .returning({ id: politicalEvents.id });
      const active = await app.api('GET', '/events', { token: player.token });
      expect(active.status).toBe(200);
      const ours = active.body.filter((event: { country_id: number }) => event.country_id === country.id);
      expect(ours.map((event: { description: string }) => event.description)).toEqual(['Event 21', 'Event 20']);
      expect(ours[0]).toEqual({
        id: inserted[21]!.id,
        country_id: country.id,
        country_name: country.name,
        event_type: 'tax_increase',
        description: 'Event 21',
        active_until_week: 12,
        created_at: new Date(base + 21_000).toISOString(),
      });
      const recent = await app.api('GET', '/political-events', { token: player.token });
      expect(recent.status).toBe(200);
      expect(recent.body).toHaveLength(20);
      expect(recent.body[0].description).toBe('Event 21');
      expect(recent.body[19].description).toBe('Event 2');
    } finally {
      await db.update(worlds).set({ currentWeek: 1 }).where(eq(worlds.id, 1));
    }
  });
});
