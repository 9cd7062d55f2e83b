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

function runStart(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['scripts/start.ts'],
      { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', SKIP_BUILD: '1', ...env }, timeout: 90_000 },
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

  it('stops everything with exit code 1 when the API dies before it ever listened', async () => {
    // An invalid PUBLIC_URL: the API's configuration check fails at start, every time.
    const port = await freePort();
    const result = await runStart({ PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: database.url, PUBLIC_URL: 'not a url' });
    expect(result.code).toBe(1);
    expect(result.output).toContain('Invalid API configuration');
    expect(result.output).toContain('api could not start');
    expect(result.output).not.toContain('restarting');
    expect(result.output).not.toContain('Marketcraft is running');
  });
});

describe('npm start with LOG_LEVEL=warn', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ max: 2 });
  });
  afterAll(async () => {
    await database.drop();
  });

  it('starts the worker, so turns run, though no child logs its "ready" line at that level', async () => {
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
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      // The API's health says 'no worker' until a worker takes the turn queue.
      let queue = 'not answering';
      for (let attempt = 0; attempt < 120 && queue !== 'up'; attempt++) {
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
  }, 90_000);
});
