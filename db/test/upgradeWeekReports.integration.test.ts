/**
 * Week reports written before migrations 0010 and 0011 (sales, production and cash flows as jsonb
 * objects) keep their lines when the migrations move them into parallel arrays: same stores, cities,
 * products, units, revenue, reasons and amounts, in the same order; production's buildings keep
 * their type and city.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { inject } from 'vitest';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { MIGRATIONS_FOLDER } from '../src/migrate.ts';
import { databaseWithOldMigrations } from '../src/testing/oldMigrations.ts';

const LAST_WITH_JSONB_LINES = '0009_worlds';

describe('upgrading week reports to arrays', () => {
  let url: string;
  let oldFolder: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ url, oldFolder, cleanup } = await databaseWithOldMigrations(
      inject('testServerUrl'),
      `${inject('testRunId')}_upgrade_week_reports`,
      LAST_WITH_JSONB_LINES,
    ));
  });
  afterAll(async () => {
    await cleanup();
  });

  it('keeps every line of an old report, in order', async () => {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await migrate(drizzle(sql), { migrationsFolder: oldFolder });
      // Migration 0009 made the public world (id 1): the rows below belong to it by default.
      const [country] = await sql<{ id: number }[]>`insert into countries (name, tax_rate, base_tax_rate) values ('Oldland', 20, 20) returning id`;
      const [city] = await sql<{ id: number }[]>`
        insert into cities (name, country_id, bonus_type, bonus_value, population) values ('Old Town', ${country!.id}, 'agricultural', 10, 100000) returning id`;
      await sql`insert into building_types (type, name, category, construction_cost_cents, base_capacity, weekly_operating_cost_cents)
                values ('farm', 'Farm', 'extraction', 2000000, 100, 50000), ('store', 'Store', 'retail', 3000000, 100, 80000) on conflict do nothing`;
      const sales = [
        { building_id: 7, building: 'Store', city: 'Old Town', product_id: 3, product: 'Bread', units: 12, revenue_cents: 4_680 },
        { building_id: 7, building: 'Store', city: 'Old Town', product_id: 4, product: 'Milk', units: 5, revenue_cents: 900 },
      ];
      const cashFlows = [
        { type: 'sale', reason: 'store_sales', amount_cents: 5_580, lines: 1 },
        { type: 'other', reason: 'wages', amount_cents: -5_480, lines: 1 },
      ];
      const production = [{ building_id: 8, building: 'Farm', city: 'Old Town', product_id: 5, product: 'Wheat', role: 'output', units: 63 }];
      await sql`
        insert into week_reports (company_id, week, cash_start_cents, cash_end_cents, net_worth_cents, profit_cents, store_revenue_cents,
          market_sales_cents, market_purchases_cents, wages_cents, operating_cents, subsidy_cents, tax_cents, dividends_received_cents,
          dividends_paid_cents, rank, rank_before, companies_ranked, sales, production, cash_flows, dividends_received, research, events)
        values (11, 4, 100, 200, 300, 50, 5580, 0, 0, 0, 0, 0, 0, 0, 0, 1, null, 3,
          ${JSON.stringify(sales)}::jsonb, ${JSON.stringify(production)}::jsonb, ${JSON.stringify(cashFlows)}::jsonb, '[]', '[]', '[]'),
               (12, 4, 100, 100, 100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, null, 3, '[]', '[]', '[]', '[]', '[]', '[]')`;

      await migrate(drizzle(sql), { migrationsFolder: MIGRATIONS_FOLDER });

      const rows = await sql`select * from week_reports order by company_id`;
      expect(rows[0]).toMatchObject({
        sale_building_ids: [7, 7],
        sale_city_ids: [city!.id, city!.id],
        sale_product_ids: [3, 4],
        sale_units: ['12', '5'],
        sale_revenue_cents: ['4680', '900'],
        production_building_ids: [8],
        production_building_types: ['farm'],
        production_city_ids: [city!.id],
        production_product_ids: [5],
        production_made: [true],
        production_units: ['63'],
        cash_flow_types: ['sale', 'other'],
        cash_flow_reasons: ['store_sales', 'wages'],
        cash_flow_amounts_cents: ['5580', '-5480'],
        cash_flow_lines: [1, 1],
      });
      expect(rows[1]).toMatchObject({ sale_building_ids: [], production_building_ids: [], production_made: [], cash_flow_reasons: [] });
      expect(Object.keys(rows[0]!)).not.toContain('sales');
      expect(Object.keys(rows[0]!)).not.toContain('cash_flows');
    } finally {
      await sql.end();
    }
  });
});
