/**
 * `npm start`: builds what is not built yet, starts PostgreSQL (embedded unless DATABASE_URL is
 * set), prepares the database (migrations and the seeded world), then runs the API (which serves
 * the web app) and the worker as child processes, restarting either if it dies, until Ctrl-C or
 * SIGTERM, when everything stops cleanly.
 *
 * On an existing data folder the first answer should come in under 3 s (issue 25; docs/benchmarks.md):
 * the build is skipped without starting turbo when web/dist is newer than everything it is built
 * from; the database is prepared once, here, not again by the API and the worker; and in an
 * embedded data folder it is not prepared again at all while the migrations and the code of the
 * seed are those it was last prepared with (DATA_DIR/prepared holds their fingerprint); the API
 * process loads its modules while PostgreSQL starts (it is given the database's address when ready),
 * and Node's compile cache (DATA_DIR/compile-cache) spares it compiling them again.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { startEmbeddedPostgres, type EmbeddedServer } from '@marketcraft/db/embedded.ts';
import { CHILD_READY, LOG_FORMATS, LOG_LEVELS, createLogger, defaultLogFormat, prettyLines } from '@marketcraft/db/logger.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default(path.join(root, '.data')),
  SKIP_BUILD: z.enum(['0', '1']).default('0'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /** This process's format; the API and the worker always write JSON lines, shown pretty here in a terminal. */
  LOG_FORMAT: z.enum(LOG_FORMATS).default(defaultLogFormat()),
});
const parsedEnv = envSchema.safeParse(process.env);
if (!parsedEnv.success) {
  createLogger({ name: 'marketcraft' }).fatal(
    `invalid configuration: ${parsedEnv.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
  );
  process.exit(1);
}
const env = parsedEnv.data;
const logger = createLogger({ name: 'marketcraft', level: env.LOG_LEVEL, format: env.LOG_FORMAT });

function log(message: string) {
  logger.info(message);
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
  logger.fatal(`port ${env.PORT} is already in use: stop what uses it, or start on another port, e.g. PORT=3001 npm start`);
  process.exit(1);
}

/** What web/dist is built from: the web app, the shared package, and the installed dependencies. */
const WEB_BUILD_INPUTS = [
  'web/src',
  'web/public',
  'web/index.html',
  'web/vite.config.ts',
  'web/package.json',
  'shared/src',
  'shared/package.json',
  'package-lock.json',
];

/** The newest modification time (ms) of a file or any file under a folder. */
function newestChange(file: string): number {
  const stats = statSync(file, { throwIfNoEntry: false });
  if (!stats) return 0;
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs; // a file deleted from the folder changes the folder's time
  for (const entry of readdirSync(file, { withFileTypes: true })) newest = Math.max(newest, newestChange(path.join(file, entry.name)));
  return newest;
}

/**
 * Whether web/dist was built after its inputs last changed: then there is nothing to build, and
 * starting turbo to find that out (over a second on a busy machine) is skipped.
 */
function webBuildIsCurrent(): boolean {
  const built = statSync(path.join(root, 'web', 'dist', 'index.html'), { throwIfNoEntry: false });
  return !!built && WEB_BUILD_INPUTS.every((input) => newestChange(path.join(root, input)) < built.mtimeMs);
}

if (env.SKIP_BUILD !== '1' && webBuildIsCurrent()) {
  log('the web app is built and up to date');
} else if (env.SKIP_BUILD !== '1') {
  log('building the web app (cached when nothing changed)...');
  const build = spawnSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    logger.fatal('the build failed');
    process.exit(build.status ?? 1);
  }
}

/** What the API and the worker run with (the database's address is added once it is known). */
const childEnv: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: String(env.PORT),
  WEB_DIST_DIR: path.join(root, 'web', 'dist'),
  LOG_LEVEL: env.LOG_LEVEL,
  LOG_FORMAT: 'json',
  // Migrated and seeded below: the API and the worker skip doing it again (also when restarted).
  DATABASE_PREPARED: '1',
  // Node keeps what it compiled of the API's and the worker's modules here: the next start loads them
  // without compiling again (a quarter less CPU to the first answer, docs/benchmarks.md).
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? path.join(path.resolve(env.DATA_DIR), 'compile-cache'),
};

/**
 * The database's address once it is started and prepared. The API process is started before that:
 * loading its modules is most of its start, and it does so while PostgreSQL starts; it takes the
 * address from this process when ready (api/src/main.ts, DATABASE_URL_FROM_PARENT). A child started
 * later (the worker, a restart) gets it in its environment.
 */
let knownDatabaseUrl: string | undefined;
let databaseIsReady: (url: string) => void = () => {};
const databaseReady = new Promise<string>((resolve) => (databaseIsReady = resolve)).then((url) => (knownDatabaseUrl = url));

/** The children's JSON lines as they are, or made readable when this process logs for a terminal. */
const showChildLine: (line: string) => string = env.LOG_FORMAT === 'pretty' ? prettyLines() : (line) => line + '\n';

const children = new Map<string, ChildProcess>();
let stopping = false;

/** Names of the children that have started successfully at least once. */
const everReady = new Set<string>();

/**
 * Runs a child and restarts it when it dies. A child that dies before it ever said it is ready
 * (a port taken meanwhile, a bad configuration) would only die again: then everything stops.
 */
function run(name: string, script: string, onReady?: () => void) {
  const child = knownDatabaseUrl
    ? spawn(process.execPath, [script], { cwd: root, env: { ...childEnv, DATABASE_URL: knownDatabaseUrl }, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
    : spawn(process.execPath, [script], { cwd: root, env: { ...childEnv, DATABASE_URL_FROM_PARENT: '1' }, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  if (!knownDatabaseUrl) void databaseReady.then((url) => child.connected && child.send(url));
  children.set(name, child);
  createInterface({ input: child.stdout! }).on('line', (line) => process.stdout.write(line.startsWith('{') ? showChildLine(line) : line + '\n'));
  // Ready is a message, not a log line: with LOG_LEVEL=warn the child logs no "listening" line, and
  // waiting for one left the worker unstarted (no turn ever ran).
  child.on('message', (message) => {
    if (message !== CHILD_READY || everReady.has(name)) return;
    everReady.add(name);
    onReady?.();
  });
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (stopping) return;
    if (!everReady.has(name)) {
      logger.fatal(`${name} could not start (${signal ?? code}); see its error above`);
      void shutdown('startup failure', 1);
      return;
    }
    log(`${name} exited (${signal ?? code}); restarting in 2 s`);
    setTimeout(() => !stopping && run(name, script), 2000);
  });
}

// The worker starts once the API answers: loading both at once, they share the cores and the
// first answer waits for both. "running" is said when both are ready (scripts and the journeys wait
// for it before advancing a turn, which needs the worker).
run('api', path.join(root, 'api/src/main.ts'), () => {
  if (!stopping) run('worker', path.join(root, 'worker/src/main.ts'), () => log(`Marketcraft is running at http://localhost:${env.PORT}`));
});

