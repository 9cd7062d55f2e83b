/**
 * pg-boss on the game's PostgreSQL: the turn queue, its cron schedule and the turn worker.
 *
 * - Only the worker process creates the queue: policy 'singleton' (at most one turn job active at a
 *   time across all workers), retries with exponential backoff, expireInSeconds far above the worst
 *   turn, and a heartbeat so the job of a killed worker runs again within about 12-14 s (heartbeat
 *   10 s refreshed every second, supervisor every second, first retry after 1-2 s, polling every
 *   second); `notify` wakes workers the moment a job is sent (LISTEN/NOTIFY).
 * - Duplicates: ten admins pressing 'Advance Turn' at once send ten jobs for the same week. The
 *   first advances it; the moment it is done the worker completes every queued job for a week the
 *   world has already passed (completeStaleTurnJobs), instead of skipping them one fetch at a time
 *   while later turns wait behind them.
 * - `schedule(name, cron, null, { tz: 'UTC' })` is an upsert: every worker may call it at start.
 * - Jobs carry `{ week }` (manual turns: the week they advance from) or no week (the schedule's):
 *   worker/src/turn/index.ts holds the exactly-once rule. The job's signal aborts the turn.
 * - world.next_turn_at is the schedule's next run, as pg-boss evaluates the cron (previewSchedule):
 *   set at worker start and by every turn; null when the schedule is off (manual turns only).
 * - Worlds (docs/worlds.md): every job names its world (`worldId`; none: the public world) and is
 *   sent with the world's singleton key, so one world's turns run one at a time and other worlds'
 *   turns run beside them (`WORKER_TURN_CONCURRENCY` per worker process). The public world keeps
 *   the cron schedule; private worlds have a clock of their own: every worker looks for due worlds
 *   every few seconds (`enqueueDueWorlds`) and claims each one atomically before sending its job.
 */
import { PgBoss, type Job, type JobResult } from 'pg-boss';
import { sql } from 'drizzle-orm';
import { PUBLIC_WORLD_ID } from '@marketcraft/shared';
import { APPLICATION_NAMES, TURN_QUEUE, worldTurnKey, type TurnJobData } from '@marketcraft/shared/queues.ts';
import { connectDatabase, deleteExpiredSandboxes, type Database } from '@marketcraft/db';
import type { Logger } from '@marketcraft/db/logger.ts';
import { postWorldScores } from '@marketcraft/db/lti/grades.ts';
import type { WorkerConfig } from './config.ts';
import { replayFork } from './replay/fork.ts';
import { runTurn, TURN_SESSION_SETTINGS, type TurnHooks, type TurnResult } from './turn/index.ts';

type QueueSettings = Pick<
  WorkerConfig,
  'TURN_EXPIRE_SECONDS' | 'TURN_HEARTBEAT_SECONDS' | 'TURN_RETRY_LIMIT' | 'TURN_RETRY_DELAY_SECONDS' | 'TURN_RETRY_DELAY_MAX_SECONDS'
>;

/**
 * Sends the turn job of one world (its singleton key: one active turn per world). `week`: advance
 * only from that week (a second send for the same week does nothing).
 */
export async function sendWorldTurn(boss: PgBoss, worldId: number, week?: number): Promise<string | null> {
  const data: TurnJobData = week === undefined ? { worldId } : { worldId, week };
  return boss.send(TURN_QUEUE, data, { singletonKey: worldTurnKey(worldId) });
}

/**
 * The private worlds' clock: claims every active world whose next turn is due (pushing its
 * next_turn_at a few minutes ahead, so a lost job is sent again then; the turn sets the real next
 * time) and sends its turn for its current week. `for no key update skip locked`: several workers
 * never claim the same world twice, and a world whose players are acting is not skipped (each
 * action holds the row `for key share`, which only `for update` waits for). Returns the worlds sent.
 */
