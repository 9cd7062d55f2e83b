/**
 * One-statement actions (docs/architecture.md, "One-statement actions"): a player action done by a
 * single statement whose conditional writes are checked at its end; when one did not happen the
 * statement calls refuse_statement (migration 0019), which fails it and so undoes all of it.
 */
import { sql, type SQL } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { GameError } from '@marketcraft/shared';
import type { DbExecutor } from './client.ts';

/**
 * True when the world's week that the statement's snapshot reads is still the world's week now
 * (world_week_now, migration 0020). A statement's snapshot is taken when it starts: a trade that
 * then waited for its company's row lock while a turn held it would otherwise book its ledger rows
 * and its market flow in the week the turn closed, at that week's prices. `worldId` must come from
 * the statement's locked rows (so it is read after the locks); when this is false the statement
 * refuses, its refusal finds no reason and it runs again on a fresh snapshot (runAction).
 */
export function weekUnchangedSql(worldId: SQL): SQL {
  return sql`(select current_week from worlds where id = ${worldId}) = world_week_now(${worldId})`;
}

/** The SQLSTATE refuse_statement raises. */
const STATEMENT_REFUSED = 'MC001';

/** Whether an error is a statement's refusal (drizzle hands PostgreSQL's error on as the cause). */
export function isStatementRefusal(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if ((cause as { code?: unknown }).code === STATEMENT_REFUSED) return true;
  }
  return false;
}

/**
 * Runs a statement that may refuse. Alone it is its own transaction; inside a transaction (a
 * private world's action, a bot's in the turn) it gets a savepoint, so its refusal undoes it and
 * leaves the transaction usable.
 */
export function runAlone<T>(db: DbExecutor, run: (executor: DbExecutor) => Promise<T>): Promise<T> {
  return db instanceof PgTransaction ? db.transaction((savepoint) => run(savepoint)) : run(db);
}

/** Statements running per key, and the starts waiting for a place (runFewAtATime). */
const lanes = new Map<string, { running: number; waiting: (() => void)[] }>();

/**
 * How many statements of one key run at once. Trades of one issuer or one product take the same
 * row lock: when 50 of them wait in PostgreSQL, each commit wakes every waiter and all but one
 * sleep again (a contended trade cost three times the CPU in bench:api). One at a time would add
 * a round trip between each commit and the next trade; with a few, the next one already waits in
 * PostgreSQL when the lock is released.
 */
export const STATEMENTS_PER_KEY = 3;

/**
 * Runs `run` when fewer than STATEMENTS_PER_KEY runs with the same key are running in this process,
 * in the order asked. Correctness does not depend on it: the row locks still order the trades,
 * across processes too.
 */
export async function runFewAtATime<T>(key: string, run: () => Promise<T>): Promise<T> {
  let lane = lanes.get(key);
  if (!lane) lanes.set(key, (lane = { running: 0, waiting: [] }));
  if (lane.running >= STATEMENTS_PER_KEY) await new Promise<void>((start) => lane.waiting.push(start));
  else lane.running++;
  try {
    return await run();
  } finally {
    // The place passes to the next waiting run (running stays the same), or is given back.
    const next = lane.waiting.shift();
    if (next) next();
    else if (--lane.running === 0) lanes.delete(key);
  }
}

/** How many times an action whose rows changed while its statement ran is tried (runAction). */
const ACTION_ATTEMPTS = 5;

/** The answer when an action's rows kept changing under it ACTION_ATTEMPTS times. */
const MARKET_BUSY = 'The market is busy: please try again';

/**
 * Runs a one-statement action and returns its row: a few at a time per `key` (runFewAtATime) when
 * alone, under a savepoint and without waiting for a place inside a transaction (runAlone). When the statement refuses, `whyRefused`
 * reads the reason on the rows as they are now and it is thrown. When it finds none, a row changed
 * while the statement ran (a stale read, never a wrong write): the statement runs again, at most
 * ACTION_ATTEMPTS times, then 409 MARKET_BUSY with Retry-After.
 */
export async function runAction<Row>(db: DbExecutor, action: { key: string; statement: SQL; whyRefused: () => Promise<GameError | null> }): Promise<Row> {
  for (let attempt = 1; ; attempt++) {
    try {
      const run = () => runAlone(db, (executor) => executor.execute<Record<string, unknown>>(action.statement));
      // A transaction holds its connection: waiting here for a place, it could hold the last one a
      // statement alone that got a place before it needs (every connection held by transactions
      // waiting behind that statement: nothing moves again). Inside a transaction the row locks alone order it.
      const [row] = await (db instanceof PgTransaction ? run() : runFewAtATime(action.key, run));
      if (!row) throw new Error(`the statement of ${action.key} answered no row`);
      return row as Row;
    } catch (error) {
      if (!isStatementRefusal(error)) throw error;
      const refusal = await action.whyRefused();
      if (refusal) throw refusal;
      if (attempt >= ACTION_ATTEMPTS) throw new GameError('CONFLICT', MARKET_BUSY, { retryAfterSeconds: 1 });
    }
  }
}
