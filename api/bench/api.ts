/**
 * `npm run bench:api`: the API under concurrent load on a fresh embedded PostgreSQL (durable, as the
 * game's own: fsync and synchronous commit on), every request logged as in production.
 * Starts the server the production way (startApiServer: migrations + seed) in its own process
 * (api/bench/server.ts), creates players with sessions and a bot to trade, then measures with
 * autocannon (5 s, 50 connections each) a bare `GET /api/health`, reads (`/api/world`, a catalogue
 * read, `/api/company` with a session and with a personal access token) and trades (`POST
 * /api/stocks/trade` buying 1 share, from one issuer for every connection (they queue on its
 * row lock) and from an issuer per connection; `POST /api/market/trade` buying 1 unit of the
 * deepest product) and the exchange book of that product (`GET /api/exchange/books/{id}`, with 4
 * bids per player in it), printing requests/s and p50/p99 latency.
 *
 * The first row is the DB limit, measured in the same run: a Node process (this one, with as many
 * connections as the server's pool for single statements) running one indexed query per "request" (a session looked up by its primary
 * key) with as many in flight as the benchmark has connections. An API request can be no faster;
 * the ratio column says how close each route comes to it.
 *
 * CPU ms/req: the CPU time the server process and PostgreSQL spent per request (from /proc, Linux;
 * for the DB limit, this process and PostgreSQL), and PostgreSQL's part of it; the load generator's
 * (autocannon, in this process) is beside it: on one machine it takes its share of the cores. On a shared machine requests/s move with what
 * else runs; this does not, and N cores serve at most N x 1000 / (CPU ms/req) requests a second.
 *
 * The last column holds issue 25's targets where a scenario has one (goods, a token's read, a market trade), and
 * issue 22's for the exchange book.
 *
 * BENCH_DURATION (s), BENCH_CONNECTIONS, BENCH_ONLY (scenarios whose name contains it);
 * BENCH_PROFILE=1 writes a CPU profile of the server process per scenario (<scenario>.cpuprofile)
 * to the current folder.
 */
import { mkdtemp, rm, chmod, readFile, readdir } from 'node:fs/promises';
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { and, desc, eq } from 'drizzle-orm';
import { actMany, companies, connectDatabase, createPlayerCompany, products, shareRecords, users, ledgerMismatches, worldProducts } from '@marketcraft/db';
import { startEmbeddedPostgres } from '@marketcraft/db/embedded.ts';
import { createSession } from '../src/auth/session.ts';
import { restRoutes } from '../src/rest.ts';
import { createApiToken } from '../src/access/personalTokens.ts';
import { API_STATEMENT_CONNECTIONS } from '../src/server.ts';

