/**
 * Starts Marketcraft the README way: `npm start` from the repository root, on a free port, with a
 * fresh data directory (so a fresh embedded PostgreSQL and a freshly seeded world), SKIP_BUILD=1
 * (`npm test` builds first). Waits for "Marketcraft is running at",
 * hands the URL to the tests, and on teardown stops the whole process group with SIGTERM and waits
 * for a clean exit.
 */
import { spawn } from 'node:child_process';
import { chmodSync, createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { resolveChromium } from './chromium.ts';

export const E2E_ADMIN_EMAIL = 'admin@e2e.test';
/** A second admin, for journeys that look at /admin without being the admin journey's player. */
export const E2E_HELPER_ADMIN_EMAIL = 'helper-admin@e2e.test';
const READY_LINE = 'Marketcraft is running at';
const START_TIMEOUT_MS = 240_000;
const STOP_TIMEOUT_MS = 60_000;

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The Chromium executable the journeys launch (web/e2e/chromium.ts). */
    chromiumPath: string;
    /** The started app's DATA_DIR (the admin CLI finds its database there); '' against E2E_BASE_URL. */
    dataDir: string;
  }
}

const repoRoot = path.resolve(import.meta.dirname, '..', '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until every process of the group (npm, the launcher, API, worker, PostgreSQL) is gone. */
async function waitForGroupExit(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!groupAlive(pgid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return !groupAlive(pgid);
}

export default async function setup(project: TestProject) {
  const chromium = await resolveChromium();
  console.info(`[e2e] Chromium: ${chromium.path} (${chromium.source})`);
  project.provide('chromiumPath', chromium.path);
  const existing = process.env.E2E_BASE_URL;
  if (existing) {
    // Against an app you already run (e.g. `E2E_BASE_URL=http://localhost:3000`).
    project.provide('baseURL', existing.replace(/\/$/, ''));
    project.provide('dataDir', '');
    return;
  }
  if (!existsSync(path.join(repoRoot, 'web', 'dist', 'index.html'))) {
    throw new Error('web/dist is missing: build first (npm run build -w @marketcraft/web), or run `npm test` which builds.');
  }

  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'marketcraft-e2e-'));
  // The embedded PostgreSQL runs as the postgres user when we are root: it must reach its data.
  chmodSync(dataDir, 0o755);
  const logPath = path.join(dataDir, 'app.log');
  const log = createWriteStream(logPath);

  // Every journey signs up from this machine, which no per-address cap limits (docs/auth.md): the plain `npm start` settings,
  // but for the early-bird bonus: the journeys sign up more than the spec's first 50 players in the one public world, and
  // those that read the header's cash or spend it expect the bonus's $500,000 whenever they happen to run.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    SKIP_BUILD: '1',
    EARLY_BIRD_PLAYERS: '1000',
  };
  delete env.DATABASE_URL; // always the embedded server, never someone's database
  const child = spawn('npm', ['start'], { cwd: repoRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });

  const baseURL = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`npm start did not print "${READY_LINE}" within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    child.stdout?.on('data', (chunk: Buffer) => {
      seen = (seen + chunk.toString()).slice(-4000);
      const match = seen.match(/Marketcraft is running at (http:\/\/[^\s"]+)/);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1].replace('localhost', '127.0.0.1'));
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited early (${signal ?? code})`));
    });
  }).catch((error: unknown) => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    const tail = existsSync(logPath) ? readFileSync(logPath, 'utf8').slice(-4000) : '';
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- app log (${logPath}) ---\n${tail}`);
  });

  project.provide('baseURL', baseURL);
  project.provide('dataDir', dataDir);

  return async () => {
    const pgid = child.pid!;
    try {
      process.kill(-pgid, 'SIGTERM');
    } catch {
      // already gone
    }
    const exited = await waitForGroupExit(pgid, STOP_TIMEOUT_MS);
    if (!exited) {
      console.warn(`[e2e] npm start did not stop within ${STOP_TIMEOUT_MS / 1000} s after SIGTERM; killing it (log: ${logPath})`);
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // already gone
      }
      await waitForGroupExit(pgid, 10_000);
    }
    log.end();
    if (exited && !process.env.E2E_KEEP_DATA) {
      try {
        rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
      } catch (error) {
        console.warn(`[e2e] could not remove ${dataDir}:`, error instanceof Error ? error.message : error);
      }
    }
  };
}
