/**
 * Sandboxes' housekeeping (docs/replay.md, "Sandbox backtests"): the worker deletes every sandbox
 * SANDBOX_LIFETIME_DAYS after it was made, with all its rows. Wall-clock time is fine here: this is
 * housekeeping, never part of a turn or an action. Only sandboxes are ever deleted; every other
 * world is kept for good.
 */
import { sql } from 'drizzle-orm';
import { SANDBOX_LIFETIME_DAYS } from '@marketcraft/shared';
import type { Database, DbExecutor } from '../../client.ts';

/**
 * The tables that hold a world's rows (a `world_id` column), children before the tables their
 * foreign keys point at, `worlds` last. Read from the live schema, so a table added later is
 * deleted too.
 */
async function worldTablesInDeleteOrder(tx: DbExecutor): Promise<string[]> {
  const tables = await tx.execute<{ table_name: string }>(sql`
    select c.table_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
    where c.table_schema = 'public' and c.column_name = 'world_id'`);
  const edges = await tx.execute<{ child: string; parent: string }>(sql`
    select distinct child.relname as child, parent.relname as parent
    from pg_constraint k join pg_class child on child.oid = k.conrelid join pg_class parent on parent.oid = k.confrelid
    join pg_namespace n on n.oid = child.relnamespace
    where k.contype = 'f' and n.nspname = 'public' and child.oid <> parent.oid`);
  const remaining = new Set(tables.map((row) => row.table_name));
  const ordered: string[] = [];
  // Repeatedly take the tables no remaining table points at (a cycle, should one appear, goes last as it is).
  while (remaining.size > 0) {
    const free = [...remaining].filter((table) => !edges.some((edge) => edge.parent === table && edge.child !== table && remaining.has(edge.child))).sort();
    const next = free.length > 0 ? free : [...remaining].sort();
    for (const table of next) {
      ordered.push(table);
      remaining.delete(table);
    }
  }
  return ordered;
}

/** Deletes one world and every row of it, in the caller's transaction, which holds the world's row (no turn of it runs meanwhile). */
async function deleteWorld(tx: DbExecutor, worldId: number, tables: readonly string[]): Promise<void> {
  for (const table of tables) await tx.execute(sql`delete from ${sql.identifier(table)} where world_id = ${worldId}`);
  await tx.execute(sql`delete from worlds where id = ${worldId}`);
}

/**
 * Deletes the sandboxes made more than SANDBOX_LIFETIME_DAYS before `now`, each in its own
 * transaction; a sandbox whose turn is running (its row locked) waits for the next round. Answers
 * the ids deleted.
 */
export async function deleteExpiredSandboxes(db: Database, now = new Date()): Promise<number[]> {
  const expired = await db.execute<{ id: number }>(sql`
    select id from worlds
    where sandbox_owner_user_id is not null and created_at <= ${now.toISOString()}::timestamptz - make_interval(days => ${SANDBOX_LIFETIME_DAYS})
    order by id`);
  const deleted: number[] = [];
  if (expired.length === 0) return deleted;
  const tables = await worldTablesInDeleteOrder(db);
  for (const { id } of expired) {
    const done = await db.transaction(async (tx) => {
      const [free] = await tx.execute(sql`select 1 from worlds where id = ${id} for update skip locked`);
      if (!free) return false;
      await deleteWorld(tx, Number(id), tables);
      return true;
    });
    if (done) deleted.push(Number(id));
  }
  return deleted;
}
