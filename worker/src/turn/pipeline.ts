/**
 * The turn's statements are sent without waiting for each other where nothing reads their answer.
 *
 * A turn is ~120 statements on one connection; most write into temporary tables or the game's
 * tables and return nothing the turn reads. Sent one at a time, each costs a round trip to
 * PostgreSQL (and, on a busy machine, a wait for the scheduler on both sides): for a small class
 * world that was most of its turn (docs/benchmarks.md). postgres.js pipelines statements issued on
 * one connection before the first answer: they run in the order sent, so the turn means the same.
 *
 * Rule: a statement that starts with create, insert, update, delete, alter, set or drop and has no
 * RETURNING is sent at once and answers an empty result; any other statement (a read) first waits
 * for every statement sent before it, so a failure surfaces there, and `flush` waits for the rest
 * (the turn flushes after each phase, so a phase's failure is its own and its timing is its own).
 */
import { SQL, StringChunk, sql } from 'drizzle-orm';
import type { DbExecutor } from '@marketcraft/db';

const WRITE = /^\s*(create|insert|update|delete|alter|set|drop)\b/i;
const RETURNING = /\breturning\b/i;

/** The statement's own text (parameters left out), nested fragments included. */
function textOf(chunks: readonly unknown[]): string {
  return chunks
    .map((chunk) =>
      chunk instanceof StringChunk ? chunk.value.join('') : chunk instanceof SQL ? textOf(chunk.queryChunks) : Array.isArray(chunk) ? textOf(chunk) : ' ',
    )
    .join('');
}

/** Whether the turn can leave a statement's answer unread: a write or a setting, without RETURNING. */
export function answerUnread(query: SQL): boolean {
  const text = textOf(query.queryChunks);
  return WRITE.test(text) && !RETURNING.test(text);
}

export interface PipelinedExecutor {
  /** The transaction, with `execute` pipelining writes (the rule above); everything else as is. */
  tx: DbExecutor;
  /** Waits for every statement sent; rejects with the first failure. */
  flush: () => Promise<void>;
}

/**
 * `tag`: a comment put before every statement, so that its text, and so its prepared statement on
 * the connection (db/src/client.ts), is another than the same statement's without it.
 */
export function pipelineWrites(tx: DbExecutor, tag?: string): PipelinedExecutor {
  const send = (query: SQL) => tx.execute(tag ? sql`${sql.raw(`/* ${tag} */ `)}${query}` : query);
  let pending: Promise<unknown>[] = [];
  const flush = async () => {
    const sent = pending;
    pending = [];
    await Promise.all(sent);
  };
  const execute = (query: SQL) => {
    if (answerUnread(query)) {
      // `then` starts drizzle's lazy query now, in the order of the calls.
      const sent = send(query).then(() => undefined);
      // Reported by the next read or flush; never an unhandled rejection meanwhile.
      sent.catch(() => {});
      pending.push(sent);
      return Promise.resolve(Object.assign([], { count: 0 }));
    }
    return flush().then(() => send(query));
  };
  const piped = new Proxy(tx, { get: (target, property, receiver) => (property === 'execute' ? execute : Reflect.get(target, property, receiver)) });
  return { tx: piped, flush };
}
