import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeCash, companies, countries, ledgerMismatches, politicalEvents, shareRecords, stockPriceHistory, type Database } from '@marketcraft/db';
import { startTestApp, type TestApp } from './helpers/testApp.ts';

describe('news feed API (GET /api/transactions/recent)', () => {
  let app: TestApp;
  let db: Database;
  beforeAll(async () => {
    app = await startTestApp();
    db = app.database.db;
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers a list (empty for an unplayed world), and 401 without a session', async () => {
    const player = await app.createPlayer();
    const response = await app.api('GET', '/transactions/recent', { token: player.token });
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
    expect((await app.api('GET', '/transactions/recent')).status).toBe(401);
  });

  it('merges 5 political events, 5 large transactions and 3 player stock updates, newest first, at most 15', async () => {
    const player = await app.createPlayer({ cash: 1_000_000, name: 'Acme Corp' });
    const [country] = await db.insert(countries).values({ name: 'Newsland', baseTaxRate: 20 }).returning({ id: countries.id });
    const base = Date.now() - 1_000_000;
    await db.insert(politicalEvents).values(
      Array.from({ length: 7 }, (_, index) => ({
        worldId: 1,
        countryId: country!.id,
        eventType: 'tax_cut' as const,
        description: `Tax cut ${index}`,
        startedWeek: 2,
        activeUntilWeek: 3,
        createdAt: new Date(base + index * 1_000),
      })),
    );
    // Seven large ledger rows (and small ones that never show).
    for (let index = 0; index < 7; index += 1) {
      await changeCash(db, {
        companyId: player.companyId,
        amountCents: -1_000_001,
        type: 'building',
        reason: 'build',
        description: 'Built a Farm in Secret City',
      });
      await changeCash(db, {
        companyId: player.companyId,
        amountCents: -1_000_000,
        type: 'other',
        reason: 'research',
        description: 'exactly $10,000: not over',
      });
    }
    // Stock updates: four of the player's weeks, and a bot's that never show.
    await db.insert(stockPriceHistory).values(
      [1, 2, 3, 4].map((week) => ({
        worldId: 1,
        companyId: player.companyId,
        week,
        priceCents: 10_000 + week * 1_000,
        createdAt: new Date(base + 500_000 + week * 1_000),
      })),
    );
    const [bot] = await db
      .insert(companies)
      .values({ worldId: 1, name: 'Bot News', cashCents: 1, startingCashCents: 1, isBot: true, strategy: 'balanced' })
      .returning({ id: companies.id });
    await db.insert(shareRecords).values({ worldId: 1, companyId: bot!.id });
    await db.insert(stockPriceHistory).values({ worldId: 1, companyId: bot!.id, week: 9, priceCents: 99_999, createdAt: new Date() });

    const response = await app.api('GET', '/transactions/recent', { token: player.token });
    expect(response.status).toBe(200);
    const items = response.body as {
      id: string;
      kind: string;
      event_type: string | null;
      description: string;
      amount: number | null;
      week: number;
      created_at: string;
    }[];
    expect(items).toHaveLength(13);
    expect(items.filter((item) => item.kind === 'political')).toHaveLength(5);
    expect(items.filter((item) => item.kind === 'transaction')).toHaveLength(5);
    expect(items.filter((item) => item.kind === 'stock')).toHaveLength(3);
    const times = items.map((item) => item.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(items.find((item) => item.kind === 'political')).toMatchObject({ event_type: 'tax_cut', description: 'Newsland: Tax cut 6', amount: null, week: 2 });
    // An event that names its country (as the turn writes them) is not prefixed with it again.
    await db.insert(politicalEvents).values({
      worldId: 1,
      countryId: country!.id,
      eventType: 'tax_increase',
      description: 'Newsland raises taxes by 2 points',
      startedWeek: 2,
      activeUntilWeek: 5,
    });
    const again = (await app.api('GET', '/transactions/recent', { token: player.token })).body as typeof items;
    expect(again.find((item) => item.kind === 'political')!.description).toBe('Newsland raises taxes by 2 points');
    const transaction = items.find((item) => item.kind === 'transaction')!;
    expect(transaction).toMatchObject({ description: 'Acme Corp: Built a new building ($10,000.01)', amount: -10_000.01, event_type: null, week: 1 });
    expect(items.some((item) => item.description.includes('Secret City'))).toBe(false);
    expect(items.filter((item) => item.kind === 'stock').map((item) => item.description)).toEqual([
      'Acme Corp shares up to $140.00 (+7.69%) in week 4',
      'Acme Corp shares up to $130.00 (+8.33%) in week 3',
      'Acme Corp shares up to $120.00 (+9.09%) in week 2',
    ]);
    // Each item says the game week it happened in (several weeks pass in one lesson, at one minute).
    expect(items.filter((item) => item.kind === 'stock').map((item) => item.week)).toEqual([4, 3, 2]);
    expect(items.some((item) => item.description.includes('Bot News'))).toBe(false);
    expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
    expect(await ledgerMismatches(db)).toEqual([]);
  });
});
