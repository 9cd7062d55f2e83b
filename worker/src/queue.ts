/**
 * pg-boss on the game's PostgreSQL: the turn queue, its cron schedule and the turn worker.
 *
 * - Only the worker process creates the queue: policy 'singleton' (at most one turn job active at a
 *   time across all workers), retries with exponential backoff, expireInSeconds far above the worst
 *   turn, and a heartbeat so the job of a killed worker is retried within a minute or two.
 * - `schedule(name, cron, null, { tz: 'UTC' })` is an upsert: every worker may call it at start.
 * - Jobs carry `{ week }` (manual turns: the week they advance from) or no week (the schedule's):
 *   worker/src/turn/index.ts holds the exactly-once rule. The job's signal aborts the turn.
 * - world.next_turn_at is the schedule's next run, as pg-boss evaluates the cron (previewSchedule):
 *   set at worker start and by every turn; null when the schedule is off (manual turns only).
 */
import { PgBoss, type Job } from 'pg-boss';
import { sql } from 'drizzle-orm';
import { APPLICATION_NAMES, TURN_QUEUE, type TurnJobData } from '@marketcraft/shared/queues.ts';
import { connectDatabase, type Database } from '@marketcraft/db';
import type { Logger } from '@marketcraft/db/logger.ts';
import type { WorkerConfig } from './config.ts';
import { runTurn, type TurnHooks, type TurnResult } from './turn/index.ts';

type QueueSettings = Pick<
  WorkerConfig,
  'TURN_EXPIRE_SECONDS' | 'TURN_HEARTBEAT_SECONDS' | 'TURN_RETRY_LIMIT' | 'TURN_RETRY_DELAY_SECONDS' | 'TURN_RETRY_DELAY_MAX_SECONDS'
>;

export function createBoss(config: Pick<WorkerConfig, 'DATABASE_URL' | 'WORKER_SUPERVISE_INTERVAL_SECONDS'>): PgBoss {
  return new PgBoss({
    connectionString: config.DATABASE_URL,
    application_name: APPLICATION_NAMES.worker,
    max: 4,
    superviseIntervalSeconds: config.WORKER_SUPERVISE_INTERVAL_SECONDS,
    monitorIntervalSeconds: config.WORKER_SUPERVISE_INTERVAL_SECONDS,
  });
}

/** Creates (or updates) the turn queue. Call from the worker process only. */
export async function ensureTurnQueue(boss: PgBoss, settings: QueueSettings): Promise<void> {
  const options = {
    expireInSeconds: settings.TURN_EXPIRE_SECONDS,
    retryLimit: settings.TURN_RETRY_LIMIT,
    retryDelay: settings.TURN_RETRY_DELAY_SECONDS,
    retryBackoff: true,
    retryDelayMax: settings.TURN_RETRY_DELAY_MAX_SECONDS,
    heartbeatSeconds: settings.TURN_HEARTBEAT_SECONDS,
  };
  if (await boss.getQueue(TURN_QUEUE)) {
    await boss.updateQueue(TURN_QUEUE, options);
  } else {
    await boss.createQueue(TURN_QUEUE, { policy: 'singleton', ...options });
  }
}

/** Upserts (or removes) the cron schedule that sends the turn job. */
export async function ensureTurnSchedule(boss: PgBoss, cron: string, enabled: boolean): Promise<void> {
  // missed: 'once' -- a worker that was down at 00:30 sends one job for the missed slot when it is back.
  if (enabled) await boss.schedule(TURN_QUEUE, cron, null, { tz: 'UTC', missed: 'once' });
  else await boss.unschedule(TURN_QUEUE);
}

/** When the schedule sends the next turn strictly after `now`; null when the schedule is off. */
export type TurnClock = (now: Date) => Date | null;

export function scheduleClock(boss: PgBoss, cron: string, enabled: boolean): TurnClock {
  return (now) => (enabled ? (boss.previewSchedule(cron, { tz: 'UTC', from: now, count: 1 })[0] ?? null) : null);
}

