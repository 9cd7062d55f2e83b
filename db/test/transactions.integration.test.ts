/**
 * The database handle as the API connects it (db/src/client.ts: single statements on a small pool
 * of their own, transactions on the other) keeps every rule of a transaction: all or nothing, a
 * caught statement error still rolls back, a failed nested transaction rolls back to its savepoint
 * only, statements sent together (pipelined) run in order; and single statements are answered
 * while every transaction connection is held.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { connectDatabase, type DatabaseConnection } from '../src/client.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing/freshDatabase.ts';

let database: TestDatabase;
let split: DatabaseConnection;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.execute(sql`create table tx_probe (id int primary key, note text not null)`);
  // As the API connects: single statements on a pool of their own (1 connection here).
  split = connectDatabase(database.url, { max: 4, statementConnections: 1 });
});

afterAll(async () => {
  await split?.close();
  await database?.close();
});

async function notes(): Promise<string[]> {
  const rows = await database.db.execute<{ note: string }>(sql`select note from tx_probe order by id`);
  return rows.map((row) => row.note);
}

describe('transactions of the database handle', () => {
  it('commits every statement of a transaction that succeeds, and returns its result', async () => {
    await database.db.execute(sql`delete from tx_probe`);
    const result = await split.db.transaction(async (tx) => {
      await tx.execute(sql`insert into tx_probe values (1, 'first')`);
      await tx.execute(sql`insert into tx_probe values (2, 'second')`);
      return 'done';
    });
    expect(result).toBe('done');
    expect(await notes()).toEqual(['first', 'second']);
  });

  it('writes nothing when the callback throws after its statements ran', async () => {
    await database.db.execute(sql`delete from tx_probe`);
    await expect(
      split.db.transaction(async (tx) => {
        await tx.execute(sql`insert into tx_probe values (1, 'kept?')`);
        throw new Error('refused after the write');
      }),
    ).rejects.toThrow('refused after the write');
    expect(await notes()).toEqual([]);
  });

  it('fails and writes nothing when a statement failed even though the callback caught its error', async () => {
    await database.db.execute(sql`delete from tx_probe`);
    await expect(
      split.db.transaction(async (tx) => {
        await tx.execute(sql`insert into tx_probe values (1, 'before')`);
        await tx.execute(sql`insert into tx_probe values (1, 'duplicate')`).catch(() => 'ignored');
        return 'pretends to be fine';
      }),
    ).rejects.toThrow();
    expect(await notes()).toEqual([]);
  });

  it('rolls a failed nested transaction back to its savepoint and keeps the outer one', async () => {
    await database.db.execute(sql`delete from tx_probe`);
    await split.db.transaction(async (tx) => {
      await tx.execute(sql`insert into tx_probe values (1, 'outer')`);
      await expect(
        tx.transaction(async (nested) => {
          await nested.execute(sql`insert into tx_probe values (2, 'nested')`);
          throw new Error('nested refused');
        }),
      ).rejects.toThrow('nested refused');
      await tx.transaction(async (nested) => {
        await nested.execute(sql`insert into tx_probe values (3, 'nested ok')`);
      });
    });
    expect(await notes()).toEqual(['outer', 'nested ok']);
  });

  it('runs statements in order when they are sent together (pipelined) inside a transaction', async () => {
    await database.db.execute(sql`delete from tx_probe`);
    const [, , count] = await split.db.transaction((tx) =>
      Promise.all([
        tx.execute(sql`insert into tx_probe values (1, 'a')`),
        tx.execute(sql`update tx_probe set note = note || 'b' where id = 1`),
        tx.execute<{ note: string }>(sql`select note from tx_probe where id = 1`),
      ]),
    );
    expect(count[0]?.note).toBe('ab');
  });

  it('answers single statements while every transaction connection is busy (their own pool)', async () => {
    await database.db.execute(sql`delete from tx_probe`);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Four transactions hold the transaction pool's four connections...
    const holders = Array.from({ length: 4 }, (_, index) =>
      split.db.transaction(async (tx) => {
        await tx.execute(sql`insert into tx_probe values (${index + 1}, 'held')`);
        await held;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    // ...and a single statement still runs (it would wait for them on a shared pool).
    const [row] = await split.db.execute<{ answer: number }>(sql`select 42 as answer`);
    expect(Number(row?.answer)).toBe(42);
    release();
    await Promise.all(holders);
    expect(await notes()).toEqual(['held', 'held', 'held', 'held']);
  });
});
