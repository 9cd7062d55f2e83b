/**
 * The pieces of one-statement actions (db/src/statements.ts, sqlTemplate.ts, moneySql.ts): a
 * statement that refuses undoes all its writes, alone and inside a transaction (which goes on); a
 * template runs the same alone and inside another query; money written by SQL reads as formatCents.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { formatCents } from '@marketcraft/shared';
import { createTestDatabase, type TestDatabase } from '../src/testing/freshDatabase.ts';
import { sqlTemplate } from '../src/sqlTemplate.ts';
import { formatCentsSql } from '../src/moneySql.ts';
import postgres from 'postgres';
import { STATEMENTS_PER_KEY, isStatementRefusal, runAction, runAlone } from '../src/statements.ts';
import type { DbExecutor } from '../src/client.ts';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.execute(sql`create table refusal_probe (id int primary key, note text not null)`);
});

afterAll(async () => {
  await database?.close();
});

async function notes(): Promise<string[]> {
  const rows = await database.db.execute<{ note: string }>(sql`select note from refusal_probe order by id`);
  return rows.map((row) => row.note);
}

/** Writes a row, then refuses when `refuse` is true: the write must not survive. */
const writeThenCheck = sqlTemplate<'id' | 'note' | 'refuse'>(
  (slot) => sql`
    with written as (insert into refusal_probe values (${slot('id')}::int, ${slot('note')}::text) returning id)
    select case when ${slot('refuse')}::boolean then refuse_statement('probe refused') else (select count(*) from written)::int end as written`,
);

function write(db: DbExecutor, id: number, note: string, refuse: boolean) {
  return runAlone(db, (executor) => executor.execute<{ written: number }>(writeThenCheck({ id, note, refuse })));
}

describe('one-statement actions', () => {
  it('a statement that refuses writes nothing, and its error says it refused', async () => {
    await database.db.execute(sql`delete from refusal_probe`);
    const error = await write(database.db, 1, 'refused', true).catch((caught: unknown) => caught);
    expect(isStatementRefusal(error)).toBe(true);
    expect(await notes()).toEqual([]);
    expect(await write(database.db, 2, 'kept', false)).toEqual([{ written: 1 }]);
    expect(await notes()).toEqual(['kept']);
  });

  it('inside a transaction a refusal undoes only that statement and the transaction goes on', async () => {
    await database.db.execute(sql`delete from refusal_probe`);
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into refusal_probe values (1, 'before')`);
      const error = await write(tx, 2, 'refused', true).catch((caught: unknown) => caught);
      expect(isStatementRefusal(error)).toBe(true);
      await write(tx, 3, 'after', false);
    });
    expect(await notes()).toEqual(['before', 'after']);
  });

  it('other errors are not refusals', async () => {
    await database.db.execute(sql`delete from refusal_probe`);
    await write(database.db, 1, 'first', false);
    const duplicate = await write(database.db, 1, 'again', false).catch((caught: unknown) => caught);
    expect(duplicate).toBeInstanceOf(Error);
    expect(isStatementRefusal(duplicate)).toBe(false);
  });

  it('a template gives the same rows alone and inside another query, with its constant parameters', async () => {
    const doubled = sqlTemplate<'value'>((slot) => sql`select ${slot('value')}::int * ${2}::int as n`);
    expect(await database.db.execute(doubled({ value: 21 }))).toEqual([{ n: 42 }]);
    expect(await database.db.execute(doubled({ value: 5 }))).toEqual([{ n: 10 }]);
    const nested = await database.db.execute<{ n: number; m: number }>(sql`select t.n, ${7}::int as m from (${doubled({ value: 4 })}) t`);
    expect(nested).toEqual([{ n: 8, m: 7 }]);
  });

  it('money written by SQL reads exactly as formatCents writes it', async () => {
    // Seeded: the same values every run.
    let seed = 20261128;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const amounts = [0, 1, 5, 10, 99, 100, 101, 999, 1_000, 99_999, 100_000, 123_456_789, 1_000_000_000_000, -1, -150, -123_456_789];
    for (let index = 0; index < 200; index++) amounts.push(Math.floor(random() * 10 ** Math.floor(random() * 13)));
    const rows = await database.db.execute<{ cents: string; text: string }>(
      sql`select c::text as cents, ${formatCentsSql(sql`c`)} as text from unnest(${`{${amounts.join(',')}}`}::bigint[]) as c`,
    );
    expect(rows.map((row) => row.text)).toEqual(amounts.map((cents) => formatCents(cents)));
  });
});

/**
 * runAction inside a transaction does not wait for a place among the few statements of its key
 * (runFewAtATime): a transaction holds its connection while it waits, and a statement of the same
 * key alone (the public world's trade) that got the place before it may need a connection. With
 * every connection held by transactions waiting behind it, nothing moved again: the API hung
 * (a class world's trades of one product during a public turn, with the public world trading it).
 */
describe('runAction with few connections', () => {
  it('transactions waiting for a key never starve the statements alone that went first of connections', { timeout: 30_000 }, async () => {
    const small = await createTestDatabase({ max: 2 });
    const outside = postgres(small.url, { max: 2, onnotice: () => {} });
    try {
      await small.db.execute(sql`create table lane_probe (id int primary key, n int not null)`);
      await small.db.execute(sql`insert into lane_probe values (1, 0)`);
      const bump = sql`update lane_probe set n = n + 1 where id = 1 returning n`;
      const action = (db: DbExecutor) => runAction<{ n: number }>(db, { key: 'lane-probe', statement: bump, whyRefused: async () => null });
      // The row is locked from outside: the first STATEMENTS_PER_KEY actions alone take the places and wait for it.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const holding = new Promise<void>((resolve) => (locked = resolve));
      const outsideLock = outside.begin(async (tx) => {
        await tx.unsafe('select 1 from lane_probe where id = 1 for update');
        locked();
        await released;
      });
      await holding;
      const runs: Promise<unknown>[] = [];
      for (let index = 0; index < STATEMENTS_PER_KEY; index++) runs.push(action(small.db));
      for (let attempt = 0; attempt < 200; attempt++) {
        const [row] = await outside.unsafe(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
        if (Number(row!.n) >= 2) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      // More alone wait for a place; then transactions (one per connection) ask for connections and the key.
      for (let index = 0; index < STATEMENTS_PER_KEY; index++) runs.push(action(small.db));
      for (let index = 0; index < 2; index++) runs.push(small.db.transaction(async (tx) => action(tx)));
      await new Promise((resolve) => setTimeout(resolve, 100));
      release();
      await outsideLock;
      const all = Promise.all(runs).then(() => 'done');
      const stuck = new Promise((resolve) => setTimeout(() => resolve('stuck'), 5_000));
      expect(await Promise.race([all, stuck])).toBe('done');
      const [row] = await small.db.execute<{ n: number }>(sql`select n from lane_probe where id = 1`);
      expect(Number(row!.n)).toBe(2 * STATEMENTS_PER_KEY + 2);
    } finally {
      await outside.end({ timeout: 1 });
      await small.drop();
    }
  });
});