interface AutocannonClient {
  setHeaders: (headers: Record<string, string>) => void;
  setBody: (body: string) => void;
}
interface AutocannonResult {
  requests: { average: number; total: number };
  throughput: { total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  '2xx': number;
}
type Autocannon = (options: {
  url: string;
  method?: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  body?: string;
  setupClient?: (client: AutocannonClient) => void;
}) => Promise<AutocannonResult>;

// autocannon ships no types; the few fields used here are declared above.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PLAYERS = 50;

/**
 * CPU time (ms) used so far by a set of local processes, from /proc (Linux); null elsewhere. The
 * machine the benchmark runs on may be shared: requests/s then depend on what else runs, while
 * the CPU a request costs (server process + PostgreSQL) does not.
 */
async function cpuMsOf(pids: number[]): Promise<number | null> {
  let total = 0;
  for (const pid of pids) {
    try {
      const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
    } catch {
      return null;
    }
  }
  return total;
}
const CLOCK_TICKS_PER_SECOND = 100;

/** The PostgreSQL server's processes: its postmaster (first line of postmaster.pid) and its children. */
async function postgresPids(dataDir: string): Promise<number[]> {
  try {
    const postmaster = Number((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    const children: number[] = [];
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const fields = (await readFile(`/proc/${entry}/stat`, 'utf8')).split(') ')[1]!.split(' ');
        if (Number(fields[1]) === postmaster) children.push(Number(entry));
      } catch {
        // the process ended meanwhile
      }
    }
    return [postmaster, ...children];
  } catch {
    return [];
  }
}

/** CPU ms used by `pids` plus the PostgreSQL server's processes (listed afresh: backends come and go) while `run` runs. */
async function measureCpu<T>(pids: number[], dataDir: string, run: () => Promise<T>): Promise<{ result: T; cpuMs: number | null; postgresMs: number | null }> {
  const before = await postgresPids(dataDir);
  const startProcesses = await cpuMsOf(pids);
  const startPostgres = await cpuMsOfLiving(before);
  const result = await run();
  const after = await postgresPids(dataDir);
  const endProcesses = await cpuMsOf(pids);
  const endPostgres = await cpuMsOfLiving(after);
  if (startProcesses === null || endProcesses === null || after.length === 0) return { result, cpuMs: null, postgresMs: null };
  // Backends that ended during the run are not counted: the pools keep theirs open throughout.
  const postgresMs = [...endPostgres].reduce((sum, [pid, ms]) => sum + ms - (startPostgres.get(pid) ?? 0), 0);
  return { result, cpuMs: endProcesses - startProcesses + postgresMs, postgresMs };
}

async function cpuMsOfLiving(pids: number[]): Promise<Map<number, number>> {
  const usage = new Map<number, number>();
  for (const pid of pids) {
    const ms = await cpuMsOf([pid]);
    if (ms !== null) usage.set(pid, ms);
  }
  return usage;
}

interface ServerProcess {
  pid: number;
  port: number;
  /** Runs `run` while the server records a CPU profile (written to <name>.cpuprofile). */
  profile: <T>(name: string, run: () => Promise<T>) => Promise<T>;
  close: () => Promise<void>;
}

/** Forks api/bench/server.ts with `env` and waits for its port. */
async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const script = fileURLToPath(new URL('./server.ts', import.meta.url));
  const child = fork(script, [], { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`the API server process exited (${code}) before it listened`)));
  });
  const ask = (message: string, answer: string) =>
    new Promise<void>((resolve) => {
      const listener = (reply: unknown) => {
        if (reply === answer) {
          child.off('message', listener);
          resolve();
        }
      };
      child.on('message', listener);
      child.send(message);
    });
  return {
    pid: child.pid!,
    port,
    profile: async (name, run) => {
      await ask(`profile:${name}`, 'profiling');
      try {
        return await run();
      } finally {
        await ask('profile-end', 'profiled');
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send('stop');
      }),
  };
}

/**
 * The DB limit: `concurrency` loops, each running one indexed query after the other (a session by
 * its primary key, as the session check does) for `seconds`, over a pool of the API's size.
 */
async function measureDbLimit(pool: postgres.Sql, sessionIds: string[], concurrency: number, seconds: number) {
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        await pool`select user_id from sessions where id = ${sessionIds[next++ % sessionIds.length]!}`;
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (fraction: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * fraction))]! * 10) / 10;
  return { requests: latencies.length, perSecond: Math.round(latencies.length / seconds), p50: at(0.5), p99: at(0.99) };
}

