/**
 * 'Advance Turn' pressed the moment the worker is killed (issue 26, item 7): the supervisor brings
 * the worker back in about 2 s, and an advance pressed in that window is queued and answered when
 * the turn commits, not refused with 503. A worker gone longer than its heartbeat interval is
 * absent: 503 'The turn worker is not running', nothing queued.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { users } from '@marketcraft/db';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { APPLICATION_NAMES, TURN_QUEUE } from '@marketcraft/shared/queues.ts';
import { startApiServer } from '../../api/src/server.ts';
import { loadApiConfig } from '../../api/src/config.ts';
import { createSession } from '../../api/src/auth/session.ts';
import { createTurnWorld, worldWeek } from './fixtures.ts';
import { startSender, waitFor } from './helpers.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The real worker process (worker/src/process.ts through the test entry, no sleep). */
function startWorkerProcess(databaseUrl: string): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, [path.join(root, 'worker/test/sleepyWorker.ts')], {
    cwd: root,
    env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, TURN_SCHEDULE_ENABLED: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

describe('Advance Turn while the worker restarts', () => {
  let database: TestDatabase;
  let api: Awaited<ReturnType<typeof startApiServer>>;
  let token: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    await createTurnWorld(database.db);
    api = await startApiServer(loadApiConfig({ DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'test', ADVANCE_TURN_TIMEOUT_MS: '90000' }));
    const [admin] = await database.db
      .insert(users)
      .values({ email: `admin-${Date.now()}@example.com`, isAdmin: true })
      .returning({ id: users.id });
    token = (await createSession(database.db, admin!.id)).token;
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await api?.close();
    await database.drop();
  });

  const advance = async () => {
    const response = await fetch(`http://127.0.0.1:${api.port}/api/admin/advance-turn`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, body: (await response.json()) as unknown };
  };
  const workerConnections = async () =>
    (await database.db.execute(sql`select 1 from pg_stat_activity where datname = current_database() and application_name = ${APPLICATION_NAMES.worker}`))
      .length;
  const killAndWaitGone = async (child: ChildProcess) => {
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    // No worker connection left: before this fix, exactly the moment the API answered 503.
    await waitFor(async () => (await workerConnections()) === 0, 10_000, "the killed worker's connections to close");
  };

  it('queues a press made right after the kill and answers it with the new week once the restarted worker commits', { timeout: 240_000 }, async () => {
    const first = startWorkerProcess(database.url);
    children.push(first.child);
    await waitFor(async () => first.output().includes('ready: turn queue worked'), 120_000, 'the first worker to start');
    const week = await worldWeek(database.db);

    await killAndWaitGone(first.child);
    const pressed = advance();
    // As `npm start`'s supervisor does: a new worker about 2 s later.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const second = startWorkerProcess(database.url);
    children.push(second.child);

    const answer = await pressed;
    expect(answer).toEqual({ status: 200, body: { current_week: week + 1 } });
    expect(await worldWeek(database.db)).toBe(week + 1);
    expect(await database.db.execute(sql`select week from turns where week = ${week}`)).toHaveLength(1);

    // Gone longer than its heartbeat interval (10 s by default; set back rather than waited for):
    // absent, the operator's 503, and no job left queued for a worker that is not coming.
    await waitFor(async () => second.output().includes('ready: turn queue worked'), 120_000, 'the second worker to start');
    await killAndWaitGone(second.child);
    await database.db.execute(sql`select setval('turn_worker_alive_until_ms', (extract(epoch from now()) * 1000)::bigint - 1000)`);
    expect(await advance()).toEqual({ status: 503, body: { error: 'The turn worker is not running' } });
    const sender = await startSender(database.url);
    try {
      expect(await sender.findJobs(TURN_QUEUE, { queued: true })).toEqual([]);
    } finally {
      await sender.stop({ graceful: false, close: true });
    }
    expect(await worldWeek(database.db)).toBe(week + 1);
  });
});
