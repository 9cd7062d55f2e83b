import { sql, type SQL, type AnyColumn } from 'drizzle-orm';

/** `column in ('a', 'b', ...)` for CHECK constraints over a fixed vocabulary. */
export function inList(column: AnyColumn, values: readonly string[]): SQL {
  const list = values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', ');
  return sql`${column} in (${sql.raw(list)})`;
}