async function main() {
  const tempDir = await mkdtemp(path.join(os.tmpdir(), 'marketcraft-bench-pg-'));
  await chmod(tempDir, 0o755);
  console.log('Starting embedded PostgreSQL...');
  const dataDir = path.join(tempDir, 'data');
  // Durable (fsync, synchronous commit) like the game's own server: a trade's commit waits for its WAL.
  const embedded = await startEmbeddedPostgres({ dataDir, persistent: false, durable: true });
  const admin = postgres(embedded.url, { max: 1, onnotice: () => {} });
  await admin.unsafe('create database marketcraft_bench');
  await admin.end({ timeout: 5 });
  const databaseUrl = embedded.urlFor('marketcraft_bench');
  // The rate limiter still counts every call (its upsert is part of what is measured), but with
  // budgets no benchmark reaches: it measures throughput, not 429s.
  const unlimited = String(1_000_000_000);
  const server = await startServerProcess({
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    NODE_ENV: 'test',
    // The production default: every request is logged (into /dev/null: api/bench/server.ts).
    LOG_LEVEL: 'info',
    RATE_LIMIT_SESSION_REQUESTS: unlimited,
    RATE_LIMIT_SESSION_MUTATIONS: unlimited,
    RATE_LIMIT_TOKEN_REQUESTS: unlimited,
    RATE_LIMIT_TOKEN_MUTATIONS: unlimited,
  });
  const connection = connectDatabase(databaseUrl, { max: 5 });
  const db = connection.db;
  const baseUrl = `http://127.0.0.1:${server.port}`;
  try {
    console.log(`API on ${baseUrl}; creating ${PLAYERS} players and a bot issuer...`);
    const tokens: string[] = [];
    const personalTokens: string[] = [];
    const playerCompanies: number[] = [];
    for (let index = 0; index < PLAYERS; index += 1) {
      const email = `bench${index}@example.com`;
      const userId = await db.transaction(async (tx) => {
        const [user] = await tx.insert(users).values({ email }).returning({ id: users.id });
        const company = await createPlayerCompany(tx, { worldId: 1, userId: user!.id, email, mode: 'flat' });
        const cents = 100_000_000_000; // $1,000,000,000 so trades never run out of cash
        await tx.update(companies).set({ cashCents: cents, startingCashCents: cents }).where(eq(companies.id, company.id));
        playerCompanies.push(company.id);
        return user!.id;
      });
      tokens.push((await createSession(db, userId)).token);
      personalTokens.push((await createApiToken(db, userId, { name: 'bench', scope: 'read' })).token);
    }
    const [bot] = await db
      .insert(companies)
      .values({ worldId: 1, name: 'Bench Bot Holdings', cashCents: 0, startingCashCents: 0, isBot: true, strategy: 'bench_target' })
      .returning({ id: companies.id });
    await db.insert(shareRecords).values({ worldId: 1, companyId: bot!.id, totalShares: 1_000_000_000, sharePriceCents: 100 });
    // Issuers for trades that do not all wait on one issuer's row lock (one per connection).
    const issuers = await db
      .insert(companies)
      .values(
        Array.from({ length: CONNECTIONS }, (_, index) => ({
          worldId: 1,
          name: `Bench Issuer ${index + 1}`,
          cashCents: 0,
          startingCashCents: 0,
          isBot: true,
          strategy: 'bench_target',
        })),
      )
      .returning({ id: companies.id });
    await db.insert(shareRecords).values(issuers.map((issuer) => ({ worldId: 1, companyId: issuer.id, totalShares: 1_000_000_000, sharePriceCents: 100 })));
    // The deepest market: thousands of 1-unit buys move its price least.
    const [marketProduct] = await db.select({ id: products.id }).from(products).orderBy(desc(products.depthUnits)).limit(1);
    // Its exchange book with bids in it (docs/exchange.md): 4 limit orders per player, under the posted price, through the players' action.
    const [posted] = await db
      .select({ cents: worldProducts.currentPriceCents })
      .from(worldProducts)
      .where(and(eq(worldProducts.worldId, 1), eq(worldProducts.productId, marketProduct!.id)));
    await actMany(
      db,
      'placeExchangeOrders',
      playerCompanies.flatMap((companyId, index) =>
        [0, 1, 2, 3].map((step) => ({
          companyId,
          actingUserId: null,
          input: {
            product_id: marketProduct!.id,
            side: 'buy' as const,
            quantity: 10 + index,
            limit_price: Math.max(1, posted!.cents - 5 * (index + step)) / 100,
          },
        })),
      ),
    );

    const routeKeys = new Set(restRoutes().map((route) => `${route.method} ${route.path}`));
    const catalogueRead = ['/goods', '/cities', '/countries'].find((candidate) => routeKeys.has(`GET ${candidate}`)) ?? '/countries';
    let next = 0;
    const withSession = (client: AutocannonClient, headers: Record<string, string> = {}) => {
      client.setHeaders({ authorization: `Bearer ${tokens[next++ % tokens.length]}`, 'content-type': 'application/json', ...headers });
    };
    const withPersonalToken = (client: AutocannonClient) => {
      client.setHeaders({ authorization: `Bearer ${personalTokens[next++ % personalTokens.length]}` });
    };
    /** Every connection sends `path` with its own credentials (and, for a POST, the body `bodyOf` gives it). */
    const loadOf = (path: string, setup?: (client: AutocannonClient) => void, post?: { bodyOf: () => object }) => () =>
      autocannon({
        url: `${baseUrl}/api${path}`,
        connections: CONNECTIONS,
        duration: DURATION_SECONDS,
        ...(post ? { method: 'POST' } : {}),
        setupClient: (client) => {
          setup?.(client);
          if (post) client.setBody(JSON.stringify(post.bodyOf()));
        },
      });
    let issuer = 0;
    const scenarios: { name: string; run: () => Promise<AutocannonResult> }[] = [
      { name: 'GET /api/health', run: loadOf('/health') },
      { name: 'GET /api/world', run: loadOf('/world') },
      { name: `GET /api${catalogueRead} (session)`, run: loadOf(catalogueRead, withSession) },
      // The same with the Accept-Encoding that browsers and Python's requests send by default: a kept
      // answer goes out gzipped (api/src/rest.ts).
      {
        name: `GET /api${catalogueRead} (session, Accept-Encoding: gzip)`,
        run: loadOf(catalogueRead, (client) => withSession(client, { 'accept-encoding': 'gzip, deflate' })),
      },
      // The lightest read of one's own company (one indexed query after the session check): what
      // the session check and the framework cost on their own.
      { name: 'GET /api/research/company (session)', run: loadOf('/research/company', withSession) },
      { name: 'GET /api/company (session)', run: loadOf('/company', withSession) },
      { name: 'GET /api/company (personal access token)', run: loadOf('/company', withPersonalToken) },
      // The published curves of one product (issue 22), as every player's exchange panel reads them.
      { name: 'GET /api/exchange/books/{product_id} (session)', run: loadOf(`/exchange/books/${marketProduct!.id}`, withSession) },
      {
        name: 'POST /api/stocks/trade (buy 1 share, one issuer for all)',
        run: loadOf('/stocks/trade', withSession, { bodyOf: () => ({ company_id: bot!.id, shares: 1, action: 'buy' }) }),
      },
      {
        name: 'POST /api/stocks/trade (buy 1 share, an issuer per connection)',
        run: loadOf('/stocks/trade', withSession, { bodyOf: () => ({ company_id: issuers[issuer++ % issuers.length]!.id, shares: 1, action: 'buy' }) }),
      },
      {
        name: 'POST /api/market/trade (buy 1 unit)',
        run: loadOf('/market/trade', withSession, { bodyOf: () => ({ product_id: marketProduct!.id, quantity: 1, action: 'buy' }) }),
      },
    ];
    const rows: Record<string, string | number>[] = [];
    console.log(`Measuring the DB limit (one indexed query per request, ${CONNECTIONS} in flight) for ${DURATION_SECONDS}s...`);
    const sessionIds = tokens.map((token) => token.split('.')[0]!);
    const limitPool = postgres(databaseUrl, { max: API_STATEMENT_CONNECTIONS, onnotice: () => {} });
    await Promise.all(Array.from({ length: API_STATEMENT_CONNECTIONS }, () => limitPool`select 1`)); // its connections open before the clock starts
    const {
      result: limit,
      cpuMs: limitCpuMs,
      postgresMs: limitPostgresMs,
    } = await measureCpu([process.pid], dataDir, () => measureDbLimit(limitPool, sessionIds, CONNECTIONS, DURATION_SECONDS));
    await limitPool.end({ timeout: 5 });
    const cpuPerRequest = (cpuMs: number | null, requests: number) => (cpuMs === null || requests === 0 ? 'n/a' : (cpuMs / requests).toFixed(2));
    rows.push({
      scenario: 'DB limit: 1 indexed query per request',
      'req/s': limit.perSecond,
      'p50 ms': limit.p50,
      'p99 ms': limit.p99,
      requests: limit.requests,
      non2xx: 0,
      errors: 0,
      'of DB limit': '100%',
      'CPU ms/req': cpuPerRequest(limitCpuMs, limit.requests),
      'of it PostgreSQL': cpuPerRequest(limitPostgresMs, limit.requests),
    });
    // BENCH_ONLY=text: only the scenarios whose name contains it (profiling one route).
    const only = process.env.BENCH_ONLY;
    for (const scenario of scenarios.filter((candidate) => !only || candidate.name.includes(only))) {
      console.log(`Running ${scenario.name} for ${DURATION_SECONDS}s with ${CONNECTIONS} connections...`);
      const run = process.env.BENCH_PROFILE === '1' ? () => server.profile(scenario.name.replace(/[^\w]+/g, '-'), scenario.run) : scenario.run;
      const loadStart = await cpuMsOf([process.pid]);
      const { result, cpuMs, postgresMs } = await measureCpu([server.pid], dataDir, run);
      const loadEnd = await cpuMsOf([process.pid]);
      rows.push({
        scenario: scenario.name,
        'req/s': Math.round(result.requests.average),
        'p50 ms': result.latency.p50,
        'p99 ms': result.latency.p99,
        requests: result.requests.total,
        non2xx: result.non2xx,
        errors: result.errors,
        'of DB limit': `${Math.round((100 * result.requests.average) / limit.perSecond)}%`,
        'CPU ms/req': cpuPerRequest(cpuMs, result.requests.total),
        'of it PostgreSQL': cpuPerRequest(postgresMs, result.requests.total),
        'load generator CPU ms/req': cpuPerRequest(loadStart === null || loadEnd === null ? null : loadEnd - loadStart, result.requests.total),
        // What each answer put on the wire, headers included (a kept answer gzipped: far less).
        'kB/answer': result.requests.total === 0 ? 'n/a' : (result.throughput.total / result.requests.total / 1024).toFixed(1),
      });
    }
    // Issue 25's targets, beside the DB limit: the goods list 3,000 a second, a token's read as fast
    // as a session's, a market trade of one product on every connection 1,500 a second.
    const rate = (name: string) => Number(rows.find((row) => row.scenario === name)?.['req/s'] ?? Number.NaN);
    const targets: Record<string, { label: string; met: (perSecond: number) => boolean }> = {
      [`GET /api${catalogueRead} (session)`]: { label: '>= 3,000 req/s', met: (perSecond) => perSecond >= 3_000 },
      [`GET /api${catalogueRead} (session, Accept-Encoding: gzip)`]: { label: '>= 3,000 req/s', met: (perSecond) => perSecond >= 3_000 },
      'GET /api/company (personal access token)': {
        label: '>= the session read',
        // Within 5%: two runs of the same route differ by more on a shared machine.
        met: (perSecond) => perSecond >= 0.95 * rate('GET /api/company (session)'),
      },
      'POST /api/market/trade (buy 1 unit)': { label: '>= 1,500 req/s', met: (perSecond) => perSecond >= 1_500 },
      'GET /api/exchange/books/{product_id} (session)': { label: '>= 2,000 req/s (issue 22)', met: (perSecond) => perSecond >= 2_000 },
    };
    for (const row of rows) {
      const target = targets[String(row.scenario)];
      row['target (issue 25)'] = target ? `${target.label}: ${target.met(Number(row['req/s'])) ? 'met' : 'not met'}` : '';
    }
    const load = os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(', ');
    console.log(
      `\nMarketcraft API benchmark (${CONNECTIONS} connections, ${DURATION_SECONDS}s each, Node ${process.version}, ${os.cpus().length} CPUs, load average ${load})`,
    );
    console.table(rows);
    const mismatches = await ledgerMismatches(db);
    console.log(mismatches.length === 0 ? 'Ledger check: every company cash = starting cash + ledger.' : `Ledger MISMATCH: ${JSON.stringify(mismatches)}`);
  } finally {
    // Let the requests autocannon left in flight finish before the database goes away.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await server.close();
    await connection.close();
    await embedded.stop();
    await rm(tempDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
