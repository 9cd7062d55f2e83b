import { AsyncLocalStorage } from 'node:async_hooks';
import postgres from 'postgres';
import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import { sql } from 'drizzle-orm';
import * as schema from './schema/index.ts';

export type Database = PostgresJsDatabase<typeof schema>;
/** Column names in the database are the schema's property names in snake_case. */
export const DB_CASING = 'snake_case';
/** A database handle or an open transaction: game operations accept either. */
export type DbExecutor = Database | Transaction;
/** An open transaction (or a savepoint in one). */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

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
  /**
   * The same database for writes outside a transaction: with `statementConnections`, their single
   * statements run on the transaction pool instead of the small one (a write may wait for a row
   * lock, e.g. a company row the turn holds for the whole turn; on the small pool the reads
   * pipelined behind it would wait too). Without, `db` itself.
   */
  writes: Database;
  sql: postgres.Sql;
  close: () => Promise<void>;
}

/** A guarded request (`withWriteGuard`): its savepoint's own name, and the savepoint once sent (a failure surfaces when the request ends). */
interface WriteGuard {
  name: string;
  savepoint: Promise<unknown> | null;
}

let writeGuardsMade = 0;

const writeGuards = new AsyncLocalStorage<WriteGuard>();

/** `for update` and its kin: a read that locks its rows, which writes nothing. */
const ROW_LOCK_CLAUSE = /\bfor\s+(?:no\s+key\s+update|update|key\s+share|share)\b/gi;
/** Words of a statement that may change something a savepoint's rollback undoes. */
const WRITE_WORD = /\b(?:insert|update|delete|merge|truncate|create|drop|alter|nextval|setval|set_config|refuse_statement)\b/i;

/**
 * Whether a statement may write: anything but a `select` (or `with ... select`) whose text, its
 * row lock clauses aside, names no writing command or function. Errs on the side of a write.
 */
export function mayWrite(query: string): boolean {
  const text = query.replace(/^(?:\s|\/\*[\s\S]*?\*\/)+/, '');
  if (!/^(?:select|with)\b/i.test(text)) return true;
  return WRITE_WORD.test(text.replace(ROW_LOCK_CLAUSE, ''));
}

/**
 * Runs `run` (one request inside the caller's transaction `tx`) with a savepoint made only just
 * before its first statement that may write (mayWrite), sent with that statement, and none if it
 * only reads. `undo()` rolls back to that savepoint when there is one: what the request wrote, and
 * nothing before it. Replay decides a request the log keeps as refused this way (`actOutcome`):
 * nearly all of them are refused on what they read, before any write, and then cost no savepoint
 * and no rollback (two statements of their five). A read that fails and is caught leaves the
 * transaction failed: the caller's next statement fails (never a silent difference).
 */
export async function withWriteGuard<T>(tx: Transaction, run: () => Promise<T>): Promise<{ result: T; wrote: boolean; undo: () => Promise<void> }> {
  // Its own name: a rollback to it can never reach another request's savepoint.
  const guard: WriteGuard = { name: `request_writes_${(writeGuardsMade += 1)}`, savepoint: null };
  let result: T;
  try {
    result = await writeGuards.run(guard, run);
  } finally {
    await guard.savepoint;
  }
  const wrote = guard.savepoint !== null;
  return {
    result,
    wrote,
    undo: async () => {
      if (wrote) await tx.execute(sql.raw(`rollback to savepoint ${guard.name}`));
    },
  };
}

/**
 * Sends the guarded request's savepoint on its connection before a statement that may write (or a
 * nested savepoint: `query` undefined), if the request is guarded and has none yet.
 */
function guardWrites(connection: postgres.Sql, query?: string): void {
  const guard = writeGuards.getStore();
  if (!guard || guard.savepoint !== null || (query !== undefined && !mayWrite(query))) return;
  // Sent now, before the write is (drizzle sends a statement when it is awaited): both in one socket write.
  const savepoint = connection.unsafe(`savepoint ${guard.name}`).execute();
  savepoint.catch(() => {}); // awaited by withWriteGuard, which reports a failure
  guard.savepoint = savepoint;
}

