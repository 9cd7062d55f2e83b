/**
 * One turn = one game week, in ONE transaction (docs/economy.md lists the phases):
 * lock the world row, check the week, claim the week with its `turns` row (primary key = week: the
 * exactly-once marker), run the phases (context.ts lists them), commit, then NOTIFY game_updates. Any error rolls
 * everything back and the world stays at the old week.
 *
 * Which week a job advances: a job carrying `week` advances only from that week (a job for a week
 * already advanced does nothing and succeeds). A job without a week (the cron schedule's) advances
 * from the current week, unless a turn already recorded that job's id (a retry of a job whose turn
 * committed before the job could be marked complete).
 */
import { sql } from 'drizzle-orm';
import { PUBLIC_WORLD_ID, nextScheduledTurnAt, turnRng } from '@marketcraft/shared';
import { GAME_UPDATES_CHANNEL, type GameUpdate } from '@marketcraft/shared/queues.ts';
import { appendToLog, stateHash, type Database } from '@marketcraft/db';
import { PHASES, type PhaseName, type TurnContext, type TurnHooks } from './context.ts';
import { createTurnTables } from './ledgerBatch.ts';
import { pipelineWrites } from './pipeline.ts';
import { companyKey, dropTurnKeys, fillTurnTable, SMALL_WORLD_MAX_COMPANIES } from './turnTables.ts';
import { createResearchTable } from './research.ts';
import { runProduction } from './production.ts';
import { runSales } from './sales.ts';
import { runExchange } from './exchange.ts';
import { runCosts } from './costs.ts';
import { runTaxes } from './taxes.ts';
import { runMarkets } from './markets.ts';
import { runStocks } from './stocks.ts';
import { runDividends } from './dividends.ts';
import { runPolitics } from './politics.ts';
import { runBankruptcy } from './bankruptcy.ts';
import { runFinish } from './finish.ts';
import { runReport } from './report.ts';
import { runOpenData } from './openData.ts';
import { runGrades } from './grades.ts';
import { runBotTurn } from '../bots/index.ts';

export { PHASES, type TurnHooks } from './context.ts';

/**
 * Settings of the worker's database connections, sent when each connection starts: a turn's
 * temporary tables (the production plan alone is ~150 bytes x 15 rows per company) live in the
 * backend's local buffers, 8 MB by default, and temp_buffers can only be raised before a session
 * first uses a temporary table, so not per transaction. Past 8 MB every temporary table spills
 * to files while the turn writes and reads it again. Local buffers are allocated as they are
 * used: a small world's turn takes no more memory than before.
 */
export const TURN_SESSION_SETTINGS = { temp_buffers: '256MB' } as const;

export interface RunTurnOptions {
  /** The world to advance (default: the public world). */
  worldId?: number;
  /** Advance only from this week; omitted: from the current week (scheduled jobs). */
  week?: number;
  /** The pg-boss job id, recorded in the turns row. */
  jobId?: string;
  hooks?: TurnHooks;
  /** Aborts the turn between phases (rolled back). */
  signal?: AbortSignal;
  now?: Date;
  /** The schedule's next run after a time (worker/src/queue.ts scheduleClock); default: the spec's 00:30 / 12:30 UTC. */
  nextTurnAt?: (now: Date) => Date | null;
}

/** What a turn processed, for its log line: companies and their buildings, and the stores' sales. */
interface TurnCounts {
  companies: number;
  buildings: number;
  /** Companies whose stores sold something this turn, and what they took in. */
  storeSalesCompanies: number;
  storeSalesCents: number;
}

export type TurnResult =
  | {
      status: 'advanced';
      week: number;
      newWeek: number;
      durationMs: number;
      phaseTimings: Record<string, number>;
      counts: TurnCounts;
      bankrupt: number[];
    }
  | { status: 'skipped'; week: number; reason: string };

const PHASE_RUNNERS: Record<Exclude<PhaseName, 'finish' | 'bankruptcy'>, (ctx: TurnContext) => Promise<unknown>> = {
  production: runProduction,
  sales: runSales,
  exchange: runExchange,
  costs: runCosts,
  taxes: runTaxes,
  dividends: runDividends,
  markets: runMarkets,
  stocks: runStocks,
  politics: runPolitics,
  report: runReport,
  grades: runGrades,
  data: runOpenData,
  // The bots' moves for the coming week, after the books are written (the world is at week + 1).
  bots: (ctx) => runBotTurn(ctx.tx, ctx.worldId, ctx.week + 1, ctx.rng),
};

