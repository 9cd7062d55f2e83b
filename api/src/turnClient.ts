/**
 * The API's side of the turn queue: a send-only pg-boss client. It never creates the queue or the
 * schedule (the worker process owns both); until the worker has started once, or while no worker
 * process is connected and none was seen within its heartbeat interval, POST /api/admin/advance-turn
 * answers 503 'The turn worker is not running' A worker seen that recently is restarting (killed
 * and brought back by its supervisor): the turn is queued and answered when it commits.
 *
 * advanceTurn() sends the job with the current week (the worker advances exactly from that week, so
 * double clicks and concurrent admins never advance twice), then waits until the world's week is
 * past it (LISTEN game_updates, with a polling backstop) or ADVANCE_TURN_TIMEOUT_MS passes.
 */
import { PgBoss } from 'pg-boss';
import { sql } from 'drizzle-orm';
import { GameError, TURN_CRON_SCHEDULE } from '@marketcraft/shared';
import { APPLICATION_NAMES, GAME_UPDATES_CHANNEL, TURN_QUEUE, worldTurnKey, type TurnJobData } from '@marketcraft/shared/queues.ts';
import { WORLD_ENDED, type Database } from '@marketcraft/db';
import type { Logger } from '@marketcraft/db/logger.ts';
import type postgres from 'postgres';

const WORKER_NOT_RUNNING = 'The turn worker is not running';

/** A fork's replay that outlasted the wait: it goes on in the worker (the fork is not abandoned). */
const stillReplaying = new WeakSet<GameError>();

export function isForkStillReplaying(error: unknown): boolean {
  return error instanceof GameError && stillReplaying.has(error);
}
const POLL_MS = 500;

export interface TurnClient {
  /** Advances one world's turn now (its singleton key: never two turns of a world at once). */
  advanceTurn: (worldId: number) => Promise<{ week: number }>;
  /** Replays a fork's original into it (the fork's turn job, docs/replay.md) and waits for it; its week when done. */
  forkWorld: (forkId: number) => Promise<{ week: number }>;
  /** Whether a worker process is connected to the database (it takes the turn jobs). */
  workerConnected: () => Promise<boolean>;
  cronStatus: () => Promise<{ jobname: string; schedule: string; active: boolean }>;
  close: () => Promise<void>;
}

