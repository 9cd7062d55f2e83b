/** What every phase of a turn receives: the open transaction, the week being processed, the rng. */
import type { Rng } from '@marketcraft/shared';
import type { DbExecutor } from '@marketcraft/db';

export type TurnTx = DbExecutor;

export const PHASES = [
  'bots',
  'production',
  'sales',
  'costs',
  'markets',
  'stocks',
  'dividends',
  'politics',
  'bankruptcy',
  'finish',
] as const;
export type PhaseName = (typeof PHASES)[number];

export interface TurnContext {
  tx: TurnTx;
  /** The week being processed (the world's current week when the turn started). */
  week: number;
  worldSeed: number;
  /** Seeded by (world seed, week): the only source of randomness in a turn. */
  rng: Rng;
  /** The turn's clock (last_turn_at). */
  now: Date;
  /** The schedule's next run after `now` (world.next_turn_at); null when turns are manual only. */
  nextTurnAt: Date | null;
}

/** Test and operations hooks: run after each phase inside the transaction (throwing rolls the turn back). */
export interface TurnHooks {
  afterPhase?: (phase: PhaseName, ctx: TurnContext) => Promise<void> | void;
}
