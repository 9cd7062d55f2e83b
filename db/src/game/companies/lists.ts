/**
 * The parts every paged list of a world's companies shares (docs/api.md, "Lists of companies"): the
 * filters (part of the name, one company) and the page (limit, offset). Each list keeps its own
 * order, always ending with the company id so that two rows never tie and a page boundary is stable.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { CompanyListPage } from '@marketcraft/shared';

/** One page of a list, and how many rows the whole list (with its filters) holds. */
export interface ListPage<T> {
  rows: T[];
  total: number;
}

/** `text` for a LIKE pattern: its `%`, `_` and `\` are letters, not wildcards. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Rows whose text contains `search`. */
function likePattern(search: string): string {
  return `%${escapeLike(search)}%`;
}

/** The page's filters on the companies table aliased `alias` (true when none). */
export function companyFilterSql(alias: string, page: Pick<CompanyListPage, 'search' | 'company_id'>): SQL {
  const column = (name: string) => sql.raw(`${alias}.${name}`);
  const parts: SQL[] = [sql`true`];
  if (page.search !== null) parts.push(sql`${column('name')} ilike ${likePattern(page.search)}`);
  if (page.company_id !== null) parts.push(sql`${column('id')} = ${page.company_id}`);
  return sql.join(parts, sql` and `);
}

/** LIMIT and OFFSET of the page. */
export function pageSql(page: Pick<CompanyListPage, 'limit' | 'offset'>): SQL {
  return sql`limit ${page.limit} offset ${page.offset}`;
}