export async function enqueueDueWorlds(boss: PgBoss, db: Database, now = new Date()): Promise<number[]> {
  const due = await db.execute<{ id: number; current_week: number }>(sql`
    with due as (
      select id from worlds
      where kind = 'private' and status = 'active' and next_turn_at is not null and next_turn_at <= ${now.toISOString()}::timestamptz
      order by next_turn_at, id
      for no key update skip locked
    )
    update worlds w set next_turn_at = ${now.toISOString()}::timestamptz + interval '5 minutes'
    from due where w.id = due.id
    returning w.id, w.current_week`);
  for (const world of due) await sendWorldTurn(boss, Number(world.id), Number(world.current_week));
  return due.map((world) => Number(world.id));
}

/** How often each worker deletes the sandboxes past their lifetime (a sandbox lives days: an hour late is nothing). */
const SANDBOX_SWEEP_MINUTES = 60;

/** How often the worker refreshes the running turn job's heartbeat (seconds). */
export const TURN_HEARTBEAT_REFRESH_SECONDS = 1;

/**
 * Marks this worker as alive for its heartbeat interval (the turn_worker_alive_until_ms sequence):
 * at start and every TURN_HEARTBEAT_REFRESH_SECONDS. The API reads it when no worker is connected:
 * still in the future means restarting (a killed worker comes back in about 2 s under `npm start`),
 * so an 'Advance Turn' is queued, not refused. A sequence, written in place (db/src/schema/world.ts).
 */
async function markWorkerSeen(db: Database, heartbeatSeconds: number): Promise<void> {
  await db.execute(sql`
    select setval('turn_worker_alive_until_ms', (extract(epoch from now()) * 1000)::bigint + ${heartbeatSeconds * 1000})`);
}

function createBoss(config: Pick<WorkerConfig, 'DATABASE_URL' | 'WORKER_SUPERVISE_INTERVAL_SECONDS'>): PgBoss {
  return new PgBoss({
    connectionString: config.DATABASE_URL,
    application_name: APPLICATION_NAMES.worker,
    max: 4,
    superviseIntervalSeconds: config.WORKER_SUPERVISE_INTERVAL_SECONDS,
    monitorIntervalSeconds: config.WORKER_SUPERVISE_INTERVAL_SECONDS,
    // A fetch skips the worlds whose turn job was active when this worker last read the queue row
    // (pg-boss caches it, by default for 60 s): a worker started while a dead worker's job was
    // still active (heartbeat not yet expired) left that world's retried turn waiting up to a
    // minute. Read as often as the monitor refreshes the row (one small select a second).
    queueCacheIntervalSeconds: config.WORKER_SUPERVISE_INTERVAL_SECONDS,
    // Woken by NOTIFY when a turn job is sent (the queue's `notify`), not at the next poll.
    useListenNotify: true,
  });
}

/** Creates (or updates) the turn queue. Call from the worker process only. */
async function ensureTurnQueue(boss: PgBoss, settings: QueueSettings): Promise<void> {
  const options = {
    expireInSeconds: settings.TURN_EXPIRE_SECONDS,
    retryLimit: settings.TURN_RETRY_LIMIT,
    retryDelay: settings.TURN_RETRY_DELAY_SECONDS,
    retryBackoff: true,
    retryDelayMax: settings.TURN_RETRY_DELAY_MAX_SECONDS,
    heartbeatSeconds: settings.TURN_HEARTBEAT_SECONDS,
    notify: true,
  };
  if (await boss.getQueue(TURN_QUEUE)) {
    await boss.updateQueue(TURN_QUEUE, options);
  } else {
    await boss.createQueue(TURN_QUEUE, { policy: 'singleton', ...options });
  }
}

