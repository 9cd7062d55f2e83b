/**
 * Money texts written by a statement itself (ledger descriptions of a one-statement action, whose
 * amounts PostgreSQL computes): formatCents' "$1,234.50" in SQL. db/test/moneySql.integration.test.ts
 * checks it against formatCents, the one definition.
 */
import { sql, type SQL } from 'drizzle-orm';

/** "$1,234.50" (and "-$1,234.50") from an integer amount of cents, as formatCents writes it. */
export function formatCentsSql(cents: SQL): SQL {
  return sql`(case when (${cents}) < 0 then '-$' else '$' end || to_char(abs((${cents})::numeric) / 100, 'FM999,999,999,999,999,999,990.00'))`;
}
