/**
 * A second `npm start` on the same data folder, or a lock file left by a crash: the operator is told
 * what is wrong (a live server) or the start goes on (a stale lock file), never an empty 'undefined'.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedServer } from '../src/embedded.ts';

const dataRoot = await mkdtemp(path.join(os.tmpdir(), 'marketcraft-folder-'));
const dataDir = path.join(dataRoot, 'postgres');
let server: EmbeddedServer | undefined;
afterAll(async () => {
  await server?.stop();
  await rm(dataRoot, { recursive: true, force: true });
});

it('refuses a second server on a data folder in use, naming the other server and what to do', async () => {
  server = await startEmbeddedPostgres({ dataDir });
  const running = Number.parseInt((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]!, 10);
  const second = startEmbeddedPostgres({ dataDir });
  await expect(second).rejects.toThrow(`Another PostgreSQL server (process ${running}) is using the data folder ${dataDir}`);
  await expect(second).rejects.toThrow('Stop it first, or start this one with its own DATA_DIR and PORT');
  await server.stop();
  server = undefined;
}, 60_000);

it('starts over a lock file left by a crash whose process id now belongs to another program', async () => {
  // A crash leaves postmaster.pid; after a restart its id is some other program's (here: sleep).
  const other = spawn('sleep', ['60']);
  try {
    const lock = await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8').catch(() => '');
    expect(lock).toBe(''); // stopped cleanly above: no lock file
    await writeFile(path.join(dataDir, 'postmaster.pid'), `${other.pid}\n${dataDir}\n1700000000\n5432\n`);
    const messages: string[] = [];
    server = await startEmbeddedPostgres({ dataDir, log: (message) => messages.push(message) });
    expect(messages).toContain(
      `removed a stale ${path.join(dataDir, 'postmaster.pid')}: its server (process ${other.pid}) no longer runs, it had not stopped cleanly`,
    );
    const ownPid = Number.parseInt((await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]!, 10);
    expect(ownPid).not.toBe(other.pid);
  } finally {
    other.kill();
  }
}, 60_000);
