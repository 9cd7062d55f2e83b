import { mkdtemp, rm, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { startEmbeddedPostgres } from '@marketcraft/db/embedded.ts';
import { connectDatabase } from '@marketcraft/db/client.ts';
const tempDir = await mkdtemp(path.join(os.tmpdir(), 'mc-pipe-'));
await chmod(tempDir, 0o755);
const server = await startEmbeddedPostgres({ dataDir: path.join(tempDir, 'data'), persistent: false });
const { db, close } = connectDatabase(server.url, { max: 1 });
for (let round = 0; round < 3; round++) {
  let t = performance.now();
  await db.transaction(async (tx) => { for (let i = 0; i < 100; i++) await tx.execute(sql`select ${i}::int as x, pg_backend_pid()`); });
  const seq = performance.now() - t;
  t = performance.now();
  await db.transaction(async (tx) => { await Promise.all(Array.from({ length: 100 }, (_, i) => tx.execute(sql`select ${i}::int as x, pg_backend_pid()`))); });
  console.log('sequential', seq.toFixed(1), 'pipelined', (performance.now() - t).toFixed(1));
}
await close(); await server.stop(); await rm(tempDir, { recursive: true, force: true });
process.exit(0);
