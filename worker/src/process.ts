/**
 * The worker process: its logger, the database prepared, pg-boss started with the turn queue, the
 * cron schedule upserted and the queue worked, until SIGTERM/SIGINT: then it stops taking jobs,
 * lets a running turn finish (or roll back), closes its connections and exits 0.
 * worker/src/main.ts runs it; tests run it with hooks (a turn held open to kill it mid-turn).
 */
import { prepareDatabase } from '@marketcraft/db';
import { createLogger, tellParentReady, type Logger } from '@marketcraft/db/logger.ts';
import { loadWorkerConfig, type WorkerConfig } from './config.ts';
import { startTurnWorker } from './queue.ts';
import type { TurnHooks } from './turn/index.ts';

export async function runWorkerProcess(options: { hooks?: (logger: Logger) => TurnHooks } = {}): Promise<void> {
  let config: WorkerConfig;
  try {
    config = loadWorkerConfig();
  } catch (error) {
    createLogger({ name: 'worker' }).fatal(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
  const logger = createLogger({ name: 'worker', level: config.LOG_LEVEL, format: config.LOG_FORMAT });
  if (config.DATABASE_PREPARED !== '1') await prepareDatabase(config.DATABASE_URL);
  const worker = await startTurnWorker(config, { logger, hooks: options.hooks?.(logger) });
  logger.info(
    { schedule: config.TURN_SCHEDULE_ENABLED === '1' ? config.TURN_CRON : null },
    `ready: turn queue worked, schedule ${config.TURN_SCHEDULE_ENABLED === '1' ? `'${config.TURN_CRON}' UTC` : 'off'}`,
  );
  tellParentReady();

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${signal}: stopping (a running turn finishes or rolls back)`);
    let exitCode = 0;
    try {
      await worker.stop();
      logger.info('stopped');
    } catch (error) {
      exitCode = 1;
      logger.error({ err: error }, 'stop failed');
    }
    process.exit(exitCode);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
