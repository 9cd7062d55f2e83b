import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { inject } from 'vitest';
import { connectDatabase, type DatabaseConnection } from '../client.ts';
import { replaceDatabase } from './urls.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the maintenance database (`postgres`) on the test server. */
    testServerUrl: string;
    /** Name of the migrated and seeded template database. */
    testTemplateDatabase: string;
    /** Prefix for the databases made from the template during this run. */
    testRunId: string;
  }
}

export interface TestDatabase extends DatabaseConnection {
  url: string;
  name: string;
  /** Closes the connections and drops the database. */
  drop: () => Promise<void>;
}

/**
 * A new database copied from the run's migrated and seeded template: each test file (or test)
 * starts from the freshly seeded world, isolated from every other.
 *
 * `frozenClock`: `now()` in every connection to this database returns the start of the current
 * minute plus 5 seconds, for the whole life of the database. For tests of windows on the clock
 * (the rate limits' minute): a burst that takes 50 s on a loaded machine would otherwise span two
 * minutes whenever it starts late in one. The function `now()` of a schema `frozen_clock`, searched
 * before `pg_catalog` (the database's search_path); column defaults keep the real clock.
 */
export async function createTestDatabase(options: { max?: number; frozenClock?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = inject('testServerUrl');
  const template = inject('testTemplateDatabase');
  const name = `${inject('testRunId')}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    // FILE_COPY copies the template's files as they are; the default (WAL_LOG, PostgreSQL 15+)
    // writes every block of them through the write-ahead log, 3-5x slower for our 13 MB template
    // (docs/benchmarks.md, "npm test's time"). Each test file makes one or more of these copies.
    await admin.unsafe(`create database "${name}" template "${template}" strategy file_copy`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = replaceDatabase(serverUrl, name);
  if (options.frozenClock) await freezeClock(url, name);
  const connection = connectDatabase(url, { max: options.max ?? 10 });
  return {
    ...connection,
    url,
    name,
    drop: async () => {
      await connection.close();
      const cleanup = postgres(serverUrl, { max: 1, onnotice: () => {} });
      try {
        await cleanup.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await cleanup.end({ timeout: 5 });
      }
    },
  };
}

async function freezeClock(url: string, name: string): Promise<void> {
  const setup = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await setup<{ at: string }[]>`select (date_trunc('minute', now()) + interval '5 seconds')::text as at`;
    await setup.unsafe(`create schema frozen_clock`);
    await setup.unsafe(`create function frozen_clock.now() returns timestamptz language sql immutable as $$ select '${row!.at}'::timestamptz $$`);
    // Connections opened from now on (the test's and any server it starts) find frozen_clock.now() first.
    await setup.unsafe(`alter database "${name}" set search_path = "$user", public, frozen_clock, pg_catalog`);
  } finally {
    await setup.end({ timeout: 5 });
  }
}
