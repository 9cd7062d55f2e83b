/**
 * `npm run bench:turn -- --companies N[,M...]` (default 1000,10000): for each N, a fresh embedded
 * PostgreSQL database (migrated and seeded), N extra companies with 10 buildings each seeded
 * set-based (3 farms, 2 mills, 2 bakeries with recipes selected and inputs in the warehouse, 3
 * stores with 2 stocked products each; market activity, shareholdings and research for some), then
 * two turns timed per phase: the first is cold (the bakeries' first bread creates ~N new warehouse
 * rows), the second is a steady-state week. The server runs with the game's durability (fsync,
 * synchronous commit) and each turn starts after a checkpoint, as a turn 12 hours after the last
 * one does. Prints a table of both sizes: per phase the wall time and the CPU time (the turn's
 * PostgreSQL backend + this process, from /proc: steady when the machine is shared), with the peak memory of this process (it runs the turn
 * as the worker does: the worker's own memory) and of the PostgreSQL backend that ran the turn.
 *
 * --profile prints every statement of the cold turn (with --profile-warm, of the warm turn too) that took 30 ms or more, with the CPU time it took
 * in PostgreSQL where the server reports it (log_statement_stats); --explain their plans (auto_explain,
 * EXPLAIN (ANALYZE, BUFFERS, WAL)).
 *
 * `npm run bench:turn -- --companies 1000 --orders 100000`: also that many open limit orders on the
 * exchange, spread over every product (304 in the seed), half buys and half sells with limits within
 * 10% of the posted price, in the weekly call auction of the first turn (docs/exchange.md); prints
 * the exchange phase against its limit (1 s).
 *
 * `npm run bench:turn -- --companies 10000 --ledger-weeks 50`: the world starts at week 51 with 50
 * past weeks of ledger (6 lines a company a week, as the turn writes), so the turn's reads of its
 * week's ledger (taxes, week reports) meet a long game's ledger, not a first week's.
 *
 * `npm run bench:turn -- --companies 100000 --keep <folder>`: the server's data stays in the folder and
 * the seeded world is kept there, so later runs skip the seeding (their turns play on a copy of it).
 *
 * `npm run bench:turn -- --bots 25,250`: the bots' phase instead (worker/bench/bots.ts).
 * `npm run bench:turn -- --worlds 200 --companies 30`: classroom worlds due at once (worker/bench/worlds.ts).
 */
