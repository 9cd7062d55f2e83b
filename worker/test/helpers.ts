/** In-process turn workers and a send-only client for the queue tests. */
import { PgBoss } from 'pg-boss';
import { memoryLogger } from '@marketcraft/db/testing/memoryLogger.ts';
import { loadWorkerConfig } from '../src/config.ts';
import { startTurnWorker } from '../src/queue.ts';

/** A worker as worker/src/main.ts starts it, in this process, with its log lines kept for assertions. */
export async function startInProcessWorker(databaseUrl: string, env: Record<string, string> = {}) {
  const config = loadWorkerConfig({ DATABASE_URL: databaseUrl, WORKER_SUPERVISE_INTERVAL_SECONDS: '2', ...env });
  const { logger, lines } = memoryLogger('worker');
  const worker = await startTurnWorker(config, { pollingIntervalSeconds: 0.5, logger });
  return { ...worker, logs: lines };
}

/** A pg-boss client like the API's: sends only (the worker created the queue). */
export async function startSender(databaseUrl: string): Promise<PgBoss> {
  const boss = new PgBoss({ connectionString: databaseUrl, max: 3, migrate: false, createSchema: false, supervise: false, schedule: false });
  boss.on('error', () => {});
  await boss.start();
  return boss;
}

export async function waitFor<T>(check: () => Promise<T | null | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
