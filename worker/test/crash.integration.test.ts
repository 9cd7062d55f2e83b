/**
 * kill -9 of the worker process mid-turn: the turn's transaction dies with the connection, nothing
 * of it is visible, and after a restart the job is retried (heartbeat expired) and the week advances
 * exactly once, within 15 s of the kill with the default settings.
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
      // The default heartbeat, retry and supervision settings: recovery within 15 s is theirs.
      ...env,
    },
    stdio: [env.TURN_TEST_START_ON_STDIN === '1' ? 'pipe' : 'ignore', 'pipe', 'pipe'],
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
    // The replacement loads its modules now and starts (as `npm start` would after the kill) on a line on stdin.
    const second = startWorkerProcess(database.url, { TURN_TEST_START_ON_STDIN: '1' });
    children.push(second.child);
    await waitFor(async () => first.output().includes('ready: turn queue worked'), 120_000, 'the first worker to start');
    const sender = await startSender(database.url);
    const jobId = await sender.send(TURN_QUEUE, { week });
    expect(jobId).toBeTruthy();
    await waitFor(async () => first.output().includes('test sleep'), 90_000, 'the turn to reach its sleep');

    first.child.kill('SIGKILL');
    const killedAt = performance.now();
    await new Promise((resolve) => first.child.once('exit', resolve));
    // Nothing of the half-done turn is visible.
    expect(await economySnapshot(database.db)).toEqual(before);
    expect(await database.db.execute(sql`select week from turns`)).toHaveLength(0);

    // As `npm start` does: a new worker right away (not before the kill: its start-up waits for
    // the locks the sleeping turn holds; its modules are already loaded, which took 30 s and more
    // on a busy machine and is no part of the recovery). With the default settings the dead
    // worker's job is failed (no heartbeat for 10 s) and running again on the new worker about
    // 12.5 s after the kill (77 s before). The settings' budget is checked to be <= 15 s in
    // queue.integration.test.ts; the bound here is loose (60 s, still below the old 77 s) because
    // polls and timers stretch on a loaded machine (seen: 18 s without a fetch at load 14 on 2
    // cores), and the time is printed.
    await waitFor(async () => second.output().includes('test worker loaded'), 120_000, 'the second worker to load its modules');
    second.child.stdin!.end('start\n');
    await waitFor(
      async () => {
        const job = await sender.getJobById(TURN_QUEUE, jobId!);
        return job && job.retryCount >= 1 && (job.state === 'active' || job.state === 'completed');
      },
      60_000 - (performance.now() - killedAt),
      'the turn job to run again within 60 s of the kill',
    ).catch(async (error: unknown) => {
      const job = await sender.getJobById(TURN_QUEUE, jobId!);
      throw new Error(
        `${String(error)}; job ${JSON.stringify({ state: job?.state, retryCount: job?.retryCount, startAfter: job?.startAfter })}; new worker:\n${second.output()}`,
      );
    });
    const runningAgainMs = Math.round(performance.now() - killedAt);
    await waitFor(async () => (await worldWeek(database.db)) === week + 1, 60_000, 'the restarted worker to finish the turn');
    console.info(
      `[crash] the killed worker's turn ran again ${runningAgainMs} ms after the kill and completed after ${Math.round(performance.now() - killedAt)} ms`,
    );
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

    second.child.kill('SIGTERM');
    const code = await new Promise((resolve) => second.child.once('exit', resolve));
    expect({ code, output: second.output() }).toMatchObject({ code: 0 });
  });

  it('SIGTERM mid-turn: the running turn commits (or rolls back), the worker exits 0, and the turn happens exactly once', { timeout: 180_000 }, async () => {
    const week = await worldWeek(database.db);
    const turnsBefore = (await database.db.execute(sql`select week from turns`)).length;
    const worker = startWorkerProcess(database.url, { TURN_TEST_SLEEP_MS: '3000', TURN_TEST_SLEEP_AFTER_PHASE: 'costs' });
    children.push(worker.child);
    // The next worker, should the turn roll back: its modules load now, it starts on a line on stdin.
    const next = startWorkerProcess(database.url, { TURN_TEST_START_ON_STDIN: '1' });
    children.push(next.child);
    await waitFor(async () => worker.output().includes('ready: turn queue worked'), 120_000, 'the worker to start');
    const sender = await startSender(database.url);
    try {
      await sender.send(TURN_QUEUE, { week });
      await waitFor(async () => worker.output().includes('test sleep'), 90_000, 'the turn to reach its sleep');
      worker.child.kill('SIGTERM');
      const code = await new Promise((resolve) => worker.child.once('exit', resolve));
      expect({ code, output: worker.output() }).toMatchObject({ code: 0 });
      const advancedBeforeExit = (await worldWeek(database.db)) === week + 1;
      if (!advancedBeforeExit) {
        // Rolled back: nothing of it is visible, and the next worker runs it.
        await waitFor(async () => next.output().includes('test worker loaded'), 120_000, 'the next worker to load its modules');
        next.child.stdin!.end('start\n');
        await waitFor(async () => (await worldWeek(database.db)) === week + 1, 60_000, 'the next worker to run the rolled-back turn');
        next.child.kill('SIGTERM');
        await new Promise((resolve) => next.child.once('exit', resolve));
      }
      if (advancedBeforeExit) next.child.kill('SIGKILL'); // never started: nothing to stop gracefully
      console.info(`[sigterm] the running turn ${advancedBeforeExit ? 'committed before the worker exited' : 'rolled back and ran on the next worker'}`);
    } finally {
      await sender.stop({ graceful: false, close: true });
    }
    expect(await worldWeek(database.db)).toBe(week + 1);
    expect(await database.db.execute(sql`select week from turns`)).toHaveLength(turnsBefore + 1);
    expect(await ledgerMismatches(database.db)).toEqual([]);
  });
});
