import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { getWorldState, users } from '@marketcraft/db';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { PUBLIC_WORLD_ID, TURN_CRON_SCHEDULE } from '@marketcraft/shared';
import { TURN_QUEUE } from '@marketcraft/shared/queues.ts';
import { startApiServer } from '../../api/src/server.ts';
import { loadApiConfig } from '../../api/src/config.ts';
import { createSession } from '../../api/src/auth/session.ts';
import { runTurn } from '../src/turn/index.ts';
import { loadWorkerConfig } from '../src/config.ts';
import { TURN_HEARTBEAT_REFRESH_SECONDS } from '../src/queue.ts';
import { createTurnWorld, worldWeek } from './fixtures.ts';
import { startInProcessWorker, startSender, waitFor } from './helpers.ts';

describe('the turn queue, the schedule and the admin routes', () => {
  let database: TestDatabase;
  let api: Awaited<ReturnType<typeof startApiServer>>;
  let token: string;
  const workers: Awaited<ReturnType<typeof startInProcessWorker>>[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    await createTurnWorld(database.db);
    api = await startApiServer(loadApiConfig({ DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'test', ADVANCE_TURN_TIMEOUT_MS: '30000' }));
    const [admin] = await database.db
      .insert(users)
      .values({ email: `admin-${Date.now()}@example.com`, isAdmin: true })
      .returning({ id: users.id });
    token = (await createSession(database.db, admin!.id)).token;
  });
  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    await api?.close();
    await database.drop();
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${api.port}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('answers 503 to advance-turn and an inactive cron status while no worker has run', async () => {
    const advance = await call('POST', '/admin/advance-turn');
    expect(advance.status).toBe(503);
    expect(advance.body).toEqual({ error: 'The turn worker is not running' });
    const cron = await call('GET', '/admin/cron-status');
    expect(cron.status).toBe(200);
    expect(cron.body).toEqual({ jobname: TURN_QUEUE, schedule: TURN_CRON_SCHEDULE, active: false });
  });

  it('creates the queue and the cron schedule at worker start; cron-status reads it', async () => {
    workers.push(await startInProcessWorker(database.url));
    const schedules = await workers[0]!.boss.getSchedules(TURN_QUEUE);
    expect(schedules).toHaveLength(1);
    expect(schedules[0]).toMatchObject({ name: TURN_QUEUE, cron: TURN_CRON_SCHEDULE, timezone: 'UTC' });
    const cron = await call('GET', '/admin/cron-status');
    expect(cron.body).toEqual({ jobname: TURN_QUEUE, schedule: TURN_CRON_SCHEDULE, active: true });
  });

  it("the default settings bound a dead worker's turn to running again within 15 s", async () => {
    const config = loadWorkerConfig({ DATABASE_URL: database.url });
    const queue = await workers[0]!.boss.getQueue(TURN_QUEUE);
    expect(queue).toMatchObject({
      policy: 'singleton',
      heartbeatSeconds: config.TURN_HEARTBEAT_SECONDS,
      retryDelay: config.TURN_RETRY_DELAY_SECONDS,
      retryBackoff: true,
    });
    expect((queue as unknown as { notify?: boolean }).notify).toBe(true);
    // Stale TURN_HEARTBEAT_SECONDS after the last refresh (at most TURN_HEARTBEAT_REFRESH_SECONDS
    // before the death, so at most the heartbeat after it), failed at the next supervision, retried
    // after at most twice the first retry delay (backoff jitter), fetched at the next poll.
    const budget =
      config.TURN_HEARTBEAT_SECONDS + config.WORKER_SUPERVISE_INTERVAL_SECONDS + 2 * config.TURN_RETRY_DELAY_SECONDS + config.WORKER_POLLING_INTERVAL_SECONDS;
    expect(TURN_HEARTBEAT_REFRESH_SECONDS).toBeLessThanOrEqual(1);
    expect(budget).toBeLessThanOrEqual(15);
  });

  it("sets next_turn_at to the schedule's next run at start and after each turn, and to null without a schedule", async () => {
    const nextTurnAt = async () => {
      const [row] = await database.db.execute<{ next_turn_at: Date | string | null }>(sql`select next_turn_at from worlds where id = 1`);
      return row?.next_turn_at ? new Date(row.next_turn_at) : null;
    };
    // The default schedule: the next 00:30 or 12:30 UTC, within 12 hours.
    const atStart = await nextTurnAt();
    expect(atStart).not.toBeNull();
    expect([0, 12]).toContain(atStart!.getUTCHours());
    expect(atStart!.getUTCMinutes()).toBe(30);
    expect(atStart!.getTime() - Date.now()).toBeLessThanOrEqual(12 * 3600_000);

    // A second worker with another TURN_CRON (daily at 05:17 UTC: it will not fire during the test)
    // moves the schedule (an upsert) and the countdown with it.
    const daily = '17 5 * * *';
    const dailyWorker = await startInProcessWorker(database.url, { TURN_CRON: daily });
    const isDailySlot = (date: Date | null) => date !== null && date.getUTCHours() === 5 && date.getUTCMinutes() === 17;
    try {
      expect(await dailyWorker.boss.getSchedules(TURN_QUEUE)).toMatchObject([{ cron: daily }]);
      const moved = await nextTurnAt();
      expect(isDailySlot(moved)).toBe(true);
      expect(moved!.getTime() - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
      const week = await worldWeek(database.db);
      const result = await runTurn(database.db, {
        week,
        nextTurnAt: (now) => dailyWorker.boss.previewSchedule(daily, { tz: 'UTC', from: now, count: 1 })[0] ?? null,
      });
      expect(result.status).toBe('advanced');
      expect(isDailySlot(await nextTurnAt())).toBe(true);
    } finally {
      await dailyWorker.stop();
    }
    // Manual turns only: no schedule, no next turn time (the admin panel shows 'N/A'; /worlds and
    // the header say 'Manual turns', not 'Every 12 hours').
    const manual = await startInProcessWorker(database.url, { TURN_SCHEDULE_ENABLED: '0' });
    try {
      expect(await manual.boss.getSchedules(TURN_QUEUE)).toHaveLength(0);
      expect(await nextTurnAt()).toBeNull();
      expect((await getWorldState(database.db, PUBLIC_WORLD_ID)).turns).toBe('Manual turns');
    } finally {
      await manual.stop();
    }
    // Back to the default schedule for the tests that follow.
    const restored = await startInProcessWorker(database.url);
    await restored.stop();
    expect((await nextTurnAt())!.getUTCMinutes()).toBe(30);
    expect((await getWorldState(database.db, PUBLIC_WORLD_ID)).turns).toBe('Every 12 hours');
  });

  it('three workers and twelve concurrent sends for the same week advance exactly one week', async () => {
    workers.push(await startInProcessWorker(database.url), await startInProcessWorker(database.url));
    const week = await worldWeek(database.db);
    const sender = await startSender(database.url);
    try {
      const ids = await Promise.all(Array.from({ length: 12 }, () => sender.send(TURN_QUEUE, { week })));
      expect(ids.every((id) => typeof id === 'string')).toBe(true);
      await waitFor(
        async () => {
          const jobs = await Promise.all(ids.map((id) => sender.getJobById(TURN_QUEUE, id!)));
          return jobs.every((job) => job?.state === 'completed');
        },
        60_000,
        'all twelve jobs to complete',
      );
    } finally {
      await sender.stop({ graceful: false, close: true });
    }
    expect(await worldWeek(database.db)).toBe(week + 1);
    const turns = await database.db.execute(sql`select week from turns where week >= ${week}`);
    expect(turns).toHaveLength(1);
  });

  it('concurrent runTurn calls for one week (and a replayed job id) advance it once', async () => {
    const week = await worldWeek(database.db);
    const results = await Promise.all(Array.from({ length: 5 }, () => runTurn(database.db, { week })));
    expect(results.filter((result) => result.status === 'advanced')).toHaveLength(1);
    expect(await worldWeek(database.db)).toBe(week + 1);
    // A scheduled job (no week) retried after its turn committed does nothing the second time.
    const first = await runTurn(database.db, { jobId: 'cron-firing-1' });
    const retry = await runTurn(database.db, { jobId: 'cron-firing-1' });
    expect(first.status).toBe('advanced');
    expect(retry.status).toBe('skipped');
    expect(await worldWeek(database.db)).toBe(week + 2);
  });

  it('POST /api/admin/advance-turn advances one week, returns it, and /api/realtime sends game-updates', async () => {
    const week = await worldWeek(database.db);
    const controller = new AbortController();
    const stream = await fetch(`http://127.0.0.1:${api.port}/api/realtime`, { signal: controller.signal });
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    const readUntil = async (text: string) => {
      while (!received.includes(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        received += decoder.decode(value);
      }
    };
    await readUntil('event: ready');
    const advance = await call('POST', '/admin/advance-turn');
    expect(advance.status).toBe(200);
    expect(advance.body).toEqual({ current_week: week + 1 });
    expect(await worldWeek(database.db)).toBe(week + 1);
    await readUntil('event: game-updates');
    expect(received).toContain(`"week":${week + 1}`);
    controller.abort();
  });

  it('ten concurrent advance-turn presses, round after round: one week each, all answered when the turn commits (not after the duplicates are polled away), no duplicate left queued', async () => {
    const sender = await startSender(database.url);
    const rounds: Array<{ week: number; turnMs: number; slowestMs: number; left: number }> = [];
    try {
      for (let round = 0; round < 3; round += 1) {
        const week = await worldWeek(database.db);
        const started = performance.now();
        const answers = await Promise.all(
          Array.from({ length: 10 }, async () => {
            const answer = await call('POST', '/admin/advance-turn');
            return { ...answer, ms: performance.now() - started };
          }),
        );
        expect(answers.map((answer) => [answer.status, answer.body])).toEqual(Array.from({ length: 10 }, () => [200, { current_week: week + 1 }]));
        expect(await worldWeek(database.db)).toBe(week + 1);
        const [turn] = await database.db.execute<{ duration_ms: number }>(sql`select duration_ms from turns where week = ${week}`);
        // The nine duplicates were completed with the turn, not left for later turns to wait behind.
        const left = await waitFor(
          async () => {
            const queued = await sender.findJobs(TURN_QUEUE, { queued: true });
            return queued.length === 0 ? [] : null;
          },
          5_000,
          'no queued turn job',
        );
        rounds.push({ week, turnMs: Number(turn!.duration_ms), slowestMs: Math.round(Math.max(...answers.map((answer) => answer.ms))), left: left.length });
      }
    } finally {
      await sender.stop({ graceful: false, close: true });
    }
    console.info(
      `[advance-turn] 10 concurrent presses per round: ${rounds.map((round) => `week ${round.week}: turn ${round.turnMs} ms, slowest answer ${round.slowestMs} ms`).join('; ')}`,
    );
    // Answered at the commit (LISTEN game_updates): the turn plus the requests' and the queue's own
    // overhead, 80-460 ms on an idle machine, 2.2-3.4 s seen at a load of 16 on 2 cores. Before,
    // the nine duplicates were skipped one poll at a time and a round took about 20 s: 10 s keeps
    // that apart from a busy machine's scheduling.
    for (const round of rounds) expect(round.slowestMs, `week ${round.week}`).toBeLessThanOrEqual(round.turnMs + 10_000);
    expect(await database.db.execute(sql`select week from turns`)).toHaveLength(
      new Set((await database.db.execute<{ week: number }>(sql`select week from turns`)).map((row) => row.week)).size,
    );
  });

  it('a fork whose replay fails answers why at once: its job is not retried (a retry only found the fork half replayed)', async () => {
    const created = await call('POST', '/worlds', { name: 'Fork that fails', bots: 1, turn_interval_minutes: null });
    expect(created.status).toBe(200);
    const world = created.body.id as number;
    expect(await call('POST', `/worlds/${world}/advance`)).toMatchObject({ status: 200, body: { current_week: 2 } });
    // The original's week 1 as the replay will not find it again.
    await database.db.execute(sql`update turns set state_hash = ${'v2:' + '0'.repeat(64)} where world_id = ${world} and week = 1`);
    const started = performance.now();
    const fork = await call('POST', `/worlds/${world}/fork`, { week: 2, name: 'Failing fork' });
    expect(fork.status).toBe(503);
    expect(fork.body.error).toMatch(/^The fork could not be replayed: the fork's week 1 differs from the original's/);
    // Retried, the queue's backoff kept it past the API's 30 s wait, and the retry said only "already replayed".
    expect(performance.now() - started).toBeLessThan(30_000);
  }, 120_000);
});
