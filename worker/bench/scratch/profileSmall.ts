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

const worlds = Number(process.env.WORLDS ?? 6);
const tempDir = await mkdtemp(path.join(os.tmpdir(), 'mc-prof-'));
await chmod(tempDir, 0o755);
let capture = false;
const lines: string[] = [];
const server = await startEmbeddedPostgres({ dataDir: path.join(tempDir, 'data'), persistent: false, durable: true, log: (m) => { if (capture) lines.push(m); } });
try {
  const admin = postgres(server.url, { max: 1, onnotice: () => {} });
  await admin.unsafe('create database bench');
  await admin.end();
  const url = server.urlFor('bench');
  await prepareDatabase(url);
  const { db, close } = connectDatabase(url, { max: 2 });
  const [teacher] = await db.insert(users).values({ email: 't@example.com' }).returning({ id: users.id });
  const ids: number[] = [];
  const createMs: number[] = [];
  for (let i = 0; i < worlds; i++) {
    const t = performance.now();
    const w = await createWorld(db, { id: teacher!.id, isAdmin: true }, { name: `W${i}`, turnIntervalMinutes: 1, startingCashDollars: 500000, bots: 0, seed: i + 1, maxPlayers: 30 });
    createMs.push(performance.now() - t);
    await seedCompanies(db, 30, w.id);
    ids.push(w.id);
  }
  console.log('createWorld ms', createMs.map(Math.round).join(' '));
  await db.execute(sql`analyze`);
  const turnConn = connectDatabase(url, { max: 1, settings: TURN_SESSION_SETTINGS });
  const half = Math.floor(worlds / 2);
  for (let i = 0; i < half; i++) {
    const t = performance.now();
    const r = await runTurn(turnConn.db, { worldId: ids[i] });
    console.log('turn', ids[i], Math.round(performance.now() - t), r.status === 'advanced' ? JSON.stringify(r.phaseTimings) : r);
  }
  if (process.env.EXPLAIN) {
    await turnConn.db.execute(sql`load 'auto_explain'`);
    await turnConn.db.execute(sql.raw(`set auto_explain.log_min_duration = ${process.env.EXPLAIN}`));
    await turnConn.db.execute(sql`set auto_explain.log_analyze = on`);
    await turnConn.db.execute(sql`set auto_explain.log_nested_statements = on`);
  } else await turnConn.db.execute(sql`set log_min_duration_statement = 0`);
  capture = true;
  for (let i = half; i < worlds; i++) {
    const t = performance.now();
    const r = await runTurn(turnConn.db, { worldId: ids[i] });
    console.log('turn', ids[i], Math.round(performance.now() - t), r.status === 'advanced' ? JSON.stringify(r.phaseTimings) : r);
  }
  capture = false;
  if (process.env.EXPLAIN) { console.log(lines.join('\n')); process.exit(0); }
  const agg = new Map<string, { ms: number; n: number }>();
  let total = 0;
  for (const l of lines.join('\n').split(/\n(?=\S*\s*\d{4}-\d\d-\d\d|.*LOG:)/)) {
    const m = /duration: ([\d.]+) ms\s+((?:statement|execute|parse|bind)[^:]*: [\s\S]*)/.exec(l);
    if (!m) continue;
    const key = m[2]!.replace(/\s+/g, ' ').slice(0, 160);
    const e = agg.get(key) ?? { ms: 0, n: 0 };
    e.ms += Number(m[1]); e.n++; agg.set(key, e); total += Number(m[1]);
  }
  const byKind = new Map<string, number>();
  for (const [k, v] of agg) { const kind = k.split(' ')[0]!; byKind.set(kind, (byKind.get(kind) ?? 0) + v.ms); }
  console.log('by kind', JSON.stringify(Object.fromEntries([...byKind].map(([k, v]) => [k, Math.round(v)]))));
  console.log('statement total ms', Math.round(total), 'statements', [...agg.values()].reduce((a, b) => a + b.n, 0));
  for (const [k, v] of [...agg.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, Number(process.env.TOP ?? 40))) console.log(v.ms.toFixed(1).padStart(8), String(v.n).padStart(4), k);
  await turnConn.close();
  await close();
} finally {
  await server.stop();
  await rm(tempDir, { recursive: true, force: true });
}
process.exit(0);
