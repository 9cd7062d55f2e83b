/**
 * Bots (owned by the bots engineer): the budgets and caps every bot obeys (docs/bots.md).
 * Money in integer cents.
 */
import type { PlanBudget } from './types.ts';

/** A bot spends at most this share of its cash at the start of its turn (all actions together). */
export const BOT_SPEND_SHARE_PER_TURN = 0.3;
/** A bot never spends below this cash ($50,000); a bot under it only sells. */
export const BOT_CASH_RESERVE_CENTS = 5_000_000;
/** A bot never owns more buildings than this. */
export const BOT_BUILDING_CAP = 12;
/** A bot builds at most this many buildings per turn. */
export const BOT_BUILDS_PER_TURN = 1;
/** A bot raises the efficiency of at most this many buildings per turn. */
export const BOT_EFFICIENCY_ACTIONS_PER_TURN = 3;
/** A bot never holds more than this share of another company's shares (no takeovers). */
export const BOT_MAX_HOLDING_SHARE = 0.2;
/** Bots leave at least this share of every company's shares on the market for players. */
export const BOT_MIN_FLOAT_LEFT_SHARE = 0.5;
/** A bot buys at most this many shares of one issuer per turn. */
export const BOT_MAX_SHARES_PER_TRADE = 10;
/** A bot keeps this many weeks of its buildings' input needs in the warehouse before selling the rest. */
export const BOT_INPUT_WEEKS_KEPT = 2;
/** Shelves: a shelf below this many units gets restocked... */
export const BOT_SHELF_LOW_UNITS = 60;
/** ...up to this many units. */
export const BOT_SHELF_TARGET_UNITS = 200;
/** A bot adds at most this many new products to one store per turn, and keeps at most SHELF_PRODUCTS on a shelf. */
export const BOT_NEW_SHELF_PRODUCTS_PER_TURN = 1;
export const BOT_MAX_SHELF_PRODUCTS = 6;
/** Retail price = city market price x a markup in this range (the strategy narrows it). */
export const BOT_MIN_MARKUP = 1.2;
export const BOT_MAX_MARKUP = 1.6;

/** Cents a bot may spend this turn: 30% of its cash, never taking it below the reserve. */
export function turnSpendingCents(cashCents: number): number {
  return Math.max(0, Math.min(Math.floor(cashCents * BOT_SPEND_SHARE_PER_TURN), cashCents - BOT_CASH_RESERVE_CENTS));
}

/** The planning budget a strategy draws from (estimates; execute.ts checks the real cash). */
export function planBudget(totalCents: number): PlanBudget {
  let remaining = Math.max(0, Math.floor(totalCents));
  return {
    get remainingCents() {
      return remaining;
    },
    take(costCents: number) {
      if (!Number.isFinite(costCents) || costCents < 0 || costCents > remaining) return false;
      remaining -= costCents;
      return true;
    },
  };
}
