/**
 * `npm run bench:turn -- --bots 25,250 [--turns 4]`: the bots' phase of the turn (docs/bots.md).
 * For each N, a fresh embedded PostgreSQL database (migrated and seeded: the 25 seeded bots), the
 * seeded bots copied set-based until there are N (same strategies, cash, buildings and shelves),
 * then `--turns` whole turns (default 4). Prints the bots' phase per turn (the first is cold; the
 * warm turns' median and best: on a shared machine the best is the least disturbed) and the whole
 * turn, and how the bots' time grows with their number; then where the time goes: the bots' phase
 * once more after the last turn, alone and rolled back (snapshot, planning, execution, actions).
 */
import { mkdtemp, rm, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { startEmbeddedPostgres } from '@marketcraft/db/embedded.ts';
import { prepareDatabase } from '@marketcraft/db/migrate.ts';
import { connectDatabase, type Database } from '@marketcraft/db/client.ts';
import { turnRng } from '@marketcraft/shared';
import { runTurn } from '../src/turn/index.ts';
import { runBotTurn, type BotTurnSummary } from '../src/bots/index.ts';

function listArg(argv: string[], name: string, fallback: string): number[] {
  const index = argv.indexOf(name);
  const raw = index >= 0 ? (argv[index + 1] ?? '') : fallback;
  return raw
    .split(',')
    .map((value) => Number.parseInt(value.trim(), 10))
    .filter((value) => Number.isSafeInteger(value) && value > 0);
}

/** Copies of the seeded bots (strategy, cash, share record, buildings, shelves) until there are `total`. */
async function cloneBots(db: Database, total: number): Promise<void> {
  const [counted] = await db.execute<{ bots: number }>(sql`select count(*)::int as bots from companies where is_bot`);
  const seeded = Number(counted?.bots ?? 0);
  const copies = Math.ceil(total / Math.max(1, seeded)) - 1;
  if (copies <= 0) return;
  await db.execute(sql`
    create temp table bench_bot_copies as
    select c.id as original_id, g as copy, row_number() over (order by g, c.id) as n
    from companies c cross join generate_series(1, ${copies}::int) g where c.is_bot`);
  await db.execute(sql`delete from bench_bot_copies where n > ${total - seeded}`);
  await db.execute(sql`alter table bench_bot_copies add column new_id int`);
  await db.execute(sql`update bench_bot_copies set new_id = nextval(pg_get_serial_sequence('companies', 'id'))`);
  await db.execute(sql`
    insert into companies (world_id, id, name, bio, cash_cents, starting_cash_cents, is_bot, strategy)
    overriding system value
    select c.world_id, k.new_id, c.name || ' #' || k.copy, c.bio, c.cash_cents, c.starting_cash_cents, true, c.strategy
    from bench_bot_copies k join companies c on c.id = k.original_id order by k.new_id`);
  await db.execute(sql`
    insert into share_records (world_id, company_id, total_shares, share_price_cents, fundamental_cents)
    select s.world_id, k.new_id, s.total_shares, s.share_price_cents, s.fundamental_cents
    from bench_bot_copies k join share_records s on s.company_id = k.original_id`);
  await db.execute(sql`
    create temp table bench_building_copies as
    select b.id as original_id, k.new_id as company_id, nextval(pg_get_serial_sequence('buildings', 'id')) as new_id
    from bench_bot_copies k join buildings b on b.company_id = k.original_id`);
  await db.execute(sql`
    insert into buildings (world_id, id, company_id, type, city_id, employees, equipment_level, production_rate, selected_recipe_id,
                           selected_category, construction_cost_cents, built_week)
    overriding system value
    select b.world_id, m.new_id, m.company_id, b.type, b.city_id, b.employees, b.equipment_level, b.production_rate, b.selected_recipe_id,
           b.selected_category, b.construction_cost_cents, b.built_week
    from bench_building_copies m join buildings b on b.id = m.original_id`);
  await db.execute(sql`
    insert into store_products (world_id, building_id, product_id, quantity, retail_price_cents, cost_price_cents, is_active)
    select sp.world_id, m.new_id, sp.product_id, sp.quantity, sp.retail_price_cents, sp.cost_price_cents, sp.is_active
    from bench_building_copies m join store_products sp on sp.building_id = m.original_id`);
  await db.execute(sql`analyze`);
}

interface BotsRun {
  bots: number;
  turns: { botsMs: number; turnMs: number }[];
  /** The bots' phase once more after the last turn, in a transaction rolled back: where its time goes. */
  breakdown: BotTurnSummary;
}

/** Runs the bots' phase alone on the world as it is, and rolls it back. */
async function botsPhaseAlone(db: Database): Promise<BotTurnSummary> {
  let summary: BotTurnSummary | undefined;
  await db
    .transaction(async (tx) => {
      const [world] = await tx.execute<{ current_week: number; seed: number }>(sql`select current_week, seed from worlds where id = 1`);
      await tx.execute(sql`select id from companies where world_id = 1 and status = 'active' order by id for update`);
      summary = await runBotTurn(tx, 1, Number(world?.current_week), turnRng(Number(world?.seed), Number(world?.current_week)));
      throw new RollBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RollBack)) throw error;
    });
  if (!summary) throw new Error('the bots did not run');
  return summary;
}