class TurnSkipped extends Error {
  readonly week: number;
  readonly reason: string;
  constructor(week: number, reason: string) {
    super(reason);
    this.week = week;
    this.reason = reason;
  }
}

export async function runTurn(db: Database, options: RunTurnOptions = {}): Promise<TurnResult> {
  const worldId = options.worldId ?? PUBLIC_WORLD_ID;
  const started = performance.now();
  const now = options.now ?? new Date();
  let result: TurnResult;
  try {
    result = await db.transaction(async (tx) => {
      // FOR NO KEY UPDATE, not FOR UPDATE: it still makes concurrent turns of the world wait for each
      // other, but lets player operations insert rows whose foreign key points at the world (their
      // FOR KEY SHARE check) while the turn waits for their company rows. With FOR UPDATE a share
      // trade holding its company rows waited on the world row, the turn on the companies: deadlock.
      const [world] = await tx.execute<{ current_week: number; seed: number; status: string; kind: string; turn_interval_minutes: number | null }>(
        sql`select current_week, seed, status, kind, turn_interval_minutes from worlds where id = ${worldId} for no key update`,
      );
      if (!world) throw new Error(`World ${worldId} is missing: run the seed first`);
      const week = Number(world.current_week);
      // An ended world is read-only: no turn ever changes it again.
      if (world.status === 'ended') throw new TurnSkipped(week, `world ${worldId} has ended`);
      // A paused clock sends no turns; a scheduled job (no week) that was already queued does nothing.
      if (world.status === 'paused' && options.week === undefined) throw new TurnSkipped(week, `world ${worldId} is paused`);
      if (options.week !== undefined && options.week !== week) {
        throw new TurnSkipped(week, `week ${options.week} was already advanced (the world is at week ${week})`);
      }
      if (options.week === undefined && options.jobId) {
        const done = await tx.execute(sql`select week from turns where world_id = ${worldId} and job_id = ${options.jobId}`);
        if (done.length > 0) throw new TurnSkipped(week, `job ${options.jobId} already advanced week ${Number(done[0]?.week)}`);
      }
      const claimed = await tx.execute(sql`
        insert into turns (world_id, week, started_at, job_id) values (${worldId}, ${week}, ${now.toISOString()}::timestamptz, ${options.jobId ?? null})
        on conflict do nothing returning week`);
      if (claimed.length === 0) throw new TurnSkipped(week, `week ${week} already has a turn row`);
      // From here the turn's writes are pipelined (pipeline.ts): a read waits for them, and each
      // phase ends with a flush.
      // Player operations lock their company row first: taking every active company's lock here,
      // in id order, keeps the turn's view of cash stable and avoids deadlocks with them. The lock
      // comes BEFORE the cash snapshot: a snapshot read first misses a trade that commits while the
      // turn waits for its lock, and the turn's balances would overwrite that trade's cash change
      // (its ledger row kept: cash != starting cash + ledger).
      const locked = await tx.execute(sql`select id from companies where world_id = ${worldId} and status = 'active' order by id for update`);
      const largeWorld = locked.length > SMALL_WORLD_MAX_COMPANIES;
      // A large world's statements are its own prepared statements: their plans and the costs
      // PostgreSQL weighs to keep a plan (turnTables.ts) are not mixed with the small worlds'.
      const pipeline = pipelineWrites(tx, largeWorld ? 'large world' : undefined);
      const turnTx = pipeline.tx;

      // Set-based statements over every building: no JIT compilation (it costs more than it saves
      // on these one-off statements) and enough memory for the hash joins and sorts.
      await turnTx.execute(sql`set local jit = off`);
      await turnTx.execute(sql`set local work_mem = '64MB'`);
      // The turn's companies with their cash when the turn started (never updated: turnBalancesSql
      // adds the turn's rows; after the books the cash is companies.cash_cents, ledgerBatch.ts).
      await fillTurnTable(
        turnTx,
        'turn_companies',
        sql`select id as company_id, cash_cents from companies
        where world_id = ${worldId} and status = 'active' order by id`,
        { key: companyKey(largeWorld) },
      );
      // The turn in the world's log, after the companies' locks (an action holding one has committed
      // and logged before it) and before anything the turn changes: an action that waits for the
      // turn logs after it (docs/replay.md, "Commit order").
      await appendToLog(turnTx, [{ worldId, companyId: null, actingUserId: null, action: 'advanceTurn', input: { week }, outcome: { applied: true } }]);

      // The public world follows the server's schedule; a private world its own interval (none while
      // paused or when its turns are manual).
      const interval = world.turn_interval_minutes === null ? null : Number(world.turn_interval_minutes);
      const nextTurnAt =
        world.kind === 'public'
          ? options.nextTurnAt
            ? options.nextTurnAt(now)
            : nextScheduledTurnAt(now)
          : world.status === 'active' && interval !== null
            ? new Date(now.getTime() + interval * 60_000)
            : null;
      const ctx: TurnContext = {
        tx: turnTx,
        worldId,
        week,
        worldSeed: Number(world.seed),
        rng: turnRng(Number(world.seed), week),
        now,
        nextTurnAt,
        largeWorld,
      };
      await createTurnTables(ctx);
      await createResearchTable(ctx);
      const phaseTimings: Record<string, number> = {};
      let bankrupt: number[] = [];
      for (const phase of PHASES) {
        if (options.signal?.aborted) throw new Error(`Turn aborted before phase ${phase}`);
        const phaseStart = performance.now();
        if (phase === 'finish') await runFinish(ctx);
        else if (phase === 'bankruptcy') {
          bankrupt = await runBankruptcy(ctx);
          await appendToLog(
            turnTx,
            bankrupt.map((companyId) => ({
              worldId,
              companyId,
              actingUserId: null,
              action: 'bankruptcy',
              input: { week },
              outcome: { applied: true },
              byTurn: true,
            })),
          );
        }
        // The bots' actions catch their refusals statement by statement: no pipelining there.
        else if (phase === 'bots') await PHASE_RUNNERS.bots({ ...ctx, tx });
        else await PHASE_RUNNERS[phase](ctx);
        await pipeline.flush();
        phaseTimings[phase] = Math.round(performance.now() - phaseStart);
        await options.hooks?.afterPhase?.(phase, ctx);
      }
      const [counted] = await turnTx.execute<Record<keyof TurnCounts, number>>(sql`
        select (select count(*) from turn_companies)::int as "companies",
               -- every building of the turn's companies paid its costs (costs.ts): no second pass over buildings
               (select coalesce(sum(buildings), 0) from turn_costs)::int as "buildings",
               count(*) filter (where reason = 'store_sales')::int as "storeSalesCompanies",
               coalesce(sum(amount_cents) filter (where reason = 'store_sales'), 0)::bigint as "storeSalesCents"
        from turn_cash`);
      const counts: TurnCounts = {
        companies: Number(counted?.companies ?? 0),
        buildings: Number(counted?.buildings ?? 0),
        storeSalesCompanies: Number(counted?.storeSalesCompanies ?? 0),
        storeSalesCents: Number(counted?.storeSalesCents ?? 0),
      };
      if (largeWorld) await dropTurnKeys(turnTx);
      // The world as the turn leaves it, hashed (docs/replay.md): a replay of the log must reach it.
      const hash = await stateHash(tx, worldId);
      const durationMs = Math.round(performance.now() - started);
      await tx.execute(sql`
        update turns set finished_at = now(), duration_ms = ${durationMs}, phase_timings = ${JSON.stringify(phaseTimings)}::jsonb, state_hash = ${hash}
        where world_id = ${worldId} and week = ${week}`);
      return { status: 'advanced' as const, week, newWeek: week + 1, durationMs, phaseTimings, counts, bankrupt };
    });
  } catch (error) {
    if (error instanceof TurnSkipped) return { status: 'skipped', week: error.week, reason: error.reason };
    throw error;
  }
  const update: GameUpdate = { worldId, week: result.newWeek, processedWeek: result.week };
  await db.execute(sql`select pg_notify(${GAME_UPDATES_CHANNEL}, ${JSON.stringify(update)})`);
  return result;
}
