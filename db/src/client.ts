import postgres from 'postgres';
import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import * as schema from './schema/index.ts';

export type Database = PostgresJsDatabase<typeof schema>;
/** Column names in the database are the schema's property names in snake_case. */
export const DB_CASING = 'snake_case';
/** A database handle or an open transaction: game operations accept either. */
export type DbExecutor = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * The postgres.js client under a drizzle database (drizzle keeps it as `$client`), for what drizzle
 * has no API for: cursors (the world exports stream their rows through one).
 */
export function databaseClient(db: Database): postgres.Sql {
  const client = (db as Database & { $client?: postgres.Sql }).$client;
  if (!client) throw new Error('this database handle has no postgres.js client');
  return client;
}

export interface DatabaseConnection {
  db: Database;
  sql: postgres.Sql;
  close: () => Promise<void>;
}

/**
 * drizzle sends every query through postgres.js's `unsafe` with `prepare: false`, and postgres.js
 * then runs a query with parameters in two round trips (parse and describe, then bind and
 * execute), parsed and planned every time. This makes those calls prepare instead: the first run
 * of a query text on a connection prepares it, later runs are one round trip with the statement
 * (and, after five runs, often its plan) cached by PostgreSQL. Transactions and savepoints hand
 * their own `sql` to the callback, so those are wrapped too.
 */
function preparingStatements(client: postgres.Sql): postgres.Sql {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'unsafe') {
        return (query: string, args?: unknown[], options?: object) =>
          target.unsafe(query, args as postgres.ParameterOrJSON<never>[], { ...options, prepare: true });
      }
      if (property === 'begin' || property === 'savepoint') {
        const start = Reflect.get(target, property, receiver) as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]) => {
          const callback = args[args.length - 1] as (inner: postgres.Sql) => unknown;
          return start.call(target, ...args.slice(0, -1), (inner: postgres.Sql) => callback(preparingStatements(inner)));
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

export function connectDatabase(
  url: string,
  options: {
    max?: number;
    applicationName?: string;
    /** Server settings of every connection of the pool, sent at connection start (e.g. the worker's TURN_SESSION_SETTINGS). */
    settings?: Record<string, string>;
  } = {},
): DatabaseConnection {
  const client = postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    connection: { ...options.settings, application_name: options.applicationName ?? 'marketcraft' },
    types: {
      // int8 comes back as a JS number: all our bigints are cents or counts far below 2^53.
      bigint: { to: 20, from: [20], serialize: (value: number) => String(value), parse: (value: string) => Number(value) },
    },
  });
  const sql = preparingStatements(client);
  const db = drizzle(sql, { schema, casing: DB_CASING });
  return { db, sql, close: () => client.end({ timeout: 5 }) };
}