class RollBack extends Error {}

async function benchBots(bots: number, turns: number): Promise<BotsRun> {
  const tempDir = await mkdtemp(path.join(os.tmpdir(), 'marketcraft-bench-bots-'));
  await chmod(tempDir, 0o755);
  const server = await startEmbeddedPostgres({ dataDir: path.join(tempDir, 'data'), persistent: false, durable: true, log: () => {} });
  try {
    const admin = postgres(server.url, { max: 1, onnotice: () => {} });
    await admin.unsafe('create database bench');
    await admin.end();
    const url = server.urlFor('bench');
    await prepareDatabase(url);
    const connection = connectDatabase(url, { max: 4 });
    try {
      await cloneBots(connection.db, bots);
      const [counted] = await connection.db.execute<{ bots: number }>(sql`select count(*)::int as bots from companies where is_bot`);
      const turnsRun: BotsRun['turns'] = [];
      for (let turn = 0; turn < turns; turn += 1) {
        await connection.db.execute(sql`checkpoint`);
        const result = await runTurn(connection.db);
        if (result.status !== 'advanced') throw new Error(`turn skipped: ${result.reason}`);
        turnsRun.push({ botsMs: result.phaseTimings.bots ?? 0, turnMs: result.durationMs });
        console.log(`[bench] ${Number(counted?.bots ?? 0)} bots, turn ${turn + 1}: bots ${result.phaseTimings.bots} ms, turn ${result.durationMs} ms`);
      }
      return { bots: Number(counted?.bots ?? 0), turns: turnsRun, breakdown: await botsPhaseAlone(connection.db) };
    } finally {
      await connection.close();
    }
  } finally {
    await server.stop();
    await rm(tempDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)]!;
};

export async function runBotsBench(argv: string[]): Promise<void> {
  const sizes = listArg(argv, '--bots', '25,250');
  const turns = listArg(argv, '--turns', '4')[0] ?? 4;
  if (sizes.length === 0) throw new Error('usage: npm run bench:turn -- --bots 25,250 [--turns 4]');
  const runs: BotsRun[] = [];
  for (const size of sizes) runs.push(await benchBots(size, turns));
  const header = ['bots', 'bots phase, cold turn', `bots phase, warm (median of ${turns - 1})`, 'warm (best)', 'per bot (warm)', 'whole turn (warm median)'];
  const rows = runs.map((run) => {
    const warm = run.turns.slice(1);
    const botsWarm = median(warm.map((turn) => turn.botsMs));
    return [
      String(run.bots),
      `${run.turns[0]?.botsMs ?? 0} ms`,
      `${botsWarm} ms`,
      `${Math.min(...warm.map((turn) => turn.botsMs))} ms`,
      `${(botsWarm / run.bots).toFixed(2)} ms`,
      `${median(warm.map((turn) => turn.turnMs))} ms`,
    ];
  });
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => row[column]!.length)));
  const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  console.log('');
  const parts = ['bots', 'snapshot', 'planning', 'execution', 'actions planned / done / refused', 'action calls', 'actions by kind'];
  const partRows = runs.map((run) => {
    const b = run.breakdown;
    return [
      String(run.bots),
      `${b.timings.snapshotMs} ms`,
      `${b.timings.planMs} ms`,
      `${b.timings.executeMs} ms`,
      `${b.planned} / ${b.actions} / ${b.refused}`,
      String(b.batches),
      Object.entries(b.byKind)
        .map(([kind, count]) => `${kind} ${count}`)
        .join(', '),
    ];
  });
  const partWidths = parts.map((_, column) => Math.max(...[parts, ...partRows].map((row) => row[column]!.length)));
  const partLine = (row: string[]) => row.map((cell, column) => cell.padEnd(partWidths[column]!)).join('  ');
  console.log(partLine(parts));
  for (const row of partRows) console.log(partLine(row));
  if (runs.length > 1) {
    const first = runs[0]!;
    const last = runs[runs.length - 1]!;
    const ratio = median(last.turns.slice(1).map((turn) => turn.botsMs)) / Math.max(1, median(first.turns.slice(1).map((turn) => turn.botsMs)));
    console.log(`growth: x${ratio.toFixed(2)} bots' time for x${(last.bots / first.bots).toFixed(0)} bots`);
  }
}
