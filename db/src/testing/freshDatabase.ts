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
 */
export async function createTestDatabase(options: { max?: number } = {}): Promise<TestDatabase> {
  const serverUrl = inject('testServerUrl');
  const template = inject('testTemplateDatabase');
  const name = `${inject('testRunId')}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}" template "${template}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = replaceDatabase(serverUrl, name);
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
