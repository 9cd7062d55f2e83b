/** Political events and elections (docs/economy.md, phase 8). */
import {
  ELECTION_MAX_CUT_BELOW_BASE,
  ELECTION_TAX_CUT_POINTS,
  MAX_INFLUENCE_POINTS,
  MAX_TAX_EVENT_POINTS,
  MAX_TAX_RATE,
  POLITICAL_EVENT_CHANCE,
} from '../constants.ts';
import { randomInt, type Rng } from './random.ts';

export type RolledEvent = { type: 'tax_cut' | 'tax_increase'; points: number } | { type: 'subsidy' };

/**
 * One country's roll for the turn. Three draws are always taken (so countries never shift each
 * other's numbers): chance, kind, size. An event happens with probability 10%; it is favourable
 * (tax_cut or subsidy, half each) with probability 0.5 + 0.4 x min(1, total influence / 1000),
 * otherwise a tax_increase. Tax events move the rate by 2 to 5 points.
 */
export function rollPoliticalEvent(rng: Rng, totalInfluence: number): RolledEvent | null {
  const chance = rng();
  const kind = rng();
  const size = randomInt(rng, 2, MAX_TAX_EVENT_POINTS);
  if (chance >= POLITICAL_EVENT_CHANCE) return null;
  const favourable = 0.5 + 0.4 * Math.min(1, Math.max(0, totalInfluence) / MAX_INFLUENCE_POINTS);
  if (kind < favourable / 2) return { type: 'tax_cut', points: size };
  if (kind < favourable) return { type: 'subsidy' };
  return { type: 'tax_increase', points: size };
}

/** Effective tax rate: the country's rate + active increases - active cuts, within 0-100. */
export function effectiveTaxRate(taxRate: number, increasePoints: number, cutPoints: number): number {
  return Math.max(0, Math.min(MAX_TAX_RATE, taxRate + increasePoints - cutPoints));
}

/**
 * The tax rate an election sets. When a company holds influence there, the top influencer's
 * preference (lower taxes) wins: 3 points lower, never more than 10 below the base rate. Without
 * influence the rate moves up to 3 points back toward its base.
 */
export function electionTaxRate(taxRate: number, baseTaxRate: number, hasInfluence: boolean): number {
  if (hasInfluence) return Math.max(0, Math.min(taxRate, Math.max(baseTaxRate - ELECTION_MAX_CUT_BELOW_BASE, taxRate - ELECTION_TAX_CUT_POINTS)));
  const gap = baseTaxRate - taxRate;
  return taxRate + Math.sign(gap) * Math.min(Math.abs(gap), ELECTION_TAX_CUT_POINTS);
}
