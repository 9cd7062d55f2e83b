/**
 * Money texts written by a statement itself (ledger descriptions of a one-statement action, whose
 * amounts PostgreSQL computes): formatCents' "$1,234.50" in SQL. db/test/moneySql.integration.test.ts
 * checks it against formatCents, the one definition.
 */
import { sql, type SQL } from 'drizzle-orm';
import { formatCents } from '@marketcraft/shared';

/** "$1,234.50" (and "-$1,234.50") from an integer amount of cents, as formatCents writes it. */
export function formatCentsSql(cents: SQL): SQL {
  return sql`(case when (${cents}) < 0 then '-$' else '$' end || to_char(abs((${cents})::numeric) / 100, 'FM999,999,999,999,999,999,990.00'))`;
}

/**
 * Stand-ins for what only a statement knows in a ledger text it writes: a company's or product's
 * name and the amounts it computes. No text a player types holds \u0001 (control characters are
 * refused), so a name never reads as a stand-in.
 */
export const LEDGER_STAND_INS = { name: '\u0001name\u0001', total: '\u0001total\u0001', each: '\u0001each\u0001' } as const;

/** The ledger text `text` with its stand-ins filled: the amounts as formatCents writes them, then the name. */
export function fillLedgerTextSql(text: SQL, values: { name: SQL; totalCents: SQL; eachCents: SQL }): SQL {
  const { name, total, each } = LEDGER_STAND_INS;
  return sql`replace(replace(replace(${text}::text, ${total}, ${formatCentsSql(values.totalCents)}), ${each}, ${formatCentsSql(values.eachCents)}), ${name}, ${values.name})`;
}

/** The same text filled in TypeScript (a list's ledger rows, whose amounts the action computed): formatCents, the one definition. */
export function fillLedgerText(text: string, values: { name: string; totalCents: number; eachCents: number }): string {
  const { name, total, each } = LEDGER_STAND_INS;
  return text.replaceAll(total, formatCents(values.totalCents)).replaceAll(each, formatCents(values.eachCents)).replaceAll(name, values.name);
}
