/**
 * The action log (docs/replay.md): one append for every state-changing action of a world, in the
 * action's own transaction. The order of `seq` is the order the actions committed in: before its
 * insert an append takes the world's log lock (a transaction-level advisory lock, held until the
 * commit), so two appends of a world follow each other, and an action whose outcome depended on
 * another's writes (it waited for that action's row locks, or read what it committed) appends
 * after it. The append is each action's last statement, so the lock is held only for its commit.
 */
import { sql } from 'drizzle-orm';
import type { DbExecutor, Transaction } from '../../client.ts';
import type { LoggedOutcome } from '../../schema/replay.ts';
import { idList } from '../action.ts';

/** The advisory lock (key, world id) that orders a world's appends: "mclg". */
const ACTION_LOG_LOCK_KEY = 0x6d636c67;

export interface LogEntry {
  /** The world; omitted: the acting company's world. */
  worldId?: number;
  companyId: number | null;
  actingUserId: number | null;
  action: string;
  input: unknown;
  outcome: LoggedOutcome;
  /** An entry the turn writes (the bots' moves): replay gets it again from the turn. */
  byTurn?: boolean;
}

/** Takes the world's log lock: every later append of the world waits for this transaction's commit. */
async function lockWorldLog(tx: DbExecutor, worldId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ACTION_LOG_LOCK_KEY}, ${worldId}::int)`);
}

/**
 * Appends the entries, in the list's order, to their worlds' logs inside the caller's transaction.
 * An entry of a company that does not exist (a request refused for it) belongs to no world and is
 * not logged.
 */
export async function appendToLog(tx: DbExecutor, entries: readonly LogEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const worldOf = new Map<number, number>();
  const unknown = [...new Set(entries.filter((entry) => entry.worldId === undefined && entry.companyId !== null).map((entry) => entry.companyId!))];
  let locked: number | undefined;
  if (unknown.length === 1 && entries.every((entry) => entry.worldId === undefined)) {
    // One company's entries (every API request): its world read and its world's log locked in one
    // round trip, not two (the replay of a week makes a hundred such appends).
    const [row] = await tx.execute<{ world_id: number }>(
      sql`select world_id, pg_advisory_xact_lock(${ACTION_LOG_LOCK_KEY}, world_id)::text from companies where id = ${unknown[0]!}`,
    );
    if (row) worldOf.set(unknown[0]!, (locked = Number(row.world_id)));
  } else if (unknown.length > 0) {
    const rows = await tx.execute<{ id: number; world_id: number }>(sql`select id, world_id from companies where id in ${idList(unknown)}`);
    for (const row of rows) worldOf.set(Number(row.id), Number(row.world_id));
  }
  const rows = entries.flatMap((entry, ord) => {
    const worldId = entry.worldId ?? (entry.companyId === null ? undefined : worldOf.get(entry.companyId));
    if (worldId === undefined) return [];
    return [
      {
        ord,
        world_id: worldId,
        company_id: entry.companyId,
        acting_user_id: entry.actingUserId,
        action: entry.action,
        input: entry.input ?? null,
        outcome: entry.outcome,
        by_turn: entry.byTurn ?? false,
      },
    ];
  });
  // The locks in world order: two appends over several worlds never wait for each other in a cycle.
  for (const worldId of [...new Set(rows.map((row) => row.world_id))].sort((a, b) => a - b)) {
    if (worldId !== locked) await lockWorldLog(tx, worldId);
  }
  // seq after the world's last one, read under the lock (this statement's snapshot is taken after it).
  await tx.execute(sql`
    insert into world_actions (world_id, seq, week, company_id, acting_user_id, action, input, outcome, by_turn)
    select e.world_id, coalesce(last.seq, 0) + row_number() over (partition by e.world_id order by e.ord), w.current_week,
           e.company_id, e.acting_user_id, e.action, coalesce(e.input, 'null'::jsonb), e.outcome, e.by_turn
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
         as e(ord int, world_id int, company_id int, acting_user_id int, action text, input jsonb, outcome jsonb, by_turn boolean)
    join worlds w on w.id = e.world_id
    left join lateral (select max(a.seq) as seq from world_actions a where a.world_id = e.world_id) last on true
    order by e.world_id, e.ord`);
}

/**
 * Takes the company's world's log lock before a request is decided (a refusal's last decision: see
 * `decideAndLog`), and makes every row lock the decision then waits for give up after
 * `waitMs` (PostgreSQL's lock_timeout, for this transaction or savepoint). Answers the setting to
 * restore once decided (the setting rolls back with a savepoint that fails).
 */
export async function lockLogToDecide(tx: Transaction, companyId: number, waitMs: number): Promise<string> {
  const [row] = await tx.execute<{ previous: string }>(sql`
    select current_setting('lock_timeout') as previous,
           (select pg_advisory_xact_lock(${ACTION_LOG_LOCK_KEY}, world_id)::text from companies where id = ${companyId})
  `);
  await tx.execute(sql`select set_config('lock_timeout', ${`${waitMs}ms`}, true)`);
  return row?.previous ?? '0';
}

/** Restores lock_timeout after `lockLogToDecide`'s decision. */
export async function restoreLockWait(tx: Transaction, previous: string): Promise<void> {
  await tx.execute(sql`select set_config('lock_timeout', ${previous}, true)`);
}
