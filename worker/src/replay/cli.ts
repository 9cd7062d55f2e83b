/**
 * `npm run replay -- --world N [--to-week W]`: replays world N of the game's database (DATABASE_URL,
 * or the running `npm start`'s embedded server) into a fresh database on a throwaway embedded
 * PostgreSQL server, and prints week by week whether the state hash matches the original's.
 * `npm run replay -- --bench [--weeks 50] [--players 30] [--bots 0] [--fork-week 25]`: plays a
 * class world of random players for that many weeks, then times its replay week by week (with the
 * log's size per week) and a replay to the fork week (docs/replay.md, docs/benchmarks.md);
 * `--compare` replays it alternately with each request as the API's door runs it and as replay does;
 * `--profile` prints the statements the replay sent, by step (each action, applied or refused, the
 * log appends, the turn) and by statement.
 * Exit codes: 0 every hash matched; 1 bad usage or an error; 2 a hash or an outcome differed.
 */
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { PUBLIC_WORLD_ID } from '@marketcraft/shared';
import { connectDatabase, createWorld, joinWorld, users, type Database } from '@marketcraft/db';
import { startEmbeddedPostgres } from '@marketcraft/db/embedded.ts';
import { prepareDatabase } from '@marketcraft/db/migrate.ts';
import { runTurn } from '../turn/index.ts';
import { replayWorld, type ReplayTarget, type WeekCheck } from './replay.ts';
import { playRandomWeek, seededRandom, type Player } from './randomPlay.ts';

const USAGE = `Usage:
  npm run replay -- --world N [--to-week W]   replay world N into a fresh database, week by week
  npm run replay -- --bench [--weeks 50] [--players 30] [--bots 0] [--fork-week 25] [--compare] [--profile]
The game's database is read from DATABASE_URL, or from the file \`npm start\` writes (DATA_DIR/database-url).`;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function say(message: string): void {
  process.stdout.write(message + '\n');
}