/** Upserts (or removes) the cron schedule that sends the turn job. */
async function ensureTurnSchedule(boss: PgBoss, cron: string, enabled: boolean): Promise<void> {
  // missed: 'once' -- a worker that was down at 00:30 sends one job for the missed slot when it is back.
  if (enabled) await boss.schedule(TURN_QUEUE, cron, { worldId: PUBLIC_WORLD_ID }, { tz: 'UTC', missed: 'once', singletonKey: worldTurnKey(PUBLIC_WORLD_ID) });
  else await boss.unschedule(TURN_QUEUE);
}

/** When the schedule sends the next turn strictly after `now`; null when the schedule is off. */
type TurnClock = (now: Date) => Date | null;

function scheduleClock(boss: PgBoss, cron: string, enabled: boolean): TurnClock {
  return (now) => (enabled ? (boss.previewSchedule(cron, { tz: 'UTC', from: now, count: 1 })[0] ?? null) : null);
}

/** Writes the schedule's next run to the world row (the header's countdown), e.g. after TURN_CRON changed. */
async function syncNextTurnAt(db: Database, nextTurnAt: TurnClock, now = new Date()): Promise<void> {
  const next = nextTurnAt(now);
  await db.execute(sql`
    update worlds set next_turn_at = ${next ? next.toISOString() : null}::timestamptz, updated_at = now()
    where id = ${PUBLIC_WORLD_ID} and next_turn_at is distinct from ${next ? next.toISOString() : null}::timestamptz`);
}

/**
 * Completes the queued turn jobs for weeks the world has already passed (duplicates of a turn that
 * ran: concurrent 'Advance Turn' presses). Their senders see the new week and answer at once.
 * Scheduled jobs (no week) are left alone: each advances the week it finds.
 */
async function completeStaleTurnJobs(boss: PgBoss, db: Database): Promise<number> {
  // Each job against its own world's week (no world: the public world).
  const queued = await boss.findJobs<TurnJobData>(TURN_QUEUE, { queued: true });
  const withWeek = queued.filter((job) => typeof job.data?.week === 'number');
  if (withWeek.length === 0) return 0;
  const worldOf = (job: (typeof withWeek)[number]) => (typeof job.data?.worldId === 'number' ? job.data.worldId : PUBLIC_WORLD_ID);
  const worldIds = [...new Set(withWeek.map(worldOf))];
  const weeks = await db.execute<{ id: number; current_week: number }>(sql`
    select id, current_week from worlds where id in (${sql.join(
      worldIds.map((id) => sql`${id}`),
      sql`, `,
    )})`);
  const currentWeek = new Map(weeks.map((row) => [Number(row.id), Number(row.current_week)]));
  const stale = withWeek.filter((job) => job.data!.week! < (currentWeek.get(worldOf(job)) ?? 0)).map((job) => job.id);
  if (stale.length === 0) return 0;
  await boss.complete(TURN_QUEUE, stale, { status: 'skipped', reason: 'week already advanced' }, { includeQueued: true });
  return stale.length;
}

export interface TurnWorkerOptions {
  pollingIntervalSeconds?: number;
  /** Turns of different worlds this process runs at once. */
  concurrency?: number;
  hooks?: TurnHooks;
  logger: Logger;
  nextTurnAt?: TurnClock;
}

/**
 * Jobs one fetch takes (each still its own turn, in its own transaction, run one after the other).
 * pg-boss waits a polling interval after every fetch unless the fetch came back full: one job per
 * fetch meant one turn per interval whatever the turn cost, 200 class worlds due at once took 200
 * intervals (worker/bench/worlds.ts). Full batches are fetched again at once.
 */
const TURN_JOBS_PER_FETCH = 8;

/**
 * Works the turn queue: the jobs of a fetch one at a time, each one `runTurn` in one transaction,
 * each settled on its own (a failed turn is retried by pg-boss; the others of its batch are not
 * touched). Every job logs one line: the week, each phase's duration, the counts and the outcome
 * (advanced, skipped, or failed with its error).
 */
