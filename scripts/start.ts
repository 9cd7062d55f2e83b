/**
 * `npm start`: builds what is not built yet, starts PostgreSQL (embedded unless DATABASE_URL is
 * set), prepares the database (migrations and the seeded world), then runs the API (which serves
 * the web app) and the worker as child processes, restarting either if it dies, until Ctrl-C or
 * SIGTERM, when everything stops cleanly.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { prepareDatabase, startEmbeddedPostgres, type EmbeddedServer } from '@marketcraft/db';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default(path.join(root, '.data')),
  SKIP_BUILD: z.enum(['0', '1']).default('0'),
});
const parsedEnv = envSchema.safeParse(process.env);
if (!parsedEnv.success) {
  console.error(`[marketcraft] invalid configuration: ${parsedEnv.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  process.exit(1);
}
const env = parsedEnv.data;

function log(message: string) {
  console.log(`[marketcraft] ${message}`);
}

/** Whether the API will be able to listen: answers before the build and PostgreSQL take their time. */
function portIsFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

if (!(await portIsFree(env.PORT, env.HOST))) {
  console.error(`[marketcraft] port ${env.PORT} is already in use: stop what uses it, or start on another port, e.g. PORT=3001 npm start`);
  process.exit(1);
}

if (env.SKIP_BUILD !== '1') {
  log('building the web app (cached when nothing changed)...');
  const build = spawnSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('[marketcraft] the build failed');
    process.exit(build.status ?? 1);
  }
}

let embedded: EmbeddedServer | undefined;
const databaseUrlFile = path.join(path.resolve(env.DATA_DIR), 'database-url');
let databaseUrl = env.DATABASE_URL;
if (!databaseUrl) {
  const dataDir = path.join(path.resolve(env.DATA_DIR), 'postgres');
  log(`starting the embedded PostgreSQL server (data in ${dataDir})...`);
  embedded = await startEmbeddedPostgres({ dataDir });
  databaseUrl = embedded.urlFor('marketcraft');
  const admin = (await import('postgres')).default(embedded.url, { max: 1, onnotice: () => {} });
  const [exists] = await admin`select 1 from pg_database where datname = 'marketcraft'`;
  if (!exists) await admin.unsafe('create database marketcraft');
  await admin.end();
  // The admin CLI (`npm run admin -- grant <email>`) finds the running game's database here.
  writeFileSync(databaseUrlFile, databaseUrl + '\n', { mode: 0o600 });
}

log('applying migrations and seeding the world if needed...');
await prepareDatabase(databaseUrl);

const childEnv = {
  ...process.env,
  DATABASE_URL: databaseUrl,
  PORT: String(env.PORT),
  WEB_DIST_DIR: path.join(root, 'web', 'dist'),
};

const children = new Map<string, ChildProcess>();
let stopping = false;

/** Names of the children that have started successfully at least once. */
const everReady = new Set<string>();

/**
 * Runs a child and restarts it when it dies. A child that dies before it ever said `readyLine`
 * (a port taken meanwhile, a bad configuration) would only die again: then everything stops.
 */
function run(name: string, script: string, readyLine: string, onReady?: () => void) {
  const child = spawn(process.execPath, [script], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'inherit'] });
  children.set(name, child);
  child.stdout?.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    if (!everReady.has(name) && chunk.toString().includes(readyLine)) {
      everReady.add(name);
      onReady?.();
    }
  });
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (stopping) return;
    if (!everReady.has(name)) {
      console.error(`[marketcraft] ${name} could not start (${signal ?? code}); see its error above`);
      void shutdown('startup failure', 1);
      return;
    }
    log(`${name} exited (${signal ?? code}); restarting in 2 s`);
    setTimeout(() => !stopping && run(name, script, readyLine), 2000);
  });
}

run('api', path.join(root, 'api/src/main.ts'), 'listening on port', () => log(`Marketcraft is running at http://localhost:${env.PORT}`));
run('worker', path.join(root, 'worker/src/main.ts'), '[worker] ready');

async function shutdown(signal: string, exitCode = 0) {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping...`);
  await Promise.all(
    [...children.values()].map(
      (child) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  if (embedded) {
    rmSync(databaseUrlFile, { force: true });
    await embedded.stop();
  }
  log('stopped');
  process.exit(exitCode);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
