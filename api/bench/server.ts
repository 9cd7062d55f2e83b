/**
 * The API server of `npm run bench:api`, in its own process (forked by api/bench/api.ts) so the
 * load generator never shares the server's event loop: started the production way (startApiServer:
 * migrations, seed; a request log at LOG_LEVEL, written to /dev/null), it tells its parent its port and stops when the parent says so. With
 * BENCH_PROFILE=1 the parent asks for a CPU profile of each scenario (`profile:<name>` starts one,
 * `profile-end` writes it to <name>.cpuprofile in the current folder).
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { createLogger, fileDestination } from '@marketcraft/db/logger.ts';
import { loadApiConfig } from '../src/config.ts';
import { startApiServer } from '../src/server.ts';

// Logged as in production (api/src/main.ts: a JSON line per request at LOG_LEVEL, written at once),
// into /dev/null instead of the benchmark's output.
const config = loadApiConfig(process.env);
const logger = createLogger({ name: 'api', level: config.LOG_LEVEL, format: 'json', destination: fileDestination('/dev/null') });
const server = await startApiServer(config, { logger });
const inspector = new Session();
let profileName: string | null = null;
process.send?.({ port: server.port });
process.on('message', (message) => void onMessage(message));
async function onMessage(message: unknown) {
  if (message === 'stop') {
    await server.close();
    process.exit(0);
  }
  if (typeof message === 'string' && message.startsWith('profile:')) {
    profileName = message.slice('profile:'.length);
    inspector.connect();
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.start');
    process.send?.('profiling');
  }
  if (message === 'profile-end' && profileName) {
    const { profile } = await inspector.post('Profiler.stop');
    await writeFile(`${profileName}.cpuprofile`, JSON.stringify(profile));
    inspector.disconnect();
    process.send?.('profiled');
  }
}
process.on('disconnect', () => process.exit(0));