async function workTurnQueue(boss: PgBoss, db: Database, options: TurnWorkerOptions): Promise<string> {
  const { logger } = options;
  return boss.work<TurnJobData>(
    TURN_QUEUE,
    {
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
      // NOTIFY wakes the worker for new jobs, but not for a retried one (a dead worker's turn):
      // keep polling at the same pace (pg-boss would relax it to 30 s).
      notifyPollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
      // Refresh the running turn's heartbeat every second (pg-boss: every half of heartbeatSeconds),
      // so a dead worker's job is stale 10 s after its death, not up to 15 s.
      heartbeatRefreshSeconds: TURN_HEARTBEAT_REFRESH_SECONDS,
      batchSize: TURN_JOBS_PER_FETCH,
      burstWhenBatchFull: true,
      perJobResults: true,
      localConcurrency: options.concurrency ?? 1,
    },
    async (jobs: Job<TurnJobData>[]) => {
      const results: JobResult<TurnResult | { message: string } | { forkedToWeek: number }>[] = [];
      for (const job of jobs) {
        const week = typeof job.data?.week === 'number' ? job.data.week : undefined;
        const worldId = typeof job.data?.worldId === 'number' ? job.data.worldId : PUBLIC_WORLD_ID;
        // A stopping worker starts no more turns: the rest of its batch is failed, so retried elsewhere.
        if (job.signal?.aborted) {
          results.push({ id: job.id, status: 'failed', output: { message: 'the worker stopped before this turn started' } });
          continue;
        }
        const started = performance.now();
        if (job.data?.fork === true) {
          results.push(await forkJob(db, job.id, worldId, logger));
          continue;
        }
        let result: TurnResult;
        try {
          result = await runTurn(db, { worldId, week, jobId: job.id, hooks: options.hooks, signal: job.signal, nextTurnAt: options.nextTurnAt });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          logger.error(
            { jobId: job.id, worldId, week, outcome: 'failed', durationMs: Math.round(performance.now() - started), err: error },
            `turn failed and was rolled back: ${message}`,
          );
          results.push({ id: job.id, status: 'failed', output: { message } });
          continue;
        }
        if (result.status === 'advanced') {
          logger.info(
            {
              jobId: job.id,
              worldId,
              week: result.week,
              newWeek: result.newWeek,
              outcome: 'advanced',
              durationMs: result.durationMs,
              phases: result.phaseTimings,
              counts: result.counts,
              bankrupt: result.bankrupt.length,
            },
            `turn: week ${result.week} -> ${result.newWeek} in ${result.durationMs} ms`,
          );
          if (worldId !== PUBLIC_WORLD_ID) await passBackGrades(db, worldId, logger);
        } else {
          logger.info({ jobId: job.id, worldId, week: result.week, outcome: 'skipped', reason: result.reason }, `turn skipped: ${result.reason}`);
        }
        results.push({ id: job.id, status: 'completed', output: result });
      }
      try {
        const duplicates = await completeStaleTurnJobs(boss, db);
        if (duplicates > 0) logger.info({ duplicates }, `completed ${duplicates} queued duplicate turn job(s)`);
      } catch (error) {
        // They would still be skipped one by one: slower, not wrong.
        logger.warn({ err: error }, 'could not complete the queued duplicate turn jobs');
      }
      return results;
    },
  );
}

/** A fork's replay (replay/fork.ts), logged like a turn: its weeks, its time, or why it failed. */
async function forkJob(db: Database, jobId: string, worldId: number, logger: Logger): Promise<JobResult<{ forkedToWeek: number } | { message: string }>> {
  const started = performance.now();
  try {
    const report = await replayFork(db, worldId);
    logger.info(
      { jobId, worldId, outcome: 'forked', week: report.week, durationMs: Math.round(performance.now() - started) },
      `fork: world ${worldId} replayed to week ${report.week}`,
    );
    return { id: jobId, status: 'completed', output: { forkedToWeek: report.week } };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    logger.error({ jobId, worldId, outcome: 'failed', err: error }, `fork failed: ${message}`);
    return { id: jobId, status: 'failed', output: { message } };
  }
}

