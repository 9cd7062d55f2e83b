/** The API process: its logger and the HTTP server (api/src/server.ts), stopped gracefully on SIGTERM/SIGINT. */
import { createLogger, tellParentReady } from '@marketcraft/db/logger.ts';
import { loadApiConfig, type ApiConfig } from './config.ts';
import { startApiServer } from './server.ts';

// `npm start` (scripts/start.ts) starts this process while its embedded PostgreSQL starts: the
// modules above load meanwhile, and the database's address comes from the parent once it is ready.
if (process.env.DATABASE_URL_FROM_PARENT === '1' && process.send) {
  process.env.DATABASE_URL = await new Promise<string>((resolve) => {
    process.once('message', (message) => resolve(String(message)));
    process.once('disconnect', () => process.exit(1)); // the parent is gone: nothing will come
  });
}

let config: ApiConfig;
try {
  config = loadApiConfig();
} catch (error) {
  createLogger({ name: 'api' }).fatal(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
const logger = createLogger({ name: 'api', level: config.LOG_LEVEL, format: config.LOG_FORMAT });
const api = await startApiServer(config, { logger });
logger.info({ port: api.port }, `listening on port ${api.port}`);
tellParentReady();

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, `${signal}: stopping (new requests answer 503, those in flight finish)`);
  try {
    const { cut } = await api.close();
    logger.info({ cut }, 'stopped');
    process.exit(0);
  } catch (error) {
    logger.error({ err: error }, 'stop failed');
    process.exit(1);
  }
};
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
