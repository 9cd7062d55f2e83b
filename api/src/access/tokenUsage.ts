/**
 * The personal access tokens' daily counts (api_token_usage: the profile's usage, the admins'
 * busiest tokens, the leaderboard's "API" badge), gathered in this process and written once a
 * second in one statement, rather than by every call's token check. Writing the count row on every
 * call made a token's read cost more than a session's, whose check writes only the (unlogged)
 * rate counter (docs/benchmarks.md); the rate limit itself is still counted in the database on
 * every call, so it holds across API servers at once.
 *
 * What a reader of the counts sees: in this process, everything (each reader here writes the
 * pending counts first: flushTokenUsage); from another API server, its counts up to a second late.
 * A crash of the process loses at most the last second of counts, never a rate limit or money;
 * a graceful stop writes them (api/src/server.ts).
 */
import { sql } from 'drizzle-orm';
import type { DbExecutor } from '@marketcraft/db';

/** How long a count waits in the process before it is written. */
const TOKEN_USAGE_FLUSH_MS = 1_000;

/** One call of a token, as its check counted it. */
export interface TokenCall {
  tokenId: number;
  /** The UTC day of the call, as the database's clock has it (the rate limit's clock too). */
  day: string;
  /** The company the token acted for (the public world's), null when its user has none. */
  companyId: number | null;
  isMutation: boolean;
  /** Refused with 429: counted as limited, not as a read or a mutation. */
  limited: boolean;
}

interface Counts {
  tokenId: number;
  day: string;
  companyId: number | null;
  requests: number;
  mutations: number;
  limited: number;
}

/** Per database pool: the counts not written yet, the write in flight, the timer of the next one. */
interface Tally {
  pending: Map<string, Counts>;
  writing: Promise<void>;
  timer: ReturnType<typeof setTimeout> | null;
}

const tallies = new WeakMap<object, Tally>();

function tallyOf(db: DbExecutor): Tally {
  let tally = tallies.get(db);
  if (!tally) tallies.set(db, (tally = { pending: new Map(), writing: Promise.resolve(), timer: null }));
  return tally;
}

function add(pending: Map<string, Counts>, counts: Counts): void {
  const key = `${counts.tokenId}:${counts.day}`;
  const kept = pending.get(key);
  if (!kept) {
    pending.set(key, { ...counts });
    return;
  }
  kept.requests += counts.requests;
  kept.mutations += counts.mutations;
  kept.limited += counts.limited;
  kept.companyId = counts.companyId ?? kept.companyId;
}

/** Counts a call; it is written within TOKEN_USAGE_FLUSH_MS (or by the next flushTokenUsage). */
export function countTokenCall(db: DbExecutor, call: TokenCall): void {
  const tally = tallyOf(db);
  add(tally.pending, {
    tokenId: call.tokenId,
    day: call.day,
    companyId: call.companyId,
    requests: 1,
    mutations: call.isMutation && !call.limited ? 1 : 0,
    limited: call.limited ? 1 : 0,
  });
  if (!tally.timer) {
    tally.timer = setTimeout(() => void flushTokenUsage(db).catch(() => undefined), TOKEN_USAGE_FLUSH_MS);
    tally.timer.unref();
  }
}

/**
 * Writes the counts gathered so far, after any write already in flight (a reader that calls it
 * then reads every call this process counted). A failed write keeps its counts for the next one.
 */
export function flushTokenUsage(db: DbExecutor): Promise<void> {
  const tally = tallies.get(db);
  if (!tally) return Promise.resolve();
  if (tally.timer) clearTimeout(tally.timer);
  tally.timer = null;
  const counts = [...tally.pending.values()];
  tally.pending = new Map();
  const write = async () => {
    if (counts.length === 0) return;
    try {
      await db.execute(sql`
        insert into api_token_usage as u (token_id, day, company_id, requests, mutations, limited)
        select c.token_id, c.day, c.company_id, c.requests, c.mutations, c.limited
        from jsonb_to_recordset(${JSON.stringify(counts.map((each) => ({ token_id: each.tokenId, day: each.day, company_id: each.companyId, requests: each.requests, mutations: each.mutations, limited: each.limited })))}::text::jsonb)
             as c(token_id int, day date, company_id int, requests int, mutations int, limited int)
        -- A token deleted meanwhile (housekeeping) has nothing left to count.
        where exists (select 1 from api_tokens t where t.id = c.token_id)
        order by c.token_id, c.day
        on conflict (token_id, day) do update set
          requests = u.requests + excluded.requests,
          mutations = u.mutations + excluded.mutations,
          limited = u.limited + excluded.limited,
          company_id = coalesce(excluded.company_id, u.company_id)`);
    } catch (error) {
      for (const each of counts) add(tally.pending, each);
      if (!tally.timer) {
        tally.timer = setTimeout(() => void flushTokenUsage(db).catch(() => undefined), TOKEN_USAGE_FLUSH_MS);
        tally.timer.unref();
      }
      throw error;
    }
  };
  tally.writing = tally.writing.then(write, write);
  return tally.writing;
}
