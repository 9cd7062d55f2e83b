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
import { isStatementRefusal, runAlone } from '../src/statements.ts';
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
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const amounts = [0, 1, 5, 10, 99, 100, 101, 999, 1_000, 99_999, 100_000, 123_456_789, 1_000_000_000_000, -1, -150, -123_456_789];
    for (let index = 0; index < 200; index++) amounts.push(Math.floor(random() * 10 ** Math.floor(random() * 13)));
    const rows = await database.db.execute<{ cents: string; text: string }>(
      sql`select c::text as cents, ${formatCentsSql(sql`c`)} as text from unnest(${`{${amounts.join(',')}}`}::bigint[]) as c`,
    );
    expect(rows.map((row) => row.text)).toEqual(amounts.map((cents) => formatCents(cents)));
  });
});