export function createTurnClient(options: { databaseUrl: string; db: Database; sql: postgres.Sql; timeoutMs: number; logger: Logger }): TurnClient {
  const { db, timeoutMs } = options;
  let boss: PgBoss | null = null;
  let starting: Promise<PgBoss | null> | null = null;

  /** Starts the client lazily; null while pg-boss's schema does not exist (the worker never ran). */
  async function client(): Promise<PgBoss | null> {
    if (boss) return boss;
    starting ??= (async () => {
      const instance = new PgBoss({
        connectionString: options.databaseUrl,
        application_name: APPLICATION_NAMES.apiTurns,
        max: 2,
        migrate: false,
        createSchema: false,
        supervise: false,
        schedule: false,
      });
      instance.on('error', (error) => options.logger.error({ err: error }, `pg-boss: ${error.message}`));
      try {
        await instance.start();
        boss = instance;
        return instance;
      } catch {
        await instance.stop({ graceful: false, close: true }).catch(() => {});
        return null;
      } finally {
        starting = null;
      }
    })();
    return starting;
  }

  async function currentWeek(worldId: number): Promise<number> {
    const [row] = await db.execute<{ current_week: number }>(sql`select current_week from worlds where id = ${worldId}`);
    return Number(row?.current_week ?? 1);
  }

  async function worldStatus(worldId: number): Promise<string | null> {
    const [row] = await db.execute<{ status: string }>(sql`select status from worlds where id = ${worldId}`);
    return row?.status ?? null;
  }

  async function workerConnected(): Promise<boolean> {
    const rows = await db.execute(sql`
      select 1 from pg_stat_activity where datname = current_database() and application_name = ${APPLICATION_NAMES.worker} limit 1`);
    return rows.length > 0;
  }

  /**
   * A worker is connected, or was seen alive within its heartbeat interval (it set
   * turn_worker_alive_until_ms to a time still ahead; the database's clock on both sides): it is restarting.
   */
  async function workerConnectedOrRestarting(): Promise<boolean> {
    const [row] = await db.execute<{ connected: boolean; restarting: boolean }>(sql`
      select
        exists (select 1 from pg_stat_activity where datname = current_database() and application_name = ${APPLICATION_NAMES.worker}) as connected,
        (select last_value from turn_worker_alive_until_ms) > extract(epoch from now()) * 1000 as restarting`);
    return Boolean(row?.connected || row?.restarting);
  }

  async function waitForWeekAfter(worldId: number, week: number, boss: PgBoss, jobId: string): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    const postgresClient = options.sql;
    let wake: (() => void) | null = null;
    const listener = await postgresClient.listen(GAME_UPDATES_CHANNEL, () => wake?.()).catch(() => null);
    try {
      for (;;) {
        const now = await currentWeek(worldId);
        if (now > week) return now;
        const job = await boss.getJobById(TURN_QUEUE, jobId).catch(() => null);
        if (job && (job.state === 'failed' || job.state === 'cancelled')) {
          throw new GameError('UNAVAILABLE', `The turn failed (job ${job.state}); the world stays at week ${week}. Check the worker logs.`);
        }
        if (job && job.state === 'completed' && (await currentWeek(worldId)) <= week) {
          // The turn refuses an ended world: an instructor ended it while this advance waited.
          if ((await worldStatus(worldId)) === 'ended') throw new GameError('CONFLICT', WORLD_ENDED);
          throw new GameError('UNAVAILABLE', `The turn job finished without advancing week ${week}. Check the worker logs.`);
        }
        const left = deadline - Date.now();
        if (left <= 0) {
          throw new GameError(
            'UNAVAILABLE',
            `The turn did not finish within ${Math.round(timeoutMs / 1000)} s; it stays queued and will complete when the worker is free`,
          );
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(POLL_MS, left));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
    } finally {
      await listener?.unlisten().catch(() => {});
    }
  }

  return {
    workerConnected,
    async advanceTurn(worldId: number) {
      const instance = await client();
      if (!instance || !(await instance.getQueue(TURN_QUEUE)) || !(await workerConnectedOrRestarting())) {
        throw new GameError('UNAVAILABLE', WORKER_NOT_RUNNING);
      }
      const week = await currentWeek(worldId);
      const job: TurnJobData = { worldId, week };
      const jobId = await instance.send(TURN_QUEUE, job, { singletonKey: worldTurnKey(worldId) });
      if (!jobId) throw new GameError('UNAVAILABLE', WORKER_NOT_RUNNING);
      return { week: await waitForWeekAfter(worldId, week, instance, jobId) };
    },
    async forkWorld(forkId: number) {
      const instance = await client();
      if (!instance || !(await instance.getQueue(TURN_QUEUE)) || !(await workerConnectedOrRestarting())) {
        throw new GameError('UNAVAILABLE', WORKER_NOT_RUNNING);
      }
      const job: TurnJobData = { worldId: forkId, fork: true };
      // Never retried: a replay commits week by week, so a second try only finds the fork half
      // replayed ("already replayed"), after the queue's backoff, and hides why the first failed.
      const jobId = await instance.send(TURN_QUEUE, job, { singletonKey: worldTurnKey(forkId), retryLimit: 0 });
      if (!jobId) throw new GameError('UNAVAILABLE', WORKER_NOT_RUNNING);
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const sent = await instance.getJobById(TURN_QUEUE, jobId).catch(() => null);
        if (sent?.state === 'completed') return { week: await currentWeek(forkId) };
        if (sent && (sent.state === 'failed' || sent.state === 'cancelled')) {
          const output = sent.output as { message?: string } | null;
          throw new GameError('UNAVAILABLE', `The fork could not be replayed: ${output?.message ?? sent.state}`);
        }
        if (Date.now() > deadline) {
          const waited = new GameError(
            'UNAVAILABLE',
            `The fork is still being replayed after ${Math.round(timeoutMs / 1000)} s: it will be ready when the worker finishes`,
          );
          stillReplaying.add(waited);
          throw waited;
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
    async cronStatus() {
      const instance = await client();
      const schedule = instance ? await instance.getSchedule(TURN_QUEUE).catch(() => null) : null;
      return schedule ? { jobname: TURN_QUEUE, schedule: schedule.cron, active: true } : { jobname: TURN_QUEUE, schedule: TURN_CRON_SCHEDULE, active: false };
    },
    async close() {
      if (starting) await starting;
      if (boss) await boss.stop({ graceful: false, close: true }).catch(() => {});
      boss = null;
    },
  };
}
