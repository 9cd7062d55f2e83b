/**
 * An existing game moves into the public world in place (migration 0008_worlds): a database at the
 * last migration before worlds, with a game in it (the world row at week 5, a company with a
 * building, stock and ledger rows), gets the migration: the world row becomes world 1 ("Public
 * world", public, still at week 5) and every game row belongs to it. Nothing is reset.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { inject } from 'vitest';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { MIGRATIONS_FOLDER } from '../src/migrate.ts';
import { databaseWithOldMigrations } from '../src/testing/oldMigrations.ts';

const LAST_BEFORE_WORLDS = '0008_week_reports';

describe('upgrading a game to worlds', () => {
  let url: string;
  let oldFolder: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ url, oldFolder, cleanup } = await databaseWithOldMigrations(inject('testServerUrl'), `${inject('testRunId')}_upgrade_worlds`, LAST_BEFORE_WORLDS));
  });
  afterAll(async () => {
    await cleanup();
  });

  it('makes the old world the public world and keeps every row in it', async () => {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await migrate(drizzle(sql), { migrationsFolder: oldFolder });
      await sql`insert into world (id, current_week, seed) values (1, 5, 42)`;
      const [country] = await sql<{ id: number }[]>`insert into countries (name, tax_rate, base_tax_rate) values ('Oldland', 20, 20) returning id`;
      const [city] = await sql<{ id: number }[]>`
        insert into cities (name, country_id, bonus_type, bonus_value, population) values ('Oldtown', ${country!.id}, 'retail', 10, 100000) returning id`;
      const [product] = await sql<{ id: number }[]>`
        insert into products (name, category, subcategory, base_price_cents, current_price_cents) values ('Wheat', 'Agricultural', 'Grains', 2000, 2000) returning id`;
      const [company] = await sql<{ id: number }[]>`insert into companies (name, cash_cents, starting_cash_cents) values ('Old Co', 900, 1000) returning id`;
      await sql`insert into building_types (type, name, category, construction_cost_cents, base_capacity, weekly_operating_cost_cents) values ('store', 'Store', 'retail', 1500000, 200, 30000)`;
      const [store] = await sql<{ id: number }[]>`
        insert into buildings (company_id, type, city_id, construction_cost_cents, built_week) values (${company!.id}, 'store', ${city!.id}, 1000, 2) returning id`;
      await sql`insert into store_products (building_id, product_id, quantity, retail_price_cents) values (${store!.id}, ${product!.id}, 7, 2500)`;
      await sql`insert into share_records (company_id) values (${company!.id})`;
      await sql`insert into transactions (company_id, type, reason, amount_cents, description, week) values (${company!.id}, 'other', 'start', -100, 'Old row', 4)`;
      await sql`insert into turns (week, started_at, job_id) values (4, now(), 'job-4')`;

      await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS_FOLDER });

      const worlds = await sql<{ id: number; name: string; kind: string; status: string; current_week: number; seed: number }[]>`
        select id, name, kind, status, current_week, seed::int as seed from worlds`;
      expect(worlds).toEqual([{ id: 1, name: 'Public world', kind: 'public', status: 'active', current_week: 5, seed: 42 }]);
      for (const table of ['companies', 'buildings', 'store_products', 'share_records', 'transactions', 'turns']) {
        const [counts] = await sql<{ rows: number; public_rows: number }[]>`
          select count(*)::int as rows, count(*) filter (where world_id = 1)::int as public_rows from ${sql(table)}`;
        expect(counts, table).toEqual({ rows: 1, public_rows: 1 });
      }
      const [cash] = await sql<{ cash_cents: number }[]>`select cash_cents::int from companies`;
      expect(cash!.cash_cents).toBe(900);
      // A second world can now hold its own rows with the same keys.
      const [second] = await sql<{ id: number }[]>`insert into worlds (name, kind, join_code) values ('Class', 'private', 'ABCD-1234') returning id`;
      expect(second!.id).toBeGreaterThan(1);
      await sql`insert into turns (world_id, week, started_at) values (${second!.id}, 4, now())`;
    } finally {
      await sql.end();
    }
  });
});
