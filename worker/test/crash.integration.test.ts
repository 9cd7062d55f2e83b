/**
 * kill -9 of the worker process mid-turn: the turn's transaction dies with the connection, nothing
 * of it is visible, and after a restart the job is retried (heartbeat expired) and the week advances
 * exactly once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ledgerMismatches } from '@marketcraft/db';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { TURN_QUEUE } from '@marketcraft/shared/queues.ts';
import { createCompany, createTurnWorld, economySnapshot, insertBuilding, worldWeek } from './fixtures.ts';
import { startSender, waitFor } from './helpers.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function startWorkerProcess(databaseUrl: string, env: Record<string, string>): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, [path.join(root, 'worker/test/sleepyWorker.ts')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      TURN_SCHEDULE_ENABLED: '0',
      TURN_HEARTBEAT_SECONDS: '10',
      TURN_RETRY_DELAY_SECONDS: '1',
      WORKER_SUPERVISE_INTERVAL_SECONDS: '1',
      WORKER_POLLING_INTERVAL_SECONDS: '0.5',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

describe('a worker killed mid-turn', () => {
  let database: TestDatabase;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    const world = await createTurnWorld(database.db);
    const company = await createCompany(database.db, { name: `Crash ${world.tag}`, cashCents: 10_000_000 });
    await insertBuilding(database.db, { companyId: company, type: 'farm', cityId: world.farmCityId, employees: 5, recipeId: world.farmRecipeId });
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await database.drop();
  });

  it('loses nothing, and the turn completes once after a restart', { timeout: 180_000 }, async () => {
    const week = await worldWeek(database.db);
    const before = await economySnapshot(database.db);

    const first = startWorkerProcess(database.url, { TURN_TEST_SLEEP_MS: '120000', TURN_TEST_SLEEP_AFTER_PHASE: 'costs' });
    children.push(first.child);
    await waitFor(async () => first.output().includes('ready: turn queue worked'), 60_000, 'the first worker to start');
    const sender = await startSender(database.url);
    const jobId = await sender.send(TURN_QUEUE, { week });
    expect(jobId).toBeTruthy();
    await waitFor(async () => first.output().includes('test sleep'), 30_000, 'the turn to reach its sleep');

    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    // Nothing of the half-done turn is visible.
    expect(await economySnapshot(database.db)).toEqual(before);
    expect(await database.db.execute(sql`select week from turns`)).toHaveLength(0);

    const second = startWorkerProcess(database.url, {});
    children.push(second.child);
    await waitFor(async () => (await worldWeek(database.db)) === week + 1, 120_000, 'the restarted worker to finish the turn');
    const job = await waitFor(
      async () => {
        const found = await sender.getJobById(TURN_QUEUE, jobId!);
        return found?.state === 'completed' ? found : null;
      },
      30_000,
      'the job to complete',
    );
    expect(job.retryCount).toBeGreaterThanOrEqual(1);
    await sender.stop({ graceful: false, close: true });
    expect(await database.db.execute(sql`select week from turns`)).toHaveLength(1);
    expect(await ledgerMismatches(database.db)).toEqual([]);

    await waitFor(async () => second.output().includes('ready: turn queue worked'), 30_000, 'the second worker to be ready');
    second.child.kill('SIGTERM');
    const code = await new Promise((resolve) => second.child.once('exit', resolve));
    expect({ code, output: second.output() }).toMatchObject({ code: 0 });
  });
});