/**
 * drizzle sends every query through postgres.js's `unsafe` with `prepare: false`, and postgres.js
 * then runs a query with parameters in two round trips (parse and describe, then bind and
 * execute), parsed and planned every time. This makes those calls prepare instead: the first run
 * of a query text on a connection prepares it, later runs are one round trip with the statement
 * (and, after five runs, often its plan) cached by PostgreSQL. Transactions and savepoints hand
 * their own `sql` to the callback, so those are wrapped too.
 *
 * `statements`: when given, single statements outside a transaction (drizzle's `unsafe` calls on
 * the database handle) run on this other pool instead of `client`'s, while transactions and
 * cursors keep `client`'s connections (see connectDatabase's `statementConnections`).
 */
function preparingStatements(client: postgres.Sql, statements: postgres.Sql = client): postgres.Sql {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'unsafe') {
        return (query: string, args?: unknown[], options?: object) => {
          guardWrites(statements, query);
          return statements.unsafe(query, args as postgres.ParameterOrJSON<never>[], { ...options, prepare: true });
        };
      }
      if (property === 'begin' || property === 'savepoint') {
        const start = Reflect.get(target, property, receiver) as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]) => {
          // A nested savepoint of a guarded request comes after the guard's: a rollback to it keeps the guard's.
          if (property === 'savepoint') guardWrites(statements);
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
    /** Connections for transactions and cursors (and for single statements too, without `statementConnections`). */
    max?: number;
    /**
     * A separate, small pool for single statements outside transactions (the API's reads, session
     * checks and one-statement writes). postgres.js sends a query to an idle connection, else
     * pipelines it behind the queries in flight on a busy one, batching them into one socket
     * write; PostgreSQL then reads several from one read. Under load a few connections thus carry
     * many requests with far fewer system calls on both sides (bench:api: a light authenticated
     * read 2,500 -> 3,600 req/s with 3 connections instead of 20). Transactions stay on the other
     * pool: one holds its connection for all its round trips, and a few of them would otherwise
     * hold every connection of a small pool while statements wait.
     */
    statementConnections?: number;
    applicationName?: string;
    /** Server settings of every connection of the pool, sent at connection start (e.g. the worker's TURN_SESSION_SETTINGS). */
    settings?: Record<string, string>;
    /** Called for each statement sent, with its text (a benchmark counts its round trips: `npm run replay -- --bench`). */
    onStatement?: (query: string) => void;
  } = {},
): DatabaseConnection {
  const clientOptions = (max: number): postgres.Options<Record<string, postgres.PostgresType>> => ({
    max,
    onnotice: () => {},
    ...(options.onStatement ? { debug: (_connection: number, query: string) => options.onStatement!(query) } : {}),
    connection: { ...options.settings, application_name: options.applicationName ?? 'marketcraft' },
    types: {
      // int8 comes back as a JS number: all our bigints are cents or counts far below 2^53.
      bigint: { to: 20, from: [20], serialize: (value: number) => String(value), parse: (value: string) => Number(value) },
    },
  });
  const client = postgres(url, clientOptions(options.max ?? 10));
  const statements = options.statementConnections ? postgres(url, clientOptions(options.statementConnections)) : client;
  const sql = preparingStatements(client, statements);
  const db = drizzle(sql, { schema, casing: DB_CASING });
  const writes = statements === client ? db : drizzle(preparingStatements(client), { schema, casing: DB_CASING });
  return {
    db,
    writes,
    sql,
    close: async () => {
      await Promise.all([client.end({ timeout: 5 }), statements === client ? undefined : statements.end({ timeout: 5 })]);
    },
  };
}

/** PostgreSQL's error codes the game answers (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
export const UNIQUE_VIOLATION = '23505';
export const LOCK_NOT_AVAILABLE = '55P03';
/** A statement sent after one that failed in the same transaction (no savepoint rolled back to). */
export const IN_FAILED_TRANSACTION = '25P02';

/**
 * Whether `error` is PostgreSQL's error `code` (e.g. '23505' unique_violation), wherever the driver
 * or drizzle put it in the cause chain.
 */
export function isPostgresError(error: unknown, code: string): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    if ((current as { code?: unknown }).code === code) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
