/**
 * The worker process's configuration, read from the environment and validated once, here.
 * Nothing else in the worker reads process.env.
 */
import { z } from 'zod';
import { TURN_CRON_SCHEDULE } from '@marketcraft/shared';
import { LOG_FORMATS, LOG_LEVELS, defaultLogFormat } from '@marketcraft/db/logger.ts';

const workerEnvSchema = z.object({
  DATABASE_URL: z.string().url(),
  /** The automatic turn schedule (cron, UTC). */
  TURN_CRON: z.string().min(9).default(TURN_CRON_SCHEDULE),
  /** '0' removes the schedule (manual turns only). */
  TURN_SCHEDULE_ENABLED: z.enum(['0', '1']).default('1'),
  /** A turn job still active after this long is expired and retried; far above the worst turn (seconds). */
  TURN_EXPIRE_SECONDS: z.coerce.number().int().min(60).default(1_800),
  /**
   * The worker refreshes a heartbeat on the running job every half of this; a job without one for
   * this long (its worker died) is failed and retried (seconds, pg-boss's minimum is 10). With the
   * defaults below a turn whose worker died is running again within about 10-14 s
   * (docs/operations.md: the recovery budget).
   */
  TURN_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).default(10),
  TURN_RETRY_LIMIT: z.coerce.number().int().min(0).default(5),
  /** First retry delay in seconds (exponential backoff, at most TURN_RETRY_DELAY_MAX_SECONDS). */
  TURN_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).default(1),
  TURN_RETRY_DELAY_MAX_SECONDS: z.coerce.number().int().min(1).default(600),
  /** How often pg-boss's supervisor fails expired and heartbeat-less jobs (seconds). */
  WORKER_SUPERVISE_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(1),
  /** Turns of different worlds one worker process runs at once (one world's turns always one at a time). */
  WORKER_TURN_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** How often the worker looks for private worlds whose next turn is due (seconds). */
  WORLD_CLOCK_SECONDS: z.coerce.number().min(0.5).default(5),
  /**
   * How often an idle worker polls for jobs (seconds): a backstop, new turn jobs wake it at once
   * (LISTEN/NOTIFY); retried jobs are found by polling.
   */
  WORKER_POLLING_INTERVAL_SECONDS: z.coerce.number().min(0.5).default(1),
  /**
   * '1' when the launcher (`npm start`, scripts/start.ts) migrated and seeded the database just
   * before starting this process: it does not do it again (a full seed pass at each start).
   */
  DATABASE_PREPARED: z.enum(['0', '1']).default('0'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /** json (default when stdout is not a terminal) or pretty. */
  LOG_FORMAT: z.enum(LOG_FORMATS).default(defaultLogFormat()),
});

export type WorkerConfig = z.infer<typeof workerEnvSchema>;

export function loadWorkerConfig(env: Record<string, string | undefined> = process.env): WorkerConfig {
  const parsed = workerEnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid worker configuration: ${problems}`);
  }
  return parsed.data;
}