/**
 * After a class world's turn: each launched student's score goes to their course's gradebook
 * (LTI grade passback, db/src/lti/grades.ts) where it changed. The turn is committed: a course
 * platform that is down is logged and tried again after the next turn, never a failed turn.
 */
async function passBackGrades(db: Database, worldId: number, logger: Logger): Promise<void> {
  try {
    const { posted } = await postWorldScores(db, worldId);
    if (posted > 0) logger.info({ worldId, posted }, `posted ${posted} score(s) to the course platform`);
  } catch (error) {
    logger.warn({ worldId, err: error }, `could not post the world's scores to its course platform: ${error instanceof Error ? error.message : String(error)}`);
  }
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
  const concurrency = config.WORKER_TURN_CONCURRENCY;
  const connection = connectDatabase(config.DATABASE_URL, {
    max: 2 + 2 * concurrency,
    applicationName: APPLICATION_NAMES.worker,
    settings: TURN_SESSION_SETTINGS,
  });
  const boss = createBoss(config);
  boss.on('error', (error) => logger.error({ err: error }, `pg-boss: ${error.message}`));
  await boss.start();
  await ensureTurnQueue(boss, config);
  const scheduled = config.TURN_SCHEDULE_ENABLED === '1';
  await ensureTurnSchedule(boss, config.TURN_CRON, scheduled);
  const nextTurnAt = scheduleClock(boss, config.TURN_CRON, scheduled);
  await syncNextTurnAt(connection.db, nextTurnAt);
  await markWorkerSeen(connection.db, config.TURN_HEARTBEAT_SECONDS);
  const presence = setInterval(() => {
    markWorkerSeen(connection.db, config.TURN_HEARTBEAT_SECONDS).catch((error: unknown) =>
      logger.warn({ err: error }, `could not mark the worker as seen: ${error instanceof Error ? error.message : String(error)}`),
    );
  }, TURN_HEARTBEAT_REFRESH_SECONDS * 1000);
  presence.unref();
  await workTurnQueue(boss, connection.db, {
    pollingIntervalSeconds: options.pollingIntervalSeconds ?? config.WORKER_POLLING_INTERVAL_SECONDS,
    hooks: options.hooks,
    logger,
    nextTurnAt,
    concurrency,
  });
  // The private worlds' clock.
  let ticking = false;
  const clock = setInterval(() => {
    if (ticking) return;
    ticking = true;
    enqueueDueWorlds(boss, connection.db)
      .then((sent) => {
        if (sent.length > 0) logger.debug({ worlds: sent }, `clock: turns sent for ${sent.length} worlds`);
      })
      .catch((error: unknown) => logger.error({ err: error }, `world clock: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        ticking = false;
      });
  }, config.WORLD_CLOCK_SECONDS * 1000);
  clock.unref();
  // Housekeeping: the sandboxes past their lifetime are deleted (docs/replay.md), at start and hourly.
  const sweepSandboxes = () => {
    deleteExpiredSandboxes(connection.db)
      .then((deleted) => {
        if (deleted.length > 0) logger.info({ worlds: deleted }, `housekeeping: deleted ${deleted.length} expired sandbox(es)`);
      })
      .catch((error: unknown) => logger.error({ err: error }, `sandbox housekeeping: ${error instanceof Error ? error.message : String(error)}`));
  };
  sweepSandboxes();
  const housekeeping = setInterval(sweepSandboxes, SANDBOX_SWEEP_MINUTES * 60_000);
  housekeeping.unref();
  return {
    boss,
    db: connection.db,
    stop: async () => {
      clearInterval(clock);
      clearInterval(housekeeping);
      clearInterval(presence);
      await boss.stop({ graceful: true, timeout: 30_000 });
      await connection.close();
    },
  };
}
