import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { inject } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../src/testing/freshDatabase.ts';
import { migrateDatabase } from '../src/migrate.ts';
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

  it('refuses negative quantities and bad building types at the database level', async () => {
    await expect(
      database.sql`insert into building_types (type, name, category, construction_cost_cents, base_capacity, weekly_operating_cost_cents) values ('x', 'X', 'nonsense', 1, 1, 1)`,
    ).rejects.toThrow(/building_types_category/);
  });
});
