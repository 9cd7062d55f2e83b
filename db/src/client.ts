import postgres from 'postgres';
import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import * as schema from './schema/index.ts';

export type Database = PostgresJsDatabase<typeof schema>;
/** A database handle or an open transaction: game operations accept either. */
export type DbExecutor = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

export interface DatabaseConnection {
  db: Database;
  sql: postgres.Sql;
  close: () => Promise<void>;
}

export function connectDatabase(url: string, options: { max?: number; applicationName?: string } = {}): DatabaseConnection {
  const sql = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    connection: { application_name: options.applicationName ?? 'marketcraft' },
    types: {
      // int8 comes back as a JS number: all our bigints are cents or counts far below 2^53.
      bigint: { to: 20, from: [20], serialize: (value: number) => String(value), parse: (value: string) => Number(value) },
    },
  });
  const db = drizzle(sql, { schema, casing: 'snake_case' });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}
