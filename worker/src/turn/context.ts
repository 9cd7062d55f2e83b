/** What every phase of a turn receives: the open transaction, the week being processed, the rng. */
import type { Rng } from '@marketcraft/shared';
import type { DbExecutor } from '@marketcraft/db';

type TurnTx = DbExecutor;

/**
 * The phases in order (docs/economy.md). Bots act last: their moves are for the coming week, so a
 * player's forecast of the next turn is not changed by them between turns either.
 */
export const PHASES = [
  'production',
  'sales',
  // The exchange's weekly call auction (worker/src/turn/exchange.ts says why here).
  'exchange',
  'costs',
  'taxes',
  'dividends',
  'bankruptcy',
  'markets',
  'stocks',
  'politics',
  'finish',
  // The week reports read the books just written (ledger, balances, net worth).
  'report',
  // The assignments' checkpoints earned this week, from the reports just written.
  'grades',
  // The week as its books closed, for the open data files (docs/open-data.md).
  'data',
  'bots',
] as const;
export type PhaseName = (typeof PHASES)[number];

export interface TurnContext {
  tx: TurnTx;
  /** The world whose week this is: every statement of the turn reads and writes only its rows. */
  worldId: number;
  /** The week being processed (the world's current week when the turn started). */
  week: number;
  worldSeed: number;
  /** Seeded by (world seed, week): the only source of randomness in a turn. */
  rng: Rng;
  /** The turn's clock (last_turn_at). */
  now: Date;
  /** The schedule's next run after `now` (world.next_turn_at); null when turns are manual only. */
  nextTurnAt: Date | null;
  /** More than SMALL_WORLD_MAX_COMPANIES active companies: the turn tables keyed by company are indexed (turnTables.ts). */
  largeWorld: boolean;
}

/** Test and operations hooks: run after each phase inside the transaction (throwing rolls the turn back). */
export interface TurnHooks {
  afterPhase?: (phase: PhaseName, ctx: TurnContext) => Promise<void> | void;
}