/** Writes the schedule's next run to the world row (the header's countdown), e.g. after TURN_CRON changed. */
export async function syncNextTurnAt(db: Database, nextTurnAt: TurnClock, now = new Date()): Promise<void> {
  const next = nextTurnAt(now);
  await db.execute(sql`
    update world set next_turn_at = ${next ? next.toISOString() : null}::timestamptz, updated_at = now()
    where id = 1 and next_turn_at is distinct from ${next ? next.toISOString() : null}::timestamptz`);
}

export interface TurnWorkerOptions {
  pollingIntervalSeconds?: number;
  hooks?: TurnHooks;
  logger: Logger;
  nextTurnAt?: TurnClock;
}

/**
 * Works the turn queue: one job at a time, each one `runTurn` in one transaction. Every job logs
 * one line: the week, each phase's duration, the counts and the outcome (advanced, skipped, or
 * failed with its error, which pg-boss then retries).
 */
export async function workTurnQueue(boss: PgBoss, db: Database, options: TurnWorkerOptions): Promise<string> {
  const { logger } = options;
  return boss.work<TurnJobData, TurnResult | undefined>(
    TURN_QUEUE,
    { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2, batchSize: 1 },
    async (jobs: Job<TurnJobData>[]) => {
      let last: TurnResult | undefined;
      for (const job of jobs) {
        const week = typeof job.data?.week === 'number' ? job.data.week : undefined;
        const started = performance.now();
        try {
          last = await runTurn(db, { week, jobId: job.id, hooks: options.hooks, signal: job.signal, nextTurnAt: options.nextTurnAt });
        } catch (error) {
          logger.error(
            { jobId: job.id, week, outcome: 'failed', durationMs: Math.round(performance.now() - started), err: error },
            `turn failed and was rolled back: ${error instanceof Error ? error.message : String(error)}`,
          );
          throw error;
        }
        if (last.status === 'advanced') {
          logger.info(
            {
              jobId: job.id,
              week: last.week,
              newWeek: last.newWeek,
              outcome: 'advanced',
              durationMs: last.durationMs,
              phases: last.phaseTimings,
              counts: last.counts,
              bankrupt: last.bankrupt.length,
            },
            `turn: week ${last.week} -> ${last.newWeek} in ${last.durationMs} ms`,
          );
        } else {
          logger.info({ jobId: job.id, week: last.week, outcome: 'skipped', reason: last.reason }, `turn skipped: ${last.reason}`);
        }
      }
      return last;
    },
  );
}

export interface TurnWorker {
  boss: PgBoss;
  db: Database;
  stop: () => Promise<void>;
}

/**
 * A worker: pg-boss started, the turn queue created, the cron schedule upserted (or removed),
 * world.next_turn_at synced to it, and the queue worked until stop(), which lets a running turn
 * finish (or roll back) and closes the connections. worker/src/main.ts and the tests use it.
 */
export async function startTurnWorker(
  config: WorkerConfig,
  options: Pick<TurnWorkerOptions, 'hooks' | 'logger' | 'pollingIntervalSeconds'>,
): Promise<TurnWorker> {
  const { logger } = options;
  const connection = connectDatabase(config.DATABASE_URL, { max: 4, applicationName: APPLICATION_NAMES.worker });
  const boss = createBoss(config);
  boss.on('error', (error) => logger.error({ err: error }, `pg-boss: ${error.message}`));
  await boss.start();
  await ensureTurnQueue(boss, config);
  const scheduled = config.TURN_SCHEDULE_ENABLED === '1';
  await ensureTurnSchedule(boss, config.TURN_CRON, scheduled);
  const nextTurnAt = scheduleClock(boss, config.TURN_CRON, scheduled);
  await syncNextTurnAt(connection.db, nextTurnAt);
  await workTurnQueue(boss, connection.db, {
    pollingIntervalSeconds: options.pollingIntervalSeconds ?? config.WORKER_POLLING_INTERVAL_SECONDS,
    hooks: options.hooks,
    logger,
    nextTurnAt,
  });
  return {
    boss,
    db: connection.db,
    stop: async () => {
      await boss.stop({ graceful: true, timeout: 30_000 });
      await connection.close();
    },
  };
}