function sourceUrl(): string | undefined {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  try {
    return readFileSync(path.join(path.resolve(process.env.DATA_DIR ?? path.join(repoRoot, '.data')), 'database-url'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** A throwaway PostgreSQL server, and fresh migrated and seeded databases on it. */
async function scratchServer() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'marketcraft-replay-'));
  await chmod(dir, 0o755); // the server runs as the `postgres` user when we are root
  const server = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), persistent: false });
  const admin = connectDatabase(server.url, { max: 1 });
  let made = 0;
  return {
    /** A fresh database; `statements()` counts what was sent to it (a replay's round trips), `onStatement` sees each. */
    async database(onStatement?: (query: string) => void): Promise<Database & { close: () => Promise<void>; statements: () => number }> {
      made += 1;
      await admin.db.execute(sql.raw(`create database replay_${made}`));
      const url = server.url.replace(/\/postgres$/, `/replay_${made}`);
      await prepareDatabase(url);
      let sent = 0;
      const connection = connectDatabase(url, {
        max: 10,
        onStatement: (query) => {
          sent += 1;
          onStatement?.(query);
        },
      });
      return Object.assign(connection.db, { close: () => connection.close(), statements: () => sent });
    },
    async stop() {
      await admin.close();
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The world replay writes into, in `db`: the public world (a fresh seed's), or a new class world with the original's settings. */
async function targetFor(db: Database, source: Database, worldId: number): Promise<ReplayTarget> {
  const [admin] = await db.insert(users).values({ email: 'replay@replay.invalid', isAdmin: true }).returning({ id: users.id });
  const replayer = { id: admin!.id, isAdmin: true as const };
  const [world] = await source.execute<{
    kind: string;
    name: string;
    seed: number;
    bot_count: number;
    starting_cash_cents: number | null;
    max_players: number | null;
  }>(sql`select kind, name, seed, bot_count, starting_cash_cents, max_players from worlds where id = ${worldId}`);
  if (!world) throw new Error(`No world ${worldId} in the game's database`);
  let targetWorld = PUBLIC_WORLD_ID;
  if (world.kind === 'public') {
    await db.execute(sql`update worlds set seed = ${Number(world.seed)} where id = ${PUBLIC_WORLD_ID}`);
  } else {
    const created = await createWorld(db, replayer, {
      name: world.name,
      seed: Number(world.seed),
      bots: Number(world.bot_count),
      startingCashDollars: Number(world.starting_cash_cents ?? 10_000_000) / 100,
      maxPlayers: world.max_players === null ? 1_000 : Number(world.max_players),
      turnIntervalMinutes: null,
    });
    targetWorld = created.id;
  }
  const accounts = new Map<number, number>();
  return {
    db,
    worldId: targetWorld,
    admin: replayer,
    userFor: async (original) => {
      if (!accounts.has(original)) {
        const [user] = await db
          .insert(users)
          .values({ email: `player-${original}@replay.invalid` })
          .returning({ id: users.id });
        accounts.set(original, user!.id);
      }
      return accounts.get(original)!;
    },
  };
}

/**
 * `--profile`: the statements a replay sends, counted by the step that sent them (onStep: a
 * request's action, applied or refused as logged, the log appends, the turn) and by their text's
 * start; printed as tables after the replay.
 */
class StatementProfile {
  private current = 'start';
  private readonly steps = new Map<string, { count: number; statements: Map<string, number> }>();

  readonly step = (name: string): void => {
    this.current = name;
    const step = this.steps.get(name) ?? { count: 0, statements: new Map() };
    step.count += 1;
    this.steps.set(name, step);
  };

  readonly statement = (query: string): void => {
    const step = this.steps.get(this.current) ?? { count: 0, statements: new Map() };
    this.steps.set(this.current, step);
    const kind = query
      .replace(/\/\*.*?\*\//g, '')
      .replace(/\s+/g, ' ')
      .replace(/"s\d+"|request_writes_\d+/g, (name) => name.replace(/\d+/, 'N'))
      .trim()
      .slice(0, 90);
    step.statements.set(kind, (step.statements.get(kind) ?? 0) + 1);
  };

  print(): void {
    const total = (step: { statements: Map<string, number> }) => [...step.statements.values()].reduce((sum, count) => sum + count, 0);
    const sorted = [...this.steps].sort(([, a], [, b]) => total(b) - total(a));
    say('');
    say('| step | times | statements | a time |');
    say('|---|---|---|---|');
    for (const [name, step] of sorted) say(`| ${name} | ${step.count} | ${total(step)} | ${(total(step) / Math.max(1, step.count)).toFixed(1)} |`);
    for (const [name, step] of sorted.slice(0, 12)) {
      say('');
      say(`${name} (${step.count} times):`);
      for (const [kind, count] of [...step.statements].sort(([, a], [, b]) => b - a).slice(0, 12)) {
        say(`  ${(count / Math.max(1, step.count)).toFixed(2).padStart(6)}  ${kind}`);
      }
    }
  }
}

function weekLine(check: WeekCheck, bytes?: number): string {
  const hash = (value: string | null) => (value ?? 'none').slice(0, 12);
  return [
    `week ${String(check.week).padStart(3)}`,
    check.matches ? 'match   ' : 'DIFFERS ',
    `original ${hash(check.original)}`,
    `replayed ${hash(check.replayed)}`,
    `${String(check.ms).padStart(6)} ms (turn ${String(check.turnMs).padStart(5)})`,
    `${String(check.entries).padStart(5)} entries`,
    ...(bytes === undefined ? [] : [`${(bytes / 1024).toFixed(1).padStart(8)} KB log`]),
  ].join('  ');
}

async function replayCommand(worldId: number, toWeek: number | undefined): Promise<number> {
  const url = sourceUrl();
  if (!url) {
    process.stderr.write(`DATABASE_URL is not set and no running game was found.\n${USAGE}\n`);
    return 1;
  }
  const source = connectDatabase(url, { max: 2, applicationName: 'marketcraft-replay' });
  const scratch = await scratchServer();
  try {
    const target = await targetFor(await scratch.database(), source.db, worldId);
    const started = performance.now();
    const report = await replayWorld(source.db, worldId, target, { toWeek, onWeek: (check) => say(weekLine(check)) });
    for (const mismatch of report.mismatches) {
      say(`entry ${mismatch.seq} (${mismatch.action}) answered ${JSON.stringify(mismatch.replayed)}, the original ${JSON.stringify(mismatch.original)}`);
    }
    const matched = report.weeks.every((week) => week.matches) && report.mismatches.length === 0;
    say(
      `${report.weeks.length} weeks replayed in ${((performance.now() - started) / 1000).toFixed(1)} s; the world is at week ${report.week}: ${matched ? 'every hash matches' : 'DIFFERENT'}`,
    );
    return matched ? 0 : 2;
  } finally {
    await source.close();
    await scratch.stop();
  }
}

async function benchCommand(
  weeks: number,
  playerCount: number,
  bots: number,
  forkWeek: number,
  compare: boolean,
  profile: StatementProfile | undefined,
): Promise<number> {
  const scratch = await scratchServer();
  try {
    const db = await scratch.database();
    const [teacher] = await db.insert(users).values({ email: 'teacher@bench.invalid', isAdmin: true }).returning({ id: users.id });
    const world = await createWorld(
      db,
      { id: teacher!.id, isAdmin: true },
      { name: 'Replay bench', seed: 777, bots, startingCashDollars: 200_000, maxPlayers: 1_000, turnIntervalMinutes: null },
    );
    const players: Player[] = [];
    for (let index = 0; index < playerCount; index += 1) {
      const [user] = await db
        .insert(users)
        .values({ email: `student-${index}@bench.invalid` })
        .returning({ id: users.id });
      await joinWorld(
        db,
        { id: user!.id, isAdmin: false, email: `student-${index}@bench.invalid` },
        { code: world.join_code!, companyName: `Student ${index}` },
      );
      const [company] = await db.execute<{ id: number }>(sql`select id from companies where world_id = ${world.id} and user_id = ${user!.id}`);
      players.push({ userId: user!.id, companyId: Number(company!.id) });
    }
    const random = seededRandom(20261207);
    const playStarted = performance.now();
    for (let week = 1; week <= weeks; week += 1) {
      await playRandomWeek(db, players, random);
      await runTurn(db, { worldId: world.id, week });
    }
    say(`Played ${weeks} weeks of a class world (${playerCount} players, ${bots} bots) in ${((performance.now() - playStarted) / 1000).toFixed(1)} s`);
    const sizes = new Map(
      (
        await db.execute<{ week: number; bytes: number }>(sql`
          select week, sum(pg_column_size(a.*))::bigint as bytes from world_actions a where world_id = ${world.id} group by week`)
      ).map((row) => [Number(row.week), Number(row.bytes)]),
    );
    if (compare) return await compareDoors(scratch, db, world.id);
    // The fresh databases are made before the clocks start: a replay's time is its own.
    const replayDb = await scratch.database(profile?.statement);
    const replayTarget = await targetFor(replayDb, db, world.id);
    const forkTarget = await targetFor(await scratch.database(), db, world.id);
    const load = os.loadavg();
    const cpuBefore = process.cpuUsage();
    const statementsBefore = replayDb.statements();
    const replayStarted = performance.now();
    const report = await replayWorld(db, world.id, replayTarget, {
      onWeek: (check) => say(weekLine(check, sizes.get(check.week))),
      onStep: profile?.step,
    });
    const replaySeconds = (performance.now() - replayStarted) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const statements = replayDb.statements() - statementsBefore;
    const requests = report.weeks.reduce((sum, week) => sum + week.entries, 0);
    const turnSeconds = report.weeks.reduce((sum, week) => sum + week.turnMs, 0) / 1000;
    const forkStarted = performance.now();
    await replayWorld(db, world.id, forkTarget, { toWeek: forkWeek });
    const forkSeconds = (performance.now() - forkStarted) / 1000;
    const total = [...sizes.values()].reduce((sum, bytes) => sum + bytes, 0);
    say('');
    say('| measure | time | limit (issue 23) |');
    say('|---|---|---|');
    say(`| replay ${weeks} weeks, ${playerCount} players + ${bots} bots | ${replaySeconds.toFixed(1)} s | 10 s (50 weeks, 30 companies) |`);
    say(`| of which the turns (phases, state hash) | ${turnSeconds.toFixed(1)} s | - |`);
    say(`| the replay's own CPU (Node, not PostgreSQL) | ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s | - |`);
    say(
      `| statements sent to the replay's database (round trips; turns included) | ${statements.toLocaleString('en')} (${(statements / Math.max(1, requests)).toFixed(1)} an entry of the log) | - |`,
    );
    say(`| replay to week ${forkWeek} (a fork) | ${forkSeconds.toFixed(1)} s | 10 s (week 25) |`);
    say(`| log size | ${(total / 1024).toFixed(0)} KB, ${(total / 1024 / Math.max(1, weeks)).toFixed(1)} KB a week | - |`);
    profile?.print();
    const matched = report.weeks.every((week) => week.matches) && report.mismatches.length === 0;
    say(`Load average when the replay started: ${load.map((value) => value.toFixed(1)).join(', ')} (${os.cpus().length} cores).`);
    say(matched ? 'Every hash matches.' : `DIFFERENT: ${report.mismatches.length} outcomes, ${report.weeks.filter((week) => !week.matches).length} weeks`);
    return matched ? 0 : 2;
  } finally {
    await scratch.stop();
  }
}

/**
 * `--compare`: the played world replayed four times, alternately with each request as the API's
 * door runs it (a savepoint and a log append each: `oneByOne`) and as replay runs it now, so both
 * meet the same load (the machine is shared); the times, the statements sent and the load.
 */
async function compareDoors(scratch: Awaited<ReturnType<typeof scratchServer>>, source: Database, worldId: number): Promise<number> {
  say('');
  say("| door | replay | of which the turns | statements sent | the replay's own CPU | load average at its start |");
  say('|---|---|---|---|---|---|');
  let matched = true;
  for (const oneByOne of [true, false, true, false]) {
    const target = await scratch.database();
    const replayTarget = await targetFor(target, source, worldId);
    const load = os.loadavg()[0]!.toFixed(1);
    const cpuBefore = process.cpuUsage();
    const sentBefore = target.statements();
    const started = performance.now();
    const report = await replayWorld(source, worldId, replayTarget, { oneByOne });
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const turns = report.weeks.reduce((sum, week) => sum + week.turnMs, 0) / 1000;
    matched &&= report.weeks.every((week) => week.matches);
    say(
      `| ${oneByOne ? "one by one (the API's door)" : 'the week together (replay now)'} | ${seconds.toFixed(1)} s | ${turns.toFixed(1)} s | ${(target.statements() - sentBefore).toLocaleString('en')} | ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s | ${load} |`,
    );
  }
  say(matched ? 'Every hash matches.' : 'DIFFERENT hashes');
  return matched ? 0 : 2;
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        world: { type: 'string' },
        'to-week': { type: 'string' },
        bench: { type: 'boolean' },
        weeks: { type: 'string' },
        players: { type: 'string' },
        bots: { type: 'string' },
        'fork-week': { type: 'string' },
        compare: { type: 'boolean' },
        profile: { type: 'boolean' },
      },
    }).values;
  } catch {
    process.stderr.write(USAGE + '\n');
    return 1;
  }
  const number = (value: string | undefined, fallback: number) => (value === undefined ? fallback : Number(value));
  if (parsed.bench) {
    return benchCommand(
      number(parsed.weeks, 50),
      number(parsed.players, 30),
      number(parsed.bots, 0),
      number(parsed['fork-week'], 25),
      parsed.compare === true,
      parsed.profile ? new StatementProfile() : undefined,
    );
  }
  const world = Number(parsed.world);
  const toWeek = parsed['to-week'] === undefined ? undefined : Number(parsed['to-week']);
  if (!Number.isInteger(world) || world < 1 || (toWeek !== undefined && (!Number.isInteger(toWeek) || toWeek < 1))) {
    process.stderr.write(USAGE + '\n');
    return 1;
  }
  return replayCommand(world, toWeek);
}

process.exit(await main());
