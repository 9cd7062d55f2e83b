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

/** A guarded request (`withWriteGuard`). */
interface WriteGuard {
  /** Its savepoint's own name. */
  name: string;
  /** The savepoint once sent (a failure surfaces when the request ends). */
  savepoint: Promise<unknown> | null;
  /** Whether it may have written after its savepoint (what `undo` rolls back). */
  wrote: boolean;
  /** Whether it kept writes made before its savepoint, in a nested savepoint that committed. */
  wroteUnguarded: boolean;
}

/**
 * A nested savepoint (`db.transaction` inside a transaction) opened by a guarded request before
 * the guard's savepoint: its own savepoint undoes its writes if it fails (a one-statement action's
 * refusal, `runAlone`), so they need no guard's; if it commits, they stay (`wroteUnguarded`).
 */
interface NestedScope {
  guard: WriteGuard;
  wrote: boolean;
  parent: NestedScope | null;
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
 * only reads. `undo()` rolls back to that savepoint: what the request wrote, and nothing before it.
 * Replay decides a request the log keeps as refused this way (`actOutcome`): nearly all of them
 * are refused on what they read, before any write, and then cost no savepoint and no rollback.
 *
 * A nested savepoint the request opens before its first write (a one-statement action's own) is
 * not preceded by the guard's: if it fails, it undoes its writes itself; if it commits,
 * `wroteUnguarded` says that the request kept writes `undo` cannot reach (the caller must then undo
 * more: replay runs the week again with a savepoint for every request). A read that fails and is
 * caught leaves the transaction failed: the caller's next statement fails, never silently.
 */
export async function withWriteGuard<T>(tx: Transaction, run: () => Promise<T>): Promise<{ result: T; wroteUnguarded: boolean; undo: () => Promise<void> }> {
  // Its own name: a rollback to it can never reach another request's savepoint.
  const guard: WriteGuard = { name: `request_writes_${(writeGuardsMade += 1)}`, savepoint: null, wrote: false, wroteUnguarded: false };
  let result: T;
  try {
    // Awaited inside: a lazy query (drizzle's) runs when awaited, which must be in the guard's context.
    result = await writeGuards.run(guard, async () => await run());
  } finally {
    await guard.savepoint;
  }
  return {
    result,
    wroteUnguarded: guard.wroteUnguarded,
    undo: async () => {
      if (guard.wrote) await tx.execute(sql.raw(`rollback to savepoint ${guard.name}`));
    },
  };
}

/** Notes a statement of a guarded request that may write: sends the request's savepoint first, unless a nested savepoint covers the statement. */
function beforeWrite(guard: WriteGuard, connection: postgres.Sql, nested: NestedScope | null): void {
  if (nested && nested.guard === guard) {
    nested.wrote = true;
    return;
  }
  if (guard.savepoint === null) {
    // Sent now, before the write is (drizzle sends a statement when it is awaited): both in one socket write.
    const savepoint = connection.unsafe(`savepoint ${guard.name}`).execute();
    savepoint.catch(() => {}); // awaited by withWriteGuard, which reports a failure
    guard.savepoint = savepoint;
  }
  guard.wrote = true;
}

/**
 * The nested scope a savepoint opened now belongs to: tracked when the guarded request running has
 * no savepoint yet (its writes are then the nested savepoint's to undo), else null (the guard's
 * savepoint comes before it and covers its writes).
 */
function nestedScope(parent: NestedScope | null): NestedScope | null {
  const guard = writeGuards.getStore();
  if (!guard) return null;
  if (parent && parent.guard === guard) return { guard, wrote: false, parent };
  return guard.savepoint === null ? { guard, wrote: false, parent: null } : null;
}

/** A nested scope that committed: its writes are its parent's now, or the request's beyond its guard. */
function nestedCommitted(scope: NestedScope): void {
  if (!scope.wrote) return;
  if (scope.parent) scope.parent.wrote = true;
  else scope.guard.wroteUnguarded = true;
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
function preparingStatements(client: postgres.Sql, statements: postgres.Sql = client, nested: NestedScope | null = null): postgres.Sql {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'unsafe') {
        return (query: string, args?: unknown[], options?: object) => {
          const guard = writeGuards.getStore();
          if (guard && mayWrite(query)) beforeWrite(guard, statements, nested);
          return statements.unsafe(query, args as postgres.ParameterOrJSON<never>[], { ...options, prepare: true });
        };
      }
      if (property === 'begin' || property === 'savepoint') {
        const start = Reflect.get(target, property, receiver) as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]) => {
          const callback = args[args.length - 1] as (inner: postgres.Sql) => unknown;
          const scope = property === 'savepoint' ? nestedScope(nested) : null;
          const started = start.call(target, ...args.slice(0, -1), (inner: postgres.Sql) => callback(preparingStatements(inner, inner, scope)));
          return scope ? started.then((result) => (nestedCommitted(scope), result)) : started;
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
