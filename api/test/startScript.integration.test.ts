/**
 * `npm start` (scripts/start.ts) when the API cannot start: it says why and exits non-zero instead
 * of restarting the API every 2 seconds for ever. And with a quiet LOG_LEVEL it still starts the worker.
 */
import { execFile, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@marketcraft/db/embedded.ts';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * How long a start may take before the test gives up. Starting the API and the worker is a few
 * seconds on an idle machine, but each is a Node process loading the whole server: on a busy
 * 2-core machine (every test file beside it) it was seen taking over a minute. What these tests
 * check is what `npm start` ends with, not how fast it gets there (that is bench territory).
 */
const START_LIMIT_MS = 240_000;

function runStart(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['scripts/start.ts'],
      { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', SKIP_BUILD: '1', ...env }, timeout: START_LIMIT_MS },
      (error, stdout, stderr) => {
        resolve({ code: child.exitCode ?? (error ? 1 : 0), output: stdout + stderr });
      },
    );
  });
}

describe('npm start when the API cannot start', () => {
  let blocker: net.Server;
  let takenPort: number;
  let database: TestDatabase;
  beforeAll(async () => {
    blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    takenPort = (blocker.address() as net.AddressInfo).port;
    database = await createTestDatabase({ max: 2 });
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => blocker.close(() => resolve()));
    await database.drop();
  });

  it('refuses a port in use at once, before building or starting PostgreSQL', async () => {
    const result = await runStart({ PORT: String(takenPort), HOST: '127.0.0.1' });
    expect(result.code).toBe(1);
    expect(result.output).toContain(`port ${takenPort} is already in use`);
    expect(result.output).not.toContain('starting the embedded PostgreSQL');
  });

  it('says which setting is wrong instead of a stack trace', async () => {
    const result = await runStart({ PORT: 'eighty' });
    expect(result.code).toBe(1);
    expect(result.output).toContain('invalid configuration: PORT:');
  });

  it(
    'stops everything with exit code 1 when the API dies before it ever listened',
    async () => {
      // An invalid PUBLIC_URL: the API's configuration check fails at start, every time.
      const port = await freePort();
      const result = await runStart({ PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: database.url, PUBLIC_URL: 'not a url' });
      expect(result.code).toBe(1);
      expect(result.output).toContain('Invalid API configuration');
      expect(result.output).toContain('api could not start');
      expect(result.output).not.toContain('restarting');
      expect(result.output).not.toContain('Marketcraft is running');
    },
    START_LIMIT_MS + 10_000,
  );
});

describe('npm start with LOG_LEVEL=warn', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ max: 2 });
  });
  afterAll(async () => {
    await database.drop();
  });

  it(
    'starts the worker, so turns run, though no child logs its "ready" line at that level',
    async () => {
      const port = await freePort();
      const child = spawn(process.execPath, ['scripts/start.ts'], {
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH ?? '',
          SKIP_BUILD: '1',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: database.url,
          LOG_LEVEL: 'warn',
          TURN_SCHEDULE_ENABLED: '0',
        },
        stdio: 'ignore',
      });
      let running = true;
      const exited = new Promise<void>((resolve) =>
        child.once('exit', () => {
          running = false;
          resolve();
        }),
      );
      try {
        // The API's health says 'no worker' until a worker takes the turn queue. Asked until it is
        // up, or `npm start` has ended, or the start limit has passed.
        let queue = 'not answering';
        const giveUpAt = Date.now() + START_LIMIT_MS;
        while (queue !== 'up' && running && Date.now() < giveUpAt) {
          await new Promise((resolve) => setTimeout(resolve, 500));
          queue = await fetch(`http://127.0.0.1:${port}/api/health`)
            .then((response) => response.json() as Promise<{ queue: string }>)
            .then((health) => health.queue)
            .catch(() => 'not answering');
        }
        expect(queue).toBe('up');
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
    },
    START_LIMIT_MS + 30_000,
  );
});
