/**
 * Phase 1 of the turn, bots. OWNED BY THE BOTS ENGINEER: everything under worker/src/bots/ (and
 * worker/test/bots*.test.ts, docs/bots.md); the turn engine only calls `runBotTurn`.
 *
 * Each active bot company, in id order:
 * 1. reads a compact snapshot of its own state (snapshot.ts: a handful of queries bounded by its
 *    own rows) next to the turn's small catalogue (products, recipes, cities, upgrades: read once);
 * 2. its strategy (strategies/, one module each; unknown names play the balanced default) plans a
 *    handful of actions from that snapshot, the seeded rng and its budget: at most 30% of its cash
 *    this turn, never below the $50,000 reserve, never past 12 buildings (budget.ts);
 * 3. each action runs through the SAME operation a player's request calls (db/src/game), in its own
 *    savepoint (execute.ts): a refusal (GameError, or the budget check on the real cash) rolls
 *    back that action only and is counted; any other error fails the turn.
 * Randomness comes only from the turn's rng, drawn in a fixed order, so the same state and week
 * give the same actions. See docs/bots.md.
 */
import { sql } from 'drizzle-orm';
import type { Rng } from '@marketcraft/shared';
import type { DbExecutor } from '@marketcraft/db';
import { planBudget, turnSpendingCents } from './budget.ts';
import { runAction, type BotPurse } from './execute.ts';
import { loadBotSnapshot, loadBotWorld, loadHoldingValuations, loadShareValuations } from './snapshot.ts';
import { CITY_DEAL_STRATEGIES, SHARE_TRADING_STRATEGIES, strategyFor } from './strategies/index.ts';
import type { BotActionKind } from './types.ts';

export interface BotTurnSummary {
  /** Active bots that took their turn. */
  bots: number;
  /** Actions carried out. */
  actions: number;
  /** Actions refused by a game rule or the bots' budget check (rolled back, turn goes on). */
  refused: number;
  /** Planned actions dropped before running because earlier actions used up the budget. */
  skipped: number;
  /** Actions carried out, by kind (build, hire, market_sell, restock, ...). */
  byKind: Record<string, number>;
}

export async function runBotTurn(tx: DbExecutor, week: number, rng: Rng): Promise<BotTurnSummary> {
  const bots = await tx.execute<{ id: number; strategy: string | null }>(sql`
    select id, strategy from companies where is_bot and status = 'active' order by id`);
  const summary: BotTurnSummary = { bots: bots.length, actions: 0, refused: 0, skipped: 0, byKind: {} };
  if (bots.length === 0) return summary;
  const world = await loadBotWorld(tx, week);

  for (const row of bots) {
    const strategyName = row.strategy ?? 'default';
    const tradesShares = SHARE_TRADING_STRATEGIES.has(strategyName);
    const bot = await loadBotSnapshot(tx, { id: Number(row.id), strategy: strategyName }, { cityDeals: CITY_DEAL_STRATEGIES.has(strategyName) });
    if (tradesShares && world.valuations === null) world.valuations = await loadShareValuations(tx);
    const holdings = tradesShares ? await loadHoldingValuations(tx, [...bot.portfolio.keys()]) : [];
    const spendable = turnSpendingCents(bot.cashCents);
    const actions = strategyFor(row.strategy)({ bot, world, rng, budget: planBudget(spendable), holdings });

    const purse: BotPurse = { companyId: bot.id, cashCents: bot.cashCents, remainingCents: spendable };
    for (const action of actions) {
      const outcome = await runAction(tx, purse, action);
      if (outcome === 'done') {
        // The turn's share valuations are read once: keep their float current for the next bots.
        if (action.kind === 'buy_shares') {
          const valuation = world.valuations?.find((row) => row.companyId === action.issuerId);
          if (valuation) valuation.sharesAvailable -= action.shares;
        }
        summary.actions += 1;
        summary.byKind[action.kind] = (summary.byKind[action.kind] ?? 0) + 1;
      } else if (outcome === 'refused') summary.refused += 1;
      else summary.skipped += 1;
    }
  }
  return summary;
}

export type { BotActionKind };