let embedded: EmbeddedServer | undefined;
const databaseUrlFile = path.join(path.resolve(env.DATA_DIR), 'database-url');
let databaseUrl = env.DATABASE_URL;
if (!databaseUrl) {
  const dataDir = path.join(path.resolve(env.DATA_DIR), 'postgres');
  log(`starting the embedded PostgreSQL server (data in ${dataDir})...`);
  try {
    embedded = await startEmbeddedPostgres({ dataDir });
  } catch (error) {
    // Said plainly, and the API process (started above, waiting for the database) stops too.
    logger.fatal(error instanceof Error ? error.message : `the embedded PostgreSQL could not start: ${String(error)}`);
    stopping = true;
    for (const child of children.values()) child.kill('SIGTERM');
    process.exit(1);
  }
  databaseUrl = embedded.urlFor('marketcraft');
  const admin = (await import('postgres')).default(embedded.url, { max: 1, onnotice: () => {} });
  const [exists] = await admin`select 1 from pg_database where datname = 'marketcraft'`;
  if (!exists) await admin.unsafe('create database marketcraft');
  await admin.end();
  // The admin CLI (`npm run admin -- grant <email>`) finds the running game's database here.
  writeFileSync(databaseUrlFile, databaseUrl + '\n', { mode: 0o600 });
}

/** What preparing the database runs: the migrations, the seed and the code and data it uses. */
const PREPARATION_INPUTS = ['db/src', 'db/migrations', 'shared/src', 'package-lock.json'];

/** A hash of every file of PREPARATION_INPUTS (names and contents). */
function preparationFingerprint(): string {
  const hash = createHash('sha256');
  const add = (file: string) => {
    const stats = statSync(file, { throwIfNoEntry: false });
    if (!stats) return;
    if (stats.isDirectory()) {
      for (const name of readdirSync(file).sort()) add(path.join(file, name));
      return;
    }
    hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  };
  for (const input of PREPARATION_INPUTS) add(path.join(root, input));
  return hash.digest('hex');
}

// Only for the embedded server, whose data lives beside this file: another database (DATABASE_URL)
// may have been changed by anyone since, so it is always prepared (migrations and seed are idempotent).
const preparedFile = path.join(path.resolve(env.DATA_DIR), 'prepared');
const fingerprint = embedded ? preparationFingerprint() : '';
if (embedded && readFileSync(preparedFile, { encoding: 'utf8', flag: 'a+' }).trim() === fingerprint) {
  log('the database is prepared: migrations and seed unchanged since it last was');
} else {
  log('applying migrations and seeding the world if needed...');
  const { prepareDatabase } = await import('@marketcraft/db/migrate.ts');
  await prepareDatabase(databaseUrl);
  if (embedded) writeFileSync(preparedFile, fingerprint + '\n');
}

databaseIsReady(databaseUrl);

/** How long a child may take to stop after SIGTERM before it is killed. */
const CHILD_STOP_TIMEOUT_MS = 45_000;

async function shutdown(signal: string, exitCode = 0) {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping...`);
  await Promise.all(
    [...children.values()].map(
      (child) =>
        new Promise<void>((resolve) => {
          // The API lets requests finish for up to 10 s and the worker a running turn for up to 30 s.
          const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_STOP_TIMEOUT_MS);
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
