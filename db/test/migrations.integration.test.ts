import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { inject } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../src/testing/freshDatabase.ts';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { MIGRATIONS_FOLDER, migrateDatabase } from '../src/migrate.ts';
import { replaceDatabase } from '../src/testing/urls.ts';

describe('migrations', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('apply from an empty database, twice in parallel, without racing', async () => {
    const serverUrl = inject('testServerUrl');
    const name = `${inject('testRunId')}_empty`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    const url = replaceDatabase(serverUrl, name);
    try {
      await Promise.all([migrateDatabase(url), migrateDatabase(url), migrateDatabase(url)]);
      const check = postgres(url, { max: 1, onnotice: () => {} });
      const tables = await check<{ tablename: string }[]>`select tablename from pg_tables where schemaname = 'public' order by 1`;
      const applied = await check`select count(*)::int as n from drizzle.__drizzle_migrations`;
      await check.end();
      expect(tables.map((t) => t.tablename)).toEqual(
        expect.arrayContaining(['users', 'sessions', 'companies', 'buildings', 'transactions', 'worlds', 'turns']),
      );
      expect(applied[0]?.n).toBeGreaterThan(0);
    } finally {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  });

  it('the seeded template has the world row at week 1 with the next turn at :30', async () => {
    const rows = await database.sql<{ current_week: number; next_turn_at: Date }[]>`select current_week, next_turn_at from worlds`;
    expect(rows).toHaveLength(1);
    expect(rows[0]?.current_week).toBe(1);
    const nextTurnAt = new Date(rows[0]!.next_turn_at);
    expect(nextTurnAt.getUTCMinutes()).toBe(30);
    expect([0, 12]).toContain(nextTurnAt.getUTCHours());
  });

  it("0045 turns the past clearings' curves from {price_cents, quantity} objects into [price, quantity] pairs, once", async () => {
    const migration = await readFile(path.join(MIGRATIONS_FOLDER, '0045_exchange_clearing_rows.sql'), 'utf8');
    const convert = migration.slice(migration.indexOf('UPDATE "exchange_auctions"'));
    // The curves as 0045 found them: jsonb (0053 made them json since).
    await database.sql`alter table exchange_auctions alter column bids type jsonb using bids::jsonb, alter column asks type jsonb using asks::jsonb`;
    await database.sql`
      insert into exchange_auctions (world_id, product_id, week, price_cents, volume, players_volume, maker_bought, maker_sold, bids, asks)
      values (1, 1, 900, 1200, 10, 10, 0, 0, ${JSON.stringify([
        { price_cents: 1300, quantity: 4 },
        { price_cents: 1250, quantity: 10 },
      ])}::jsonb, '[]'::jsonb)`;
    await database.sql.unsafe(convert);
    await database.sql.unsafe(convert);
    await database.sql.unsafe(await readFile(path.join(MIGRATIONS_FOLDER, '0053_exchange_curves_json.sql'), 'utf8'));
    const [row] = await database.sql<{ bids: unknown; asks: unknown }[]>`select bids, asks from exchange_auctions where world_id = 1 and week = 900`;
    expect(row).toEqual({
      bids: [
        [1300, 4],
        [1250, 10],
      ],
      asks: [],
    });
  });

  it('refuses negative quantities and bad building types at the database level', async () => {
    await expect(
      database.sql`insert into building_types (type, name, category, construction_cost_cents, base_capacity, weekly_operating_cost_cents) values ('x', 'X', 'nonsense', 1, 1, 1)`,
    ).rejects.toThrow(/building_types_category/);
  });
});
