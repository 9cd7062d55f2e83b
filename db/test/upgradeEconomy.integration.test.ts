/**
 * An existing game migrates to economy v2 in place (docs/economy.md, "Upgrading an existing game"):
 * a database at the last migration before 0006, with an old-style game in it (every company 100
 * shares at $100, shareholdings, city prices as prices), gets 0006 and the seed's catalogue sync:
 * shares are re-based to about $100 of book value each, holders keep their fraction, each city keeps
 * its price level, prices follow the new catalogue, and money is untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { sql as drizzleSql } from 'drizzle-orm';
import { cityMarketsSql } from '../src/game/goods/prices.ts';
import { inject } from 'vitest';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { connectDatabase } from '../src/client.ts';
import { MIGRATIONS_FOLDER } from '../src/migrate.ts';
import { seedWorld } from '../src/seed/index.ts';
import { databaseWithOldMigrations } from '../src/testing/oldMigrations.ts';

const LAST_BEFORE_ECONOMY_V2 = '0005_api_tokens';

describe('upgrading a game to economy v2', () => {
  let url: string;
  let oldFolder: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ url, oldFolder, cleanup } = await databaseWithOldMigrations(inject('testServerUrl'), `${inject('testRunId')}_upgrade`, LAST_BEFORE_ECONOMY_V2));
  });
  afterAll(async () => {
    await cleanup();
  });

  it("re-bases shares, keeps holders' fractions and city price levels, and moves no money", async () => {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await migrate(drizzle(sql), { migrationsFolder: oldFolder });
      // An old game: a product priced $20.00 with a city selling it at $23.00; two companies with the
      // old default share record (100 shares at $100), one holding 30 of the other's shares.
      const [country] = await sql<{ id: number }[]>`insert into countries (name, tax_rate, base_tax_rate) values ('Oldland', 20, 20) returning id`;
      const [city] = await sql<{ id: number }[]>`
        insert into cities (name, country_id, bonus_type, bonus_value, population) values ('Oldtown', ${country!.id}, 'retail', 10, 100000) returning id`;
      const [product] = await sql<{ id: number }[]>`
        insert into products (name, category, subcategory, base_price_cents, current_price_cents) values ('Wheat', 'Agricultural', 'Grains', 2000, 2000) returning id`;
      await sql`insert into city_market_data (city_id, product_id, demand_level, base_demand_level, market_price_cents) values (${city!.id}, ${product!.id}, 50, 50, 2300)`;
      const [rich] = await sql<{ id: number }[]>`
        insert into companies (name, cash_cents, starting_cash_cents) values ('Rich', 50000000, 50000000) returning id`;
      const [holder] = await sql<{ id: number }[]>`
        insert into companies (name, cash_cents, starting_cash_cents) values ('Holder', 10000000, 10000000) returning id`;
      await sql`insert into share_records (company_id, total_shares, share_price_cents) values (${rich!.id}, 100, 10000), (${holder!.id}, 100, 10000)`;
      await sql`insert into portfolio_entries (holder_company_id, issuer_company_id, shares_owned, average_price_cents) values (${holder!.id}, ${rich!.id}, 30, 10000)`;

      await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS_FOLDER });

      // Rich: $500,000 of book value -> 5,000 shares at $100; the holder keeps 30% (1,500 shares), its
      // average price scaled the same way ($100 x 100 / 5,000 = $2).
      const shares = await sql<{ company_id: number; total_shares: number; share_price_cents: number; fundamental_cents: number }[]>`
        select company_id, total_shares, share_price_cents, fundamental_cents from share_records order by company_id`;
      expect(
        shares.map((row) => ({
          ...row,
          company_id: Number(row.company_id),
          total_shares: Number(row.total_shares),
          share_price_cents: Number(row.share_price_cents),
          fundamental_cents: Number(row.fundamental_cents),
        })),
      ).toEqual([
        { company_id: rich!.id, total_shares: 5_000, share_price_cents: 10_000, fundamental_cents: 10_000 },
        { company_id: holder!.id, total_shares: 1_000, share_price_cents: 10_000, fundamental_cents: 10_000 },
      ]);
      const [holding] = await sql<{ shares_owned: number; average_price_cents: number }[]>`select shares_owned, average_price_cents from portfolio_entries`;
      expect({ shares: Number(holding!.shares_owned), average: Number(holding!.average_price_cents) }).toEqual({ shares: 1_500, average: 200 });
      // The city's price level: $23.00 over $20.00 = 115%.
      const [level] = await sql<{ price_factor_bp: number }[]>`select price_factor_bp from city_market_data`;
      expect(Number(level!.price_factor_bp)).toBe(11_500);
      const cash = await sql<{ cash_cents: number }[]>`select cash_cents from companies order by id`;
      expect(cash.map((row) => Number(row.cash_cents))).toEqual([50_000_000, 10_000_000]);
    } finally {
      await sql.end();
    }
    // The seed's catalogue sync then brings the catalogue in step: a product of the seed keeps its
    // current/base ratio, and reference prices follow the market price x 130% x the city's level.
    const connection = connectDatabase(url, { max: 2 });
    try {
      await seedWorld(connection.db);
      const [wheat] = await connection.sql<{ base_price_cents: number; current_price_cents: number; depth_units: number }[]>`
        select base_price_cents, current_price_cents, depth_units from products p
        join world_products wp on wp.world_id = 1 and wp.product_id = p.id where name = 'Wheat'`;
      expect(Number(wheat!.current_price_cents)).toBe(Number(wheat!.base_price_cents));
      expect(Number(wheat!.depth_units)).toBeGreaterThan(4_000);
      const [reference] = await connection.db.execute<{ market_price_cents: number }>(drizzleSql`
        select cmd.market_price_cents from ${cityMarketsSql(1)} cmd join cities c on c.id = cmd.city_id where c.name = 'Oldtown'`);
      expect(Number(reference!.market_price_cents)).toBe(Math.round((Number(wheat!.current_price_cents) * 130 * 11_500) / 1_000_000));
    } finally {
      await connection.close();
    }
  });
});
