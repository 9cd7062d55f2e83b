/**
 * `npm run bench:api`: the API under concurrent load on a fresh embedded PostgreSQL.
 * Starts the server the production way (startApiServer: migrations + seed), creates players with
 * sessions and a bot to trade, then measures with autocannon (5 s, 50 connections each) a bare
 * `GET /api/health`, reads (`/api/world`, a catalogue read, `/api/company` with a session and with a
 * personal access token) and a
 * trade (`POST /api/stocks/trade` buying 1 share), printing requests/s and p50/p99 latency.
 */
import { mkdtemp, rm, chmod } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { eq } from 'drizzle-orm';
import { companies, connectDatabase, createPlayerCompany, shareRecords, users, ledgerMismatches } from '@marketcraft/db';
import { startEmbeddedPostgres } from '@marketcraft/db/embedded.ts';
import { loadApiConfig } from '../src/config.ts';
import { startApiServer } from '../src/server.ts';
import { createSession } from '../src/auth/session.ts';
import { restRoutes } from '../src/rest.ts';
import { createApiToken } from '../src/access/personalTokens.ts';

interface AutocannonClient {
  setHeaders: (headers: Record<string, string>) => void;
}
interface AutocannonResult {
  requests: { average: number; total: number };
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

async function main() {
  const tempDir = await mkdtemp(path.join(os.tmpdir(), 'marketcraft-bench-pg-'));
  await chmod(tempDir, 0o755);
  console.log('Starting embedded PostgreSQL...');
  const embedded = await startEmbeddedPostgres({ dataDir: path.join(tempDir, 'data'), persistent: false });
  const admin = postgres(embedded.url, { max: 1, onnotice: () => {} });
  await admin.unsafe('create database marketcraft_bench');
  await admin.end({ timeout: 5 });
  const databaseUrl = embedded.urlFor('marketcraft_bench');
  // The rate limiter still counts every call (its upsert is part of what is measured), but with
  // budgets no benchmark reaches: it measures throughput, not 429s.
  const unlimited = String(1_000_000_000);
  const server = await startApiServer(
    loadApiConfig({
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      RATE_LIMIT_SESSION_REQUESTS: unlimited,
      RATE_LIMIT_SESSION_MUTATIONS: unlimited,
      RATE_LIMIT_TOKEN_REQUESTS: unlimited,
      RATE_LIMIT_TOKEN_MUTATIONS: unlimited,
    }),
  );
  const connection = connectDatabase(databaseUrl, { max: 5 });
  const db = connection.db;
  const baseUrl = `http://127.0.0.1:${server.port}`;
  try {
    console.log(`API on ${baseUrl}; creating ${PLAYERS} players and a bot issuer...`);
    const tokens: string[] = [];
    const personalTokens: string[] = [];
    for (let index = 0; index < PLAYERS; index += 1) {
      const email = `bench${index}@example.com`;
      const userId = await db.transaction(async (tx) => {
        const [user] = await tx.insert(users).values({ email }).returning({ id: users.id });
        const company = await createPlayerCompany(tx, { userId: user!.id, email, mode: 'flat' });
        const cents = 100_000_000_000; // $1,000,000,000 so trades never run out of cash
        await tx.update(companies).set({ cashCents: cents, startingCashCents: cents }).where(eq(companies.id, company.id));
        return user!.id;
      });
      tokens.push((await createSession(db, userId)).token);
      personalTokens.push((await createApiToken(db, userId, { name: 'bench', scope: 'read' })).token);
    }
    const [bot] = await db
      .insert(companies)
      .values({ name: 'Bench Bot Holdings', cashCents: 0, startingCashCents: 0, isBot: true, strategy: 'bench_target' })
      .returning({ id: companies.id });
    await db.insert(shareRecords).values({ companyId: bot!.id, totalShares: 1_000_000_000, sharePriceCents: 100 });

    const routeKeys = new Set(restRoutes().map((route) => `${route.method} ${route.path}`));
    const catalogueRead = ['/goods', '/cities', '/countries'].find((candidate) => routeKeys.has(`GET ${candidate}`)) ?? '/countries';
    let next = 0;
    const withSession = (client: AutocannonClient) => {
      client.setHeaders({ authorization: `Bearer ${tokens[next++ % tokens.length]}`, 'content-type': 'application/json' });
    };
    const withPersonalToken = (client: AutocannonClient) => {
      client.setHeaders({ authorization: `Bearer ${personalTokens[next++ % personalTokens.length]}` });
    };
    const scenarios: { name: string; run: () => Promise<AutocannonResult> }[] = [
      { name: 'GET /api/health', run: () => autocannon({ url: `${baseUrl}/api/health`, connections: CONNECTIONS, duration: DURATION_SECONDS }) },
      { name: 'GET /api/world', run: () => autocannon({ url: `${baseUrl}/api/world`, connections: CONNECTIONS, duration: DURATION_SECONDS }) },
      {
        name: `GET /api${catalogueRead} (session)`,
        run: () => autocannon({ url: `${baseUrl}/api${catalogueRead}`, connections: CONNECTIONS, duration: DURATION_SECONDS, setupClient: withSession }),
      },
      {
        name: 'GET /api/company (session)',
        run: () => autocannon({ url: `${baseUrl}/api/company`, connections: CONNECTIONS, duration: DURATION_SECONDS, setupClient: withSession }),
      },
      {
        name: 'GET /api/company (personal access token)',
        run: () => autocannon({ url: `${baseUrl}/api/company`, connections: CONNECTIONS, duration: DURATION_SECONDS, setupClient: withPersonalToken }),
      },
      {
        name: 'POST /api/stocks/trade (buy 1 share)',
        run: () =>
          autocannon({
            url: `${baseUrl}/api/stocks/trade`,
            method: 'POST',
            connections: CONNECTIONS,
            duration: DURATION_SECONDS,
            body: JSON.stringify({ company_id: bot!.id, shares: 1, action: 'buy' }),
            setupClient: withSession,
          }),
      },
    ];
    const rows: Record<string, string | number>[] = [];
    for (const scenario of scenarios) {
      console.log(`Running ${scenario.name} for ${DURATION_SECONDS}s with ${CONNECTIONS} connections...`);
      const result = await scenario.run();
      rows.push({
        scenario: scenario.name,
        'req/s': Math.round(result.requests.average),
        'p50 ms': result.latency.p50,
        'p99 ms': result.latency.p99,
        requests: result.requests.total,
        non2xx: result.non2xx,
        errors: result.errors,
      });
    }
    console.log(`\nMarketcraft API benchmark (${CONNECTIONS} connections, ${DURATION_SECONDS}s each, Node ${process.version})`);
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
