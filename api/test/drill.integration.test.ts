/**
 * `npm run drill` keeps working: run against a real API server and turn worker (the README's way:
 * over HTTP on loopback), every check holds, and it prints its table. The drill itself is the
 * operator's tool (scripts/drill.ts); this test keeps it from rotting as routes change.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { loadApiConfig } from '../src/config.ts';
import { startApiServer } from '../src/server.ts';
import { setAdmin } from '../src/auth/admins.ts';
import { startInProcessWorker } from '../../worker/test/helpers.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const ADMIN = { email: 'drill-admin@drill.invalid', password: 'drill admin password' };

describe('npm run drill', () => {
  let database: TestDatabase;
  let api: Awaited<ReturnType<typeof startApiServer>>;
  let worker: Awaited<ReturnType<typeof startInProcessWorker>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = await startApiServer(
      loadApiConfig({ DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'test', SIGNUPS_PER_ADDRESS_PER_HOUR: '0' }),
    );
    worker = await startInProcessWorker(database.url, { TURN_SCHEDULE_ENABLED: '0' });
    const signup = await fetch(`http://127.0.0.1:${api.port}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${api.port}` },
      body: JSON.stringify(ADMIN),
    });
    expect(signup.status).toBe(200);
    // What the operator's `npm run admin -- grant` does (docs/auth.md, "Admins").
    expect(await setAdmin(database.db, ADMIN.email, true)).toMatchObject({ isAdmin: true });
  });
  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    await database?.drop();
  });

  it('holds every check against a running server and prints the table', { timeout: 180_000 }, async () => {
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(
        process.execPath,
        [
          'scripts/drill.ts',
          '--url',
          `http://127.0.0.1:${api.port}`,
          '--admin-email',
          ADMIN.email,
          '--admin-password',
          ADMIN.password,
          '--throttle',
          '--seconds',
          '150',
        ],
        { cwd: repoRoot, timeout: 170_000 },
        (error, out) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout: out }),
      ),
    );
    expect({ code, stdout }).toMatchObject({ code: 0, stdout: expect.stringContaining(', 0 did not, 0 skipped,') });
    for (const area of ['health', 'access', 'limits', 'money', 'turns', 'fuzz']) expect(stdout).toMatch(new RegExp(`^${area}\\s+\\|.*\\| yes`, 'm'));
    expect(stdout).toMatch(/, 0 did not, 0 skipped,/);
  });

  it('refuses a host that is not this machine', async () => {
    const code = await new Promise<number>((resolve) =>
      execFile(process.execPath, ['scripts/drill.ts', '--url', 'http://example.com'], { cwd: repoRoot }, (error) =>
        resolve(error ? Number((error as { code?: number }).code) : 0),
      ),
    );
    expect(code).toBe(2);
  });
});
