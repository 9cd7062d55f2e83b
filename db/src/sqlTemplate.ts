/**
 * A query built once: `sqlTemplate((slot) => sql`... ${slot('companyId')} ...`)` renders the SQL
 * the builder returns a single time, and each call then fills its slots into the rendered text.
 * For queries assembled from many pieces (the net worth of valuation.ts, its rules rendered by
 * ruleSql) drizzle's rendering costs more CPU than PostgreSQL's execution of a prepared statement;
 * the API's hottest reads use this (bench:api). The text, and so the prepared statement, is the
 * same for every call.
 */
import { PgDialect } from 'drizzle-orm/pg-core';
import { SQL, sql, type Query, type SQLChunk } from 'drizzle-orm';
import { DB_CASING } from './client.ts';

const dialect = new PgDialect({ casing: DB_CASING });

interface Rendered<K extends string> {
  /** The rendered text, with $1, $2, ... for the parameters. */
  text: string;
  /** The text around the parameters: texts.length = parameters.length + 1. */
  texts: string[];
  parameters: ({ slot: K } | { value: unknown })[];
}

/**
 * A template filled with its values. drizzle runs it as rendered (toQuery): rendering a query's
 * chunks again on every call cost more CPU than PostgreSQL's execution of a prepared statement
 * (bench:api). Its chunks are built only if it is put inside another query, which renders them.
 */
class FilledTemplate extends SQL {
  private readonly filled: { sql: string; params: unknown[] };

  constructor(filled: { sql: string; params: unknown[] }, buildChunks: () => SQLChunk[]) {
    super([]);
    this.filled = filled;
    let chunks: SQLChunk[] | undefined;
    Object.defineProperty(this, 'queryChunks', { get: () => (chunks ??= buildChunks()) });
  }

  override toQuery(): Query {
    return { sql: this.filled.sql, params: [...this.filled.params] };
  }
}

export function sqlTemplate<K extends string>(build: (slot: (name: K) => SQL) => SQL): (values: Record<K, unknown>) => SQL {
  let rendered: Rendered<K> | null = null;
  const render = (): Rendered<K> => {
    const slots = new Map<object, K>();
    const query = dialect.sqlToQuery(
      build((name) => {
        const marker = { slot: name };
        slots.set(marker, name);
        return sql`${marker}`;
      }),
    );
    const texts = query.sql.split(/\$\d+\b/);
    if (texts.length !== query.params.length + 1) throw new Error('sqlTemplate: the rendered text and its parameters do not match');
    const parameters = query.params.map((param) => {
      const slot = typeof param === 'object' && param !== null ? slots.get(param) : undefined;
      return slot === undefined ? { value: param } : { slot };
    });
    return { text: query.sql, texts, parameters };
  };
  return (values) => {
    rendered ??= render();
    const { text, texts, parameters } = rendered;
    const params = parameters.map((parameter) => ('slot' in parameter ? values[parameter.slot] : parameter.value));
    return new FilledTemplate({ sql: text, params }, () => {
      const chunks: SQLChunk[] = [sql.raw(texts[0]!)];
      params.forEach((param, index) => chunks.push(sql`${param}`, sql.raw(texts[index + 1]!)));
      return chunks;
    });
  };
}