import { mkdir, mkdtemp, rm, chmod, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { startEmbeddedPostgres } from '@marketcraft/db/embedded.ts';
import { prepareDatabase } from '@marketcraft/db/migrate.ts';
import { connectDatabase, type Database } from '@marketcraft/db/client.ts';
import { makeWeekFiles } from '@marketcraft/db';
import { PUBLIC_WORLD_ID } from '@marketcraft/shared';
import { runTurn, PHASES, TURN_SESSION_SETTINGS } from '../src/turn/index.ts';
import { seedCompanies } from './world.ts';
import { runBotsBench } from './bots.ts';
import { runWorldsBench } from './worlds.ts';

// `--worlds N --companies M`: N classroom worlds due at once, worked by 1 and 2 workers (worlds.ts).
if (process.argv.includes('--worlds')) {
  await runWorldsBench(process.argv.slice(2));
  process.exit(0);
}
// `--bots N[,M...]`: the bots' phase alone on the seeded world with N bots (bots.ts).
if (process.argv.includes('--bots')) {
  await runBotsBench(process.argv.slice(2));
  process.exit(0);
}

function parseSizes(argv: string[]): number[] {
  const index = argv.indexOf('--companies');
  // The values up to the next option (`--companies 1000 --orders 100000`: the sizes are 1000 only).
  const after = index >= 0 ? argv.slice(index + 1) : [];
  const until = after.findIndex((arg) => arg.startsWith('--'));
  const raw = index >= 0 ? (until < 0 ? after : after.slice(0, until)).join(',') : '1000,10000';
  const sizes = raw
    .split(',')
    .map((value) => Number.parseInt(value.trim(), 10))
    .filter((value) => Number.isSafeInteger(value) && value > 0);
  if (sizes.length === 0) throw new Error('usage: npm run bench:turn -- --companies 1000,10000');
  return sizes;
}

interface TurnTiming {
  totalMs: number;
  phases: Record<string, number>;
  /**
   * CPU ms per phase of the PostgreSQL backend that ran the turn plus this process (from /proc,
   * Linux; null elsewhere). Wall times move with whatever else runs on the machine; this does not.
   */
  phaseCpuMs: Record<string, number> | null;
  totalCpuMs: number | null;
  /** The week the turn played. */
  week: number;
  /**
   * What the turn's auction did: orders filled and orders expired in its week (read after both
   * turns: a read between them would set the orders' hint bits before the second turn's checkpoint).
   * The cold turn clears the seeded orders (about half fill); the warm one mostly expires the rest,
   * so its exchange phase is other work, not the same clearing warmed up.
   */
  auction: { filled: number; expired: number };
  /** Peak resident memory of this process so far (MB): it runs the turn as the worker does. */
  workerPeakMb: number;
  /** Peak resident memory of the PostgreSQL backend that ran the turn (MB), when readable here. */
  backendPeakMb: number | null;
}

/** VmHWM (peak resident set) of a local process in MB, or null (another host, no /proc). */
async function peakResidentMb(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}

/** CPU ms a local process has used (utime + stime from /proc/<pid>/stat, 100 ticks a second), or null. */
async function cpuMsOf(pid: number): Promise<number | null> {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** `db` has ONE connection, so the turn's backend is the one whose pid is asked first. */
async function timedTurn(db: Database): Promise<TurnTiming> {
  // Turns are 12 hours apart, so every page a turn touches was last written before a checkpoint:
  // start from one, so the turn pays its full-page writes as it would in the game.
  await db.execute(sql`checkpoint`);
  const backendPid = Number((await db.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`))[0]?.pid);
  const cpuNow = async () => {
    const backend = await cpuMsOf(backendPid);
    const own = process.cpuUsage();
    return backend === null ? null : backend + (own.user + own.system) / 1000;
  };
  const phaseCpuMs: Record<string, number> = {};
  const startCpu = await cpuNow();
  let lastCpu = startCpu;
  const started = performance.now();
  const result = await runTurn(db, {
    hooks: {
      afterPhase: async (phase) => {
        const cpu = await cpuNow();
        if (cpu !== null && lastCpu !== null) phaseCpuMs[phase] = Math.round(cpu - lastCpu);
        lastCpu = cpu;
      },
    },
  });
  const totalMs = Math.round(performance.now() - started);
  const endCpu = await cpuNow();
  if (result.status !== 'advanced') throw new Error(`turn skipped: ${result.reason}`);
  const workerPeakMb = Math.round(process.resourceUsage().maxRSS / 1024);
  return {
    week: result.week,
    auction: { filled: 0, expired: 0 },
    totalMs,
    phases: result.phaseTimings,
    phaseCpuMs: startCpu === null ? null : phaseCpuMs,
    totalCpuMs: startCpu === null || endCpu === null ? null : Math.round(endCpu - startCpu),
    workerPeakMb,
    backendPeakMb: await peakResidentMb(backendPid),
  };
}

/** A whole number above 0 given after `name` (0 without the option); `usage` is said otherwise. */
function countOption(argv: string[], name: string, usage: string): number {
  const index = argv.indexOf(name);
  if (index < 0) return 0;
  const count = Number.parseInt(argv[index + 1] ?? '', 10);
  if (!Number.isSafeInteger(count) || count <= 0) throw new Error(`usage: ${usage}`);
  return count;
}
/** `--orders N`: N open limit orders seeded for the auction. */
const ORDERS = countOption(process.argv.slice(2), '--orders', 'npm run bench:turn -- --companies 1000 --orders 100000');
/** `--ledger-weeks N`: N past weeks of ledger before the turns. */
const LEDGER_WEEKS = countOption(process.argv.slice(2), '--ledger-weeks', 'npm run bench:turn -- --companies 10000 --ledger-weeks 50');
/** The week of the open data files made after the turns: the warm turn's. */
const DATA_WEEK = LEDGER_WEEKS + 2;

/**
 * `weeks` past weeks of the world's ledger (weeks 1..weeks, 6 lines per company and week, written
 * week by week as turns write them), and the world moved to the week after them.
 */
async function seedPastLedger(db: Database, weeks: number): Promise<void> {
  await db.execute(sql`
    insert into transactions (world_id, company_id, type, reason, amount_cents, description, week)
    select 1, c.id, 'other', (array['wages', 'operating', 'tax', 'store_sales', 'dividend', 'dividend_paid'])[1 + g], 1000 + g, 'Past line ' || g, w
    from generate_series(1, ${weeks}::int) w cross join companies c cross join generate_series(0, 5) g
    where c.world_id = 1
    order by w, c.id, g`);
  await db.execute(sql`update worlds set current_week = ${weeks + 1}::int where id = 1`);
}
/** The exchange phase's limit for 304 products with 100,000 open orders (issue 22). */
const EXCHANGE_LIMIT_MS = 1_000;

/**
 * N open orders of the world's companies over every product, set-based and seeded (setseed):
 * quantities 1-100, limits within 10% of the posted price, escrow as placing them holds (a buy: the
 * limit x units plus the fee; a sell: its units), open for the next two auctions; the warehouse
 * rows as placing them leaves them.
 */
async function seedOrders(db: Database, count: number): Promise<void> {
  await db.execute(sql`select setseed(0.22)`);
  await db.execute(sql`
    with c as (select array_agg(id order by id) as ids from companies where world_id = 1 and status = 'active'),
         p as (select array_agg(product_id order by product_id) as ids, array_agg(current_price_cents order by product_id) as prices from world_products where world_id = 1),
         w as (select current_week as week from worlds where id = 1),
         g as (
           select n, c.ids[1 + n % cardinality(c.ids)] as company_id, 1 + (n * 7919) % cardinality(p.ids) as product_index,
                  case when random() < 0.5 then 'buy' else 'sell' end as side, 1 + floor(random() * 100)::bigint as quantity, random() as r
           from generate_series(1, ${count}::int) n, c, p
         )
    insert into exchange_orders (world_id, company_id, product_id, side, quantity, limit_price_cents, escrow_cents, escrow_units, escrow_cost_cents, week_placed, expires_week)
    select 1, g.company_id, p.ids[g.product_index], g.side, g.quantity, l.limit_cents,
           case when g.side = 'buy' then g.quantity * l.limit_cents + ceil(g.quantity * l.limit_cents / 100.0)::bigint else 0 end,
           case when g.side = 'sell' then g.quantity else 0 end, l.limit_cents, w.week, w.week + 1
    from g cross join p cross join w
    cross join lateral (select greatest(1, round(p.prices[g.product_index] * (0.9 + 0.2 * g.r)))::bigint as limit_cents) l`);
  // The warehouse rows as placing leaves them: a sell order's goods came out of the company's row of
  // the product, and a buy order made its row (openWarehouseRows).
  await db.execute(sql`
    insert into inventory_items (world_id, company_id, product_id, quantity, average_cost_cents)
    select distinct world_id, company_id, product_id, 0::bigint, 0::bigint from exchange_orders
    on conflict (world_id, company_id, product_id) do nothing`);
  await db.execute(sql`analyze exchange_orders`);
}

/**
 * `--keep DIR`: the server's data stays in DIR, and each size's seeded world is kept there as a
 * database of its own (`seed_<N>_<options>`), seeded on the first run only; every run's turns play
 * on a fresh copy of it (`create database ... template`), so a 100,000-company seed (minutes) is
 * paid once. The migrations run again on the copy: a branch's new migration still applies.
 */
function keptDir(argv: string[]): string | null {
  const index = argv.indexOf('--keep');
  if (index < 0) return null;
  const dir = argv[index + 1];
  if (!dir || dir.startsWith('--')) throw new Error('usage: npm run bench:turn -- --companies 100000 --keep <folder>');
  return path.resolve(dir);
}
const KEEP_DIR = keptDir(process.argv.slice(2));

async function benchOne(
  companies: number,
): Promise<{ companies: number; buildings: number; turns: TurnTiming[]; dataFilesMs: number; dataFiles: { files: number; bytes: number } }> {
  if (KEEP_DIR !== null) await mkdir(KEEP_DIR, { recursive: true });
  const tempDir = KEEP_DIR ?? (await mkdtemp(path.join(os.tmpdir(), 'marketcraft-bench-')));
  await chmod(tempDir, 0o755);
  const explain = process.argv.includes('--explain');
  const profile = explain || process.argv.includes('--profile');
  let profiling = false;
  const server = await startEmbeddedPostgres({
    dataDir: path.join(tempDir, 'data'),
    // Deleted afterwards (unless --keep), but durable (fsync, synchronous commit) like the game's own server.
    persistent: KEEP_DIR !== null,
    durable: true,
    // --profile: print every statement of the turn that took 30 ms or more.
    log: (message) => {
      if (!profiling) return;
      if (explain) return void console.log(message.trimEnd());
      if (!profile) return;
      // A chunk of the server's log may hold a statement's duration, its CPU time, or both.
      if (message.includes('duration:')) console.log(message.trim().slice(0, 400).replace(/\s+/g, ' '));
      if (message.includes(' s user, ')) {
        // log_statement_stats: the statement's CPU time in its backend (the wall time above moves with the machine's load).
        const usage = /([\d.]+) s user, ([\d.]+) s system, ([\d.]+) s elapsed/.exec(message);
        if (usage && Number(usage[3]) >= 0.03)
          console.log(`  cpu ${Math.round((Number(usage[1]) + Number(usage[2])) * 1000)} ms of ${Math.round(Number(usage[3]) * 1000)} ms`);
      }
    },
  });
  try {
    const admin = postgres(server.url, { max: 1, onnotice: () => {} });
    const seedName = `seed_${companies}_orders_${ORDERS}_ledger_${LEDGER_WEEKS}`;
    const seeded = KEEP_DIR !== null && (await admin`select 1 from pg_database where datname = ${seedName}`).length > 0;
    await admin.unsafe('drop database if exists bench');
    await admin.unsafe(seeded ? `create database bench template ${seedName}` : 'create database bench');
    const url = server.urlFor('bench');
    if (KEEP_DIR !== null && !seeded) {
      // Seed once into the kept database, then play on a copy of it.
      const seedUrl = server.urlFor(seedName);
      await admin.unsafe(`create database ${seedName}`);
      await prepareDatabase(seedUrl);
      const seeding = connectDatabase(seedUrl, { max: 4 });
      try {
        await seedWorld(seeding.db, companies);
      } finally {
        await seeding.close();
      }
      await admin.unsafe('drop database bench');
      await admin.unsafe(`create database bench template ${seedName}`);
    }
    if (profile) await admin.unsafe('alter database bench set log_min_duration_statement = 30');
    if (profile) await admin.unsafe('alter database bench set log_statement_stats = on');
    if (explain) {
      // --explain: the plan (EXPLAIN ANALYZE) of every statement of 30 ms or more, in the server's log.
      await admin.unsafe(`alter database bench set session_preload_libraries = 'auto_explain'`);
      await admin.unsafe('alter database bench set auto_explain.log_min_duration = 30');
      await admin.unsafe('alter database bench set auto_explain.log_analyze = on');
      // The pages each plan node read, found in memory (hit), read from the files, dirtied and wrote: a cold turn's first touch shows here.
      await admin.unsafe('alter database bench set auto_explain.log_buffers = on');
      await admin.unsafe('alter database bench set auto_explain.log_wal = on');
    }
    await admin.end();
    await prepareDatabase(url);
    const connection = connectDatabase(url, { max: 4 });
    try {
      const seedStart = performance.now();
      if (KEEP_DIR === null) await seedWorld(connection.db, companies);
      else await connection.db.execute(sql`analyze`);
      const [{ buildings } = { buildings: 0 }] = await connection.db.execute<{ buildings: number }>(sql`select count(*)::int as buildings from buildings`);
      console.log(`[bench] N=${companies}: seeded ${buildings} buildings in ${Math.round(performance.now() - seedStart)} ms`);
      // The turns on a connection of their own (one backend: its CPU is the turn's), set up as the worker's are.
      const turnConnection = connectDatabase(url, { max: 1, settings: TURN_SESSION_SETTINGS });
      const turns: TurnTiming[] = [];
      try {
        profiling = true;
        if (profile) console.log('[bench] the cold turn:');
        turns.push(await timedTurn(turnConnection.db));
        // --profile-warm: the warm turn's statements too.
        profiling = process.argv.includes('--profile-warm');
        if (profiling) console.log('[bench] the warm turn:');
        turns.push(await timedTurn(turnConnection.db));
        profiling = false;
        for (const turn of turns) {
          const [auction] = await turnConnection.db.execute<{ filled: number; expired: number }>(sql`
            select (select count(*)::int from exchange_fills where world_id = 1 and week = ${turn.week}::int) as filled,
                   (select count(*)::int from exchange_orders where world_id = 1 and status = 'expired' and closed_week = ${turn.week}::int) as expired`);
          turn.auction = { filled: Number(auction?.filled ?? 0), expired: Number(auction?.expired ?? 0) };
        }
      } finally {
        await turnConnection.close();
      }
      if (profile) {
        const stats = await connection.db.execute(sql`
          select relname, n_tup_upd, n_tup_hot_upd from pg_stat_user_tables
          where relname in ('companies', 'inventory_items', 'store_products', 'share_records', 'city_market_data', 'products', 'exchange_orders') order by relname`);
        console.log('[bench] updates (HOT):', stats.map((row) => `${row.relname} ${row.n_tup_upd} (${row.n_tup_hot_upd})`).join(', '));
      }
      // Open data (docs/open-data.md): a week's files are made on their first request, outside the turn.
      const filesStart = performance.now();
      await makeWeekFiles(connection.db, PUBLIC_WORLD_ID, DATA_WEEK);
      const dataFilesMs = Math.round(performance.now() - filesStart);
      const [made] = await connection.db.execute<{ files: number; bytes: number }>(sql`
        select count(*)::int as files, coalesce(sum(octet_length(content)), 0)::int as bytes from data_files where week = ${DATA_WEEK}::int`);
      return { companies, buildings: Number(buildings), turns, dataFilesMs, dataFiles: { files: Number(made?.files ?? 0), bytes: Number(made?.bytes ?? 0) } };
    } finally {
      await connection.close();
    }
  } finally {
    await server.stop();
    if (KEEP_DIR === null) await rm(tempDir, { recursive: true, force: true });
  }
}

/** The bench's world: N companies, and the options' orders and past ledger. */
async function seedWorld(db: Database, companies: number): Promise<void> {
  await seedCompanies(db, companies);
  if (ORDERS > 0) await seedOrders(db, ORDERS);
  if (LEDGER_WEEKS > 0) await seedPastLedger(db, LEDGER_WEEKS);
  await db.execute(sql`analyze`);
}

const results: Awaited<ReturnType<typeof benchOne>>[] = [];
for (const size of parseSizes(process.argv.slice(2))) results.push(await benchOne(size));
const columns = results.flatMap((result) =>
  result.turns.map((turn, index) => ({ label: `N=${result.companies} ${index === 0 ? 'cold' : 'warm'} turn`, turn })),
);
const header = ['phase', ...columns.map((column) => column.label)];
// Each cell: wall time (CPU time of PostgreSQL + the worker).
const cell = (wallMs: number, cpuMs: number | null | undefined) => `${wallMs} ms${cpuMs === null || cpuMs === undefined ? '' : ` (cpu ${cpuMs})`}`;
const rows: string[][] = PHASES.map((phase) => [phase, ...columns.map((column) => cell(column.turn.phases[phase] ?? 0, column.turn.phaseCpuMs?.[phase]))]);
rows.push(['total turn', ...columns.map((column) => cell(column.turn.totalMs, column.turn.totalCpuMs))]);
rows.push(['peak RSS, worker (this process)', ...columns.map((column) => `${column.turn.workerPeakMb} MB`)]);
rows.push([
  "peak RSS, turn's PostgreSQL backend",
  ...columns.map((column) => (column.turn.backendPeakMb === null ? 'n/a' : `${column.turn.backendPeakMb} MB`)),
]);
const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => row[column]!.length)));
const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
console.log(results.map((result) => `N=${result.companies}: ${result.buildings} buildings`).join(', '));
console.log(
  `wall time (cpu ms of the turn's PostgreSQL backend + this process); ${os.cpus().length} CPUs, load average ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(', ')}`,
);
console.log(line(header));
for (const row of rows) console.log(line(row));
if (ORDERS > 0) {
  for (const result of results) {
    const exchange = result.turns[0]!.phases.exchange ?? 0;
    const did = result.turns
      .map(
        (turn, index) =>
          `${index === 0 ? 'cold' : 'warm'} ${turn.auction.filled.toLocaleString('en-US')} filled, ${turn.auction.expired.toLocaleString('en-US')} expired`,
      )
      .join('; ');
    console.log(
      `exchange phase (the call auction) with ${ORDERS.toLocaleString('en-US')} open orders, N=${result.companies}: ${exchange} ms (limit ${EXCHANGE_LIMIT_MS} ms: ${exchange < EXCHANGE_LIMIT_MS ? 'within' : 'OVER'}); orders ${did}`,
    );
  }
}
// The turn's open data phase against its limit (issue 25: under 5% of the turn), and the files made afterwards on first request.
for (const result of results) {
  const shares = result.turns.map((turn, index) => {
    const cpu = turn.phaseCpuMs?.data;
    const share = cpu !== undefined && turn.totalCpuMs ? (100 * cpu) / turn.totalCpuMs : (100 * (turn.phases.data ?? 0)) / turn.totalMs;
    return `${index === 0 ? 'cold' : 'warm'} ${share.toFixed(1)}%`;
  });
  console.log(
    `open data N=${result.companies}: phase data ${shares.join(', ')} of the turn (limit 5%); week ${DATA_WEEK}'s ${result.dataFiles.files} files (${Math.round(result.dataFiles.bytes / 1024)} KB) made on first request in ${result.dataFilesMs} ms`,
  );
}
if (results.length > 1) {
  const first = results[0]!;
  const last = results[results.length - 1]!;
  for (const [index, name] of ['cold', 'warm'].entries()) {
    const ratio = last.turns[index]!.totalMs / first.turns[index]!.totalMs;
    console.log(`growth (${name}): x${ratio.toFixed(2)} time for x${(last.companies / first.companies).toFixed(0)} companies`);
  }
}
process.exit(0);
