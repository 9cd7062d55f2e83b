/**
 * One-statement actions (docs/architecture.md, "One-statement actions"): a player action done by a
 * single statement whose conditional writes are checked at its end; when one did not happen the
 * statement calls refuse_statement (migration 0019), which fails it and so undoes all of it.
 */
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { DbExecutor } from './client.ts';

/** The SQLSTATE refuse_statement raises. */
export const STATEMENT_REFUSED = 'MC001';

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
