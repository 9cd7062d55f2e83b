/** Product and city prices and demand between turns (docs/economy.md, phase 5). */
import { DEMAND_RECOVERY_RATE, MARKET_DEPTH_UNITS, MARKET_MAX_MOVE, MARKET_REVERSION_RATE, MAX_PRICE_FACTOR, MIN_PRICE_FACTOR } from '../constants.ts';

/**
 * The new current price of a product:
 * 1. trading pressure: price x (1 + clamp(net / 1000, -1, 1) x 10%) where net = units bought - units sold;
 * 2. reversion: + 10% of the gap to the base price;
 * 3. rounded to the cent and bounded to [0.25 x base, 4 x base] (and at least 1 cent).
 */
export function nextProductPriceCents(currentCents: number, baseCents: number, unitsBought: number, unitsSold: number): number {
  const pressure = Math.max(-1, Math.min(1, (unitsBought - unitsSold) / MARKET_DEPTH_UNITS));
  const traded = currentCents * (1 + pressure * MARKET_MAX_MOVE);
  const reverted = traded + (baseCents - traded) * MARKET_REVERSION_RATE;
  const low = Math.max(1, Math.ceil(baseCents * MIN_PRICE_FACTOR));
  const high = Math.floor(baseCents * MAX_PRICE_FACTOR);
  return Math.min(high, Math.max(low, Math.round(reverted)));
}

/** A city's market price follows its product: old city price x new product price / old product price. */
export function nextCityPriceCents(oldCityCents: number, oldProductCents: number, newProductCents: number): number {
  return Math.max(1, Math.round((oldCityCents * newProductCents) / oldProductCents));
}

/** Demand moves 25% of the gap toward its base each turn, at least one point, never past the base. */
export function recoveredDemand(level: number, base: number): number {
  const gap = base - level;
  if (gap === 0) return level;
  const step = Math.max(1, Math.round(Math.abs(gap) * DEMAND_RECOVERY_RATE));
  return level + Math.sign(gap) * Math.min(Math.abs(gap), step);
}
