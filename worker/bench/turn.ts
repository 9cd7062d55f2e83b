/**
 * `npm run bench:turn -- --companies N[,M...]` (default 1000,10000): for each N, a fresh embedded
 * PostgreSQL database (migrated and seeded), N extra companies with 10 buildings each seeded
 * set-based (3 farms, 2 mills, 2 bakeries with recipes selected and inputs in the warehouse, 3
 * stores with 2 stocked products each; market activity, shareholdings and research for some), then
 * two turns timed per phase: the first is cold (the bakeries' first bread creates ~N new warehouse
 * rows), the second is a steady-state week. The server runs with the game's durability (fsync,
 * synchronous commit) and each turn starts after a checkpoint, as a turn 12 hours after the last
 * one does. Prints a table of both sizes.
 */
import { mkdtemp, rm, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { startEmbeddedPostgres } from '@marketcraft/db/embedded.ts';
import { prepareDatabase } from '@marketcraft/db/migrate.ts';
import { connectDatabase, type Database } from '@marketcraft/db/client.ts';
import { runTurn, PHASES } from '../src/turn/index.ts';

function parseSizes(argv: string[]): number[] {
  const index = argv.indexOf('--companies');
  const raw = index >= 0 ? argv.slice(index + 1).filter((arg) => !arg.startsWith('--')).join(',') : '1000,10000';
  const sizes = raw.split(',').map((value) => Number.parseInt(value.trim(), 10)).filter((value) => Number.isSafeInteger(value) && value > 0);
  if (sizes.length === 0) throw new Error('usage: npm run bench:turn -- --companies 1000,10000');
  return sizes;
}

/** N companies x 10 buildings, set-based. */
async function seedCompanies(db: Database, companies: number): Promise<void> {
  await db.execute(sql`
    insert into companies (name, cash_cents, starting_cash_cents)
    select 'Bench company ' || g, 50000000, 50000000 from generate_series(1, ${companies}::int) g`);
  await db.execute(sql`
    insert into share_records (company_id, total_shares, share_price_cents)
    select id, 100, 10000 from companies where name like 'Bench company %' on conflict do nothing`);
  await db.execute(sql`
    create temp table bench_recipes as
    select building_type, (select min(r.id) from recipes r where r.building_type = t.building_type
                           and (t.building_type = 'farm' or exists (select 1 from recipe_inputs ri where ri.recipe_id = r.id))) as recipe_id
    from (values ('farm'), ('mill'), ('bakery')) t(building_type)`);
  // Slots 0-2 farms, 3-4 mills, 5-6 bakeries, 7-9 stores.
  await db.execute(sql`
    insert into buildings (company_id, type, city_id, employees, equipment_level, selected_recipe_id, construction_cost_cents, built_week)
    select c.id, s.type, ci.id, 1 + (c.id + slot) % 8, 1 + (c.id + slot) % 3,
           (select recipe_id from bench_recipes br where br.building_type = s.type), bt.construction_cost_cents, 1
    from companies c
    cross join generate_series(0, 9) slot
    cross join lateral (select case when slot < 3 then 'farm' when slot < 5 then 'mill' when slot < 7 then 'bakery' else 'store' end as type) s
    join building_types bt on bt.type = s.type
    join lateral (select id from cities order by id offset ((c.id * 7 + slot) % (select count(*) from cities)) limit 1) ci on true
    where c.name like 'Bench company %'`);
  // Inputs in the warehouse for the mills and bakeries (enough for about one week).
  await db.execute(sql`
    insert into inventory_items (company_id, product_id, quantity, average_cost_cents)
    select c.id, ri.product_id, ri.quantity * 2, p.current_price_cents
    from companies c
    join bench_recipes br on br.building_type in ('mill', 'bakery')
    join recipe_inputs ri on ri.recipe_id = br.recipe_id
    join products p on p.id = ri.product_id
    where c.name like 'Bench company %'
    on conflict (company_id, product_id) do update set quantity = inventory_items.quantity + excluded.quantity`);
  // Two products on each store's shelf, priced 1.2x to 2x the city market price.
  await db.execute(sql`
    insert into store_products (building_id, product_id, quantity, retail_price_cents, cost_price_cents)
    select b.id, p.id, 300, greatest(1, round(coalesce(cmd.market_price_cents, p.current_price_cents) * (1.2 + (b.id % 9) / 10.0))), p.current_price_cents
    from buildings b
    join companies c on c.id = b.company_id and c.name like 'Bench company %'
    cross join lateral (select id, current_price_cents from products where category in ('Food Products', 'Consumer Goods')
                        order by id offset (b.id % 5) limit 2) p
    left join city_market_data cmd on cmd.city_id = b.city_id and cmd.product_id = p.id
    where b.type = 'store'`);
  // Each company holds 10 shares of the next one (dividends); market activity on every product.
  await db.execute(sql`
    insert into portfolio_entries (holder_company_id, issuer_company_id, shares_owned, average_price_cents)
    select c.id, n.id, 10, 10000 from companies c
    join companies n on n.id = (select min(id) from companies x where x.id > c.id and x.name like 'Bench company %')
    where c.name like 'Bench company %'`);
  await db.execute(sql`
    insert into market_activity (week, product_id, units_bought, units_sold)
    select (select current_week from world), id, (id * 37) % 900, (id * 53) % 700 from products
    on conflict do nothing`);
  await db.execute(sql`
    insert into company_research (company_id, upgrade_id, researched_week)
    select c.id, u.id, 1 from companies c
    join lateral (select id from research_upgrades where prerequisite_id is null order by id limit 1) u on true
    where c.name like 'Bench company %' and c.id % 4 = 0`);
  await db.execute(sql`analyze`);
}

interface TurnTiming {
  totalMs: number;
  phases: Record<string, number>;
}

async function timedTurn(db: Database): Promise<TurnTiming> {
  // Turns are 12 hours apart, so every page a turn touches was last written before a checkpoint:
  // start from one, so the turn pays its full-page writes as it would in the game.
  await db.execute(sql`checkpoint`);
  const started = performance.now();
  const result = await runTurn(db);
  const totalMs = Math.round(performance.now() - started);
  if (result.status !== 'advanced') throw new Error(`turn skipped: ${result.reason}`);
  return { totalMs, phases: result.phaseTimings };
}

async function benchOne(companies: number): Promise<{ companies: number; buildings: number; turns: TurnTiming[] }> {
  const tempDir = await mkdtemp(path.join(os.tmpdir(), 'marketcraft-bench-'));
  await chmod(tempDir, 0o755);
  const profile = process.argv.includes('--profile');
  let profiling = false;
  const server = await startEmbeddedPostgres({
    dataDir: path.join(tempDir, 'data'),
    // Deleted afterwards, but durable (fsync, synchronous commit) like the game's own server.
    persistent: false,
    durable: true,
    // --profile: print every statement of the turn that took 30 ms or more.
    log: (message) => {
      if (profile && profiling && message.includes('duration:')) console.log(message.trim().slice(0, 400).replace(/\s+/g, ' '));
    },
  });
  try {
    const admin = postgres(server.url, { max: 1, onnotice: () => {} });
    await admin.unsafe('create database bench');
    if (profile) await admin.unsafe('alter database bench set log_min_duration_statement = 30');
    await admin.end();
    const url = server.urlFor('bench');
    await prepareDatabase(url);
    const connection = connectDatabase(url, { max: 4 });
    try {
      const seedStart = performance.now();
      await seedCompanies(connection.db, companies);
      const [{ buildings } = { buildings: 0 }] = await connection.db.execute<{ buildings: number }>(sql`select count(*)::int as buildings from buildings`);
      console.log(`[bench] N=${companies}: seeded ${buildings} buildings in ${Math.round(performance.now() - seedStart)} ms`);
      profiling = true;
      const turns = [await timedTurn(connection.db)];
      profiling = false;
      turns.push(await timedTurn(connection.db));
      if (profile) {
        const stats = await connection.db.execute(sql`
          select relname, n_tup_upd, n_tup_hot_upd from pg_stat_user_tables
          where relname in ('companies', 'inventory_items', 'store_products', 'share_records', 'city_market_data', 'products') order by relname`);
        console.log('[bench] updates (HOT):', stats.map((row) => `${row.relname} ${row.n_tup_upd} (${row.n_tup_hot_upd})`).join(', '));
      }
      return { companies, buildings: Number(buildings), turns };
    } finally {
      await connection.close();
    }
  } finally {
    await server.stop();
    await rm(tempDir, { recursive: true, force: true });
  }
}

const results: Awaited<ReturnType<typeof benchOne>>[] = [];
for (const size of parseSizes(process.argv.slice(2))) results.push(await benchOne(size));
const columns = results.flatMap((result) =>
  result.turns.map((turn, index) => ({ label: `N=${result.companies} ${index === 0 ? 'cold' : 'warm'} turn`, turn })),
);
const header = ['phase', ...columns.map((column) => column.label)];
const rows: string[][] = PHASES.map((phase) => [phase, ...columns.map((column) => `${column.turn.phases[phase] ?? 0} ms`)]);
rows.push(['total turn', ...columns.map((column) => `${column.turn.totalMs} ms`)]);
const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => row[column]!.length)));
const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
console.log(results.map((result) => `N=${result.companies}: ${result.buildings} buildings`).join(', '));
console.log(line(header));
for (const row of rows) console.log(line(row));
if (results.length > 1) {
  const first = results[0]!;
  const last = results[results.length - 1]!;
  for (const [index, name] of ['cold', 'warm'].entries()) {
    const ratio = last.turns[index]!.totalMs / first.turns[index]!.totalMs;
    console.log(`growth (${name}): x${ratio.toFixed(2)} time for x${(last.companies / first.companies).toFixed(0)} companies`);
  }
}
process.exit(0);
