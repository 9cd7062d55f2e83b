/**
 * The shape of every player action (docs/actions.md): one function over a list of requests, each a
 * company acting with its input, answering one outcome per request, in the list's order: applied
 * with its result, or refused with the GameError a player would get. The API calls it with a list
 * of one (and throws the refusal), the bots with their whole week's moves; a refused request never
 * undoes another one of the list.
 *
 * An action set-based inside reads what it needs for the whole list (the companies locked first, in
 * id order, as the turn locks them), decides each request in the list's order in plain TypeScript
 * (the cash, stock and levels the earlier requests left), then writes what was decided in a few
 * statements, whatever the length of the list.
 */
import { sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { GameError } from '@marketcraft/shared';
import type { DbExecutor, Transaction } from '../client.ts';
import { notEnoughCashMessage } from './books/ledger.ts';

export interface ActionRequest<I> {
  companyId: number;
  /** The user who sent it (the API); null for a bot. Kept for the action log (replay). */
  actingUserId: number | null;
  input: I;
}

export type Outcome<R> = { applied: true; result: R } | { applied: false; refusal: GameError };

export type PlayerAction<I, R> = (db: DbExecutor, requests: readonly ActionRequest<I>[]) => Promise<Outcome<R>[]>;

export function applied<R>(result: R): Outcome<R> {
  return { applied: true, result };
}

export function refused(refusal: GameError): Outcome<never> {
  return { applied: false, refusal };
}

/** The result of a list of one, or its refusal thrown (what the API answers). */
export function resultOf<R>(outcomes: readonly Outcome<R>[]): R {
  const [outcome] = outcomes;
  if (!outcome) throw new Error('an action answered no outcome');
  if (!outcome.applied) throw outcome.refusal;
  return outcome.result;
}

/**
 * An action's statements as one: in its own transaction when called on the pool, else inside the
 * caller's transaction as they are, without a savepoint of their own. Every caller that runs an
 * action inside a transaction (the door: `act`'s savepoint per request, `actMany`'s list, replay's
 * week) undoes it as a whole when it fails or is refused, and an error fails that whole, so a
 * savepoint here undid nothing more: it was one statement more a request (docs/replay.md).
 */
export function inTransaction<T>(db: DbExecutor, run: (tx: Transaction) => Promise<T>): Promise<T> {
  return db instanceof PgTransaction ? run(db as Transaction) : db.transaction(run);
}

/**
 * A player action done request by request through `one` (rare actions, and actions that are one
 * statement each). A list of one runs as it is (its own transaction or statement); in a longer list
 * each request runs in its own savepoint, so its refusal undoes only its own writes.
 */
export function oneByOne<I, R>(one: (db: DbExecutor, request: ActionRequest<I>) => Promise<R>): PlayerAction<I, R> {
  return async (db, requests) => {
    const outcomes: Outcome<R>[] = [];
    for (const request of requests) {
      try {
        outcomes.push(applied(requests.length === 1 ? await one(db, request) : await db.transaction((savepoint) => one(savepoint, request))));
      } catch (error) {
        if (!(error instanceof GameError)) throw error;
        outcomes.push(refused(error));
      }
    }
    return outcomes;
  };
}

export interface LockedCompany {
  id: number;
  worldId: number;
  cashCents: number;
}

export const NO_COMPANY = 'No company found';

/**
 * Locks the companies' rows in id order (the turn's order: two lists never wait for each other in a
 * cycle) and reads their world and cash. Every write of an action comes after this lock. The
 * statement is sent when this is called (not a tick later): a read the caller sends right after
 * it, before awaiting it, goes in the same round trip and runs after the lock
 * (`inOneRoundTrip`).
 */
export function lockCompanies(db: DbExecutor, companyIds: readonly number[]): Promise<Map<number, LockedCompany>> {
  const ids = [...new Set(companyIds)].sort((a, b) => a - b);
  if (ids.length === 0) return Promise.resolve(new Map());
  // `then` starts drizzle's lazy query now.
  return db
    .execute<{ id: number; world_id: number; cash_cents: number }>(
      sql`
    select id, world_id, cash_cents from companies where id in (${sql.join(
      ids.map((id) => sql`${id}::int`),
      sql`, `,
    )}) order by id for update`,
    )
    .then((rows) => new Map(rows.map((row) => [Number(row.id), { id: Number(row.id), worldId: Number(row.world_id), cashCents: Number(row.cash_cents) }])));
}

/**
 * Statements sent at once, in the order given (one round trip: postgres.js pipelines them on the
 * transaction's connection, and PostgreSQL runs them in that order, each on a snapshot taken when
 * it starts), and their results. Each must be sent when its turn comes: a lazy drizzle query
 * (`db.execute(...)`) is sent here, in the list's order; `lockCompanies` sends its own when called.
 * A failure is the first failing statement's (those after it fail only because it did: a lock
 * timeout stays a lock timeout).
 */
export async function inOneRoundTrip<T extends unknown[]>(...statements: { [K in keyof T]: PromiseLike<T[K]> }): Promise<T> {
  const sent = statements.map((statement) => {
    const answer = new Promise<unknown>((resolve, reject) => {
      // `then` sends a lazy query now, in the list's order.
      void statement.then(resolve, reject);
    });
    answer.catch(() => {}); // reported below, in order
    return answer;
  });
  const results: unknown[] = [];
  for (const answer of sent) results.push(await answer);
  return results as T;
}

/**
 * Each company's cash as the list spends it, request after request: a request that costs more than
 * what its company has left is refused with the ledger's message and spends nothing.
 */
export class Purses {
  private readonly cash = new Map<number, number>();
  constructor(companies: ReadonlyMap<number, LockedCompany>) {
    for (const company of companies.values()) this.cash.set(company.id, company.cashCents);
  }
  /** Takes `costCents` from the company, or answers the refusal (nothing taken). */
  spend(companyId: number, costCents: number): GameError | null {
    const cash = this.cash.get(companyId);
    if (cash === undefined) return new GameError('NOT_FOUND', NO_COMPANY);
    if (costCents > 0 && cash < costCents) return new GameError('NOT_ENOUGH_CASH', notEnoughCashMessage(costCents, cash));
    this.cash.set(companyId, cash - costCents);
    return null;
  }
  /** What the company has left. */
  of(companyId: number): number {
    return this.cash.get(companyId) ?? 0;
  }
}

/** `(values...)` of a list of ids, for `in` clauses. */
export function idList(ids: Iterable<number>): ReturnType<typeof sql> {
  const list = [...new Set(ids)];
  return list.length === 0
    ? sql`(null::int)`
    : sql`(${sql.join(
        list.map((id) => sql`${id}::int`),
        sql`, `,
      )})`;
}
