// Scratch: world state digest after N turns (public world with its bots + 300 bench companies, and one class world).
import { mkdtemp, rm, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { startEmbeddedPostgres } from '@marketcraft/db/embedded.ts';
import { prepareDatabase } from '@marketcraft/db/migrate.ts';
import { connectDatabase } from '@marketcraft/db/client.ts';
import { createWorld, users } from '@marketcraft/db';
import { runTurn, TURN_SESSION_SETTINGS } from '../../src/turn/index.ts';
import { seedCompanies } from '../world.ts';

const turns = Number(process.env.TURNS ?? 4);
const tempDir = await mkdtemp(path.join(os.tmpdir(), 'mc-dig-'));
await chmod(tempDir, 0o755);
const server = await startEmbeddedPostgres({ dataDir: path.join(tempDir, 'data'), persistent: false });
try {
  const admin = postgres(server.url, { max: 1, onnotice: () => {} });
  await admin.unsafe('create database bench');
  await admin.end();
  const url = server.urlFor('bench');
  await prepareDatabase(url);
  const { db, close } = connectDatabase(url, { max: 2 });
  await seedCompanies(db, 300, 1);
  const [teacher] = await db.insert(users).values({ email: 't@example.com' }).returning({ id: users.id });
  const w = await createWorld(db, { id: teacher!.id, isAdmin: true }, { name: 'W', turnIntervalMinutes: 1, startingCashDollars: 500000, bots: 5, seed: 42, maxPlayers: 30 });
  await seedCompanies(db, 30, w.id);
  await db.execute(sql`analyze`);
  const t = connectDatabase(url, { max: 1, settings: TURN_SESSION_SETTINGS });
  const now = new Date('2026-01-01T00:30:00Z');
  for (let i = 0; i < turns; i++) {
    for (const worldId of [1, w.id]) {
      const r = await runTurn(t.db, { worldId, now, nextTurnAt: () => null });
      if (r.status !== 'advanced') throw new Error(JSON.stringify(r));
    }
  }
  const tables: Record<string, string> = {
    companies: `select id, world_id, cash_cents, tax_loss_cents, status, negative_cash_turns from companies`,
    inventory: `select world_id, company_id, product_id, quantity, average_cost_cents from inventory_items`,
    shelves: `select world_id, building_id, product_id, quantity, retail_price_cents, units_sold_last_turn from store_products`,
    prices: `select world_id, product_id, current_price_cents from world_products`,
    history: `select world_id, product_id, week, price_cents from product_price_history`,
    shares: `select world_id, company_id, share_price_cents, fundamental_cents, sentiment, total_shares from share_records`,
    ledger: `select world_id, company_id, week, type, reason, amount_cents, description from transactions`,
    financial: `select world_id, company_id, week, amount_cents, cash_after_cents, profit_cents, net_worth_cents from financial_history`,
    reports: `select to_jsonb(r) - 'created_at' - 'id' - 'sale_building_ids' - 'sale_city_ids' - 'sale_product_ids' - 'sale_units' - 'sale_revenue_cents' - 'production_building_ids' - 'production_building_types' - 'production_city_ids' - 'production_product_ids' - 'production_made' - 'production_units' - 'cash_flow_types' - 'cash_flow_reasons' - 'cash_flow_amounts_cents' - 'cash_flow_lines' as j,
      (select string_agg(t::text, ',' order by t::text) from unnest(sale_building_ids, sale_city_ids, sale_product_ids, sale_units, sale_revenue_cents) t) as sales,
      (select string_agg(t::text, ',' order by t::text) from unnest(production_building_ids, production_building_types, production_city_ids, production_product_ids, production_made, production_units) t) as production,
      (select string_agg(t::text, ',' order by t::text) from unnest(cash_flow_types, cash_flow_reasons, cash_flow_amounts_cents, cash_flow_lines) t) as flows
    from week_reports r`,
    demand: `select world_id, city_id, product_id, demand_level from city_market_data`,
    buildings: `select id, world_id, company_id, type, employees, equipment_level, selected_recipe_id from buildings`,
  };
  for (const [name, q] of Object.entries(tables)) {
    const [row] = await db.execute<{ n: number; h: string }>(sql.raw(`select count(*)::int as n, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from (${q}) x`));
    console.log(name.padEnd(10), row!.n, row!.h);
  }
  await t.close();
  await close();
} finally {
  await server.stop();
  await rm(tempDir, { recursive: true, force: true });
}
process.exit(0);
