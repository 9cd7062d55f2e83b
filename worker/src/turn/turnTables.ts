/**
 * The turn's working tables (turn_companies, turn_production, turn_cash, ...): temporary tables that
 * live as long as the worker's database connection and are emptied at every commit (ON COMMIT
 * DELETE ROWS), instead of being created and dropped by every turn.
 *
 * Why: creating a temporary table and dropping it at commit writes and deletes its catalog rows,
 * creates and unlinks its file and sends cache invalidations, about 2 ms of PostgreSQL CPU per
 * table; a turn uses ~30 of them, most of a class world's turn whatever its size. Emptying a table
 * at commit is ~0.5 ms (docs/benchmarks.md, "2026-12-07 (later): class worlds, ...").
 *
 * How: the first turn on a connection creates each table from its query's columns (`with no
 * data`); every turn then fills it (`insert`). A turn that fails leaves its rows rolled back, and a
 * table first created by a failed turn is rolled back with it. Each table has one query (its
 * columns never change within a process). Statements are writes, so the turn pipelines them.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { DbExecutor } from '@marketcraft/db';

/** The name of a turn table (a fixed identifier, never input). */
type TurnTableName = `turn_${string}`;

/**
 * A world with more companies than this is "large": its turn tables keyed by company get a unique
 * index. Why not always: the index is what the planner needs at 10,000 companies (never analyzed,
 * a temporary table's column is otherwise guessed at 200 distinct values, and the join plans follow
 * that guess), but emptying an indexed table at commit rebuilds its empty index, which invalidates
 * every cached plan that reads the table: a class world's turn then planned each of its ~100
 * statements again every turn, about a quarter of its PostgreSQL CPU (docs/turn.md). Without the
 * index a small world's statements keep their plans from turn to turn (prepared statements,
 * db/src/client.ts). A large world's turn drops its indexes before it commits (`dropTurnKeys`), so
 * the small worlds' turns after it on the same connection find none.
 */
export const SMALL_WORLD_MAX_COMPANIES = 200;

/** The `key` of a turn table keyed by company (fillTurnTable): indexed in a large world's turn only. */
export function companyKey(largeWorld: boolean): string | undefined {
  return largeWorld ? 'company_id' : undefined;
}

/** Drops the key indexes a large world's turn created on the turn tables (before its commit empties them). */
export async function dropTurnKeys(tx: DbExecutor): Promise<void> {
  await tx.execute(sql`
    do $$ declare name text; begin
      for name in select c.relname from pg_class c where c.relnamespace = pg_my_temp_schema() and c.relkind = 'i' and c.relname like 'turn%key' loop
        execute format('drop index pg_temp.%I', name);
      end loop;
    end $$`);
}

/**
 * Fills the turn table `name` with the rows of `query` (a select, possibly with CTEs that only
 * read), creating the table on this connection the first time. `key`: its unique columns, indexed
 * for this turn (a large world's: `companyKey`).
 */
export async function fillTurnTable(tx: DbExecutor, name: TurnTableName, query: SQL, options: { key?: string } = {}): Promise<void> {
  const table = sql.raw(name);
  await tx.execute(sql`create temp table if not exists ${table} on commit delete rows as ${query} with no data`);
  if (options.key) await tx.execute(sql`create unique index if not exists ${sql.raw(`${name}_key`)} on ${table} (${sql.raw(options.key)})`);
  await tx.execute(sql`insert into ${table} ${query}`);
}

/** Creates the turn table `name` with these columns on this connection unless it exists (emptied at every commit). */
export async function declareTurnTable(tx: DbExecutor, name: TurnTableName, columns: SQL): Promise<void> {
  await tx.execute(sql`create temp table if not exists ${sql.raw(name)} (${columns}) on commit delete rows`);
}

/**
 * Runs `run` with the planner's nested loops off (`set local`: inside the turn's transaction only),
 * then on again. For a statement built on CTEs or unanalyzed turn tables whose row counts the
 * planner cannot see: it guesses a handful and looks rows up one by one, where a hash join reads
 * each side once (each caller says why). If `run` fails, the transaction is rolled back with its
 * setting, so there is nothing to restore.
 */
export async function withoutNestedLoops<T>(tx: DbExecutor, run: () => Promise<T>): Promise<T> {
  await tx.execute(sql`set local enable_nestloop = off`);
  const result = await run();
  await tx.execute(sql`set local enable_nestloop = on`);
  return result;
}
