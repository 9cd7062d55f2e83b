/**
 * The bots' phase of the turn. OWNED BY THE BOTS ENGINEER: everything under worker/src/bots/ (and
 * worker/test/bots*.test.ts, worker/bench/bots.ts, docs/bots.md); the turn engine only calls
 * `runBotTurn`.
 *
 * 1. ONE snapshot of the world for all bots (snapshot.ts: a fixed number of set-based queries);
 * 2. every active bot, in id order, plans its actions from that snapshot with its strategy, the
 *    seeded rng and its budget (at most 30% of its cash, never below the $50,000 reserve); the
 *    planner prices market orders with the shared market rules and moves each product's flow as it
 *    plans, so a bot prices its orders after the bots before it, as they will run;
 * 3. the actions run through the players' actions, one call per kind with every bot's moves
 *    (execute.ts, db/src/game/actions.ts).
 * 4. they post limit orders for the coming week's auction (exchange.ts, placeExchangeOrders).
 * Randomness comes only from the turn's rng, drawn in a fixed order: the same state and week give
 * the same actions. See docs/bots.md.
 */
import { sql } from 'drizzle-orm';
import type { Rng } from '@marketcraft/shared';
import type { DbExecutor } from '@marketcraft/db';
import { planBudget, turnSpendingCents } from './budget.ts';
import { executeBotActions, type BotPurse, type PlannedAction } from './execute.ts';
import { loadBotsSnapshot } from './snapshot.ts';
import { placeBotExchangeOrders } from './exchange.ts';
import { strategyFor } from './strategies/index.ts';

export interface BotTurnSummary {
  /** Active bots that took their turn. */
  bots: number;
  /** Actions planned. */
  planned: number;
  /** Actions carried out. */
  actions: number;
  /** Actions refused by a game rule or the bots' budget check (rolled back, the turn goes on). */
  refused: number;
  /** Actions carried out, by kind (build, hire, market_sell, restock, ...). */
  byKind: Record<string, number>;
  /** Calls of a player action (each with all the bots' moves of its kind). */
  batches: number;
  /** Limit orders posted for the coming week's auction (exchange.ts). */
  exchangeOrders: number;
  /** Where the phase's time went (benchmarks print it). */
  timings: { snapshotMs: number; planMs: number; executeMs: number };
}

export async function runBotTurn(tx: DbExecutor, worldId: number, week: number, rng: Rng): Promise<BotTurnSummary> {
  const t0 = performance.now();
  // Most class worlds have no bots: they skip the snapshot (the phase's fixed cost, ~10 statements).
  // A fork may have turned its bots off (worlds.bots_active, docs/replay.md): they make no moves.
  const [anyBot] = await tx.execute(sql`
    select 1 from companies c join worlds w on w.id = c.world_id and w.bots_active
    where c.world_id = ${worldId}::int and c.is_bot and c.status = 'active' limit 1`);
  if (!anyBot)
    return { bots: 0, planned: 0, actions: 0, refused: 0, byKind: {}, batches: 0, exchangeOrders: 0, timings: { snapshotMs: 0, planMs: 0, executeMs: 0 } };
  const { world, bots } = await loadBotsSnapshot(tx, worldId, week);
  const t1 = performance.now();
  const planned: PlannedAction[] = [];
  const purses = new Map<number, BotPurse>();
  for (const bot of bots) {
    const spendable = turnSpendingCents(bot.cashCents);
    purses.set(bot.id, { companyId: bot.id, cashCents: bot.cashCents, remainingCents: spendable });
    const actions = strategyFor(bot.strategy)({ bot, world, rng, budget: planBudget(spendable) });
    for (const action of actions) planned.push({ botId: bot.id, action });
  }
  const t2 = performance.now();
  const executed = await executeBotActions(tx, purses, planned);
  // Then their orders in the coming week's auction, from what they hold now (docs/exchange.md).
  const exchangeOrders = await placeBotExchangeOrders(tx, worldId, new Map(bots.map((bot) => [bot.id, bot.cashCents])));
  const timings = { snapshotMs: Math.round(t1 - t0), planMs: Math.round(t2 - t1), executeMs: Math.round(performance.now() - t2) };
  return { bots: bots.length, planned: planned.length, ...executed, exchangeOrders, timings };
}
