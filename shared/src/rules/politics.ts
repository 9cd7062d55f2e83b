/** Political events and elections (docs/economy.md, "Politics"). */
import {
  ELECTION_MAX_DISTANCE_FROM_BASE,
  ELECTION_TAX_STEP_POINTS,
  MAX_INFLUENCE_POINTS,
  MAX_TAX_EVENT_POINTS,
  MAX_TAX_RATE,
  POLITICAL_EVENT_CHANCE,
  PUBLIC_INFLUENCE_FOR_BASE_RATE,
} from '../constants.ts';
import { E, defineRule } from './expr.ts';
import { randomInt, type Rng } from './random.ts';

export type RolledEvent = { type: 'tax_cut' | 'tax_increase'; points: number } | { type: 'subsidy' };

/**
 * One country's roll for the turn. Three draws are always taken (so countries never shift each
 * other's numbers): chance, kind, size. An event happens with probability 10%; it is favourable to
 * business (tax_cut or subsidy, half each) with probability 0.5 + 0.4 x clamp(net lobby / 1000, -1, 1),
 * where the net lobby = influence for lower taxes - influence for higher taxes; otherwise a
 * tax_increase. Tax events move the rate by 2 to 5 points.
 */
export function rollPoliticalEvent(rng: Rng, netLobbyForLowerTaxes: number): RolledEvent | null {
  const chance = rng();
  const kind = rng();
  const size = randomInt(rng, 2, MAX_TAX_EVENT_POINTS);
  if (chance >= POLITICAL_EVENT_CHANCE) return null;
  const favourable = 0.5 + 0.4 * Math.max(-1, Math.min(1, netLobbyForLowerTaxes / MAX_INFLUENCE_POINTS));
  if (kind < favourable / 2) return { type: 'tax_cut', points: size };
  if (kind < favourable) return { type: 'subsidy' };
  return { type: 'tax_increase', points: size };
}

/**
 * The tax rate an election sets. Each side gathers the influence backing it; the citizens' 300
 * points back a return to the base rate (higher taxes while the rate is below its base, lower while
 * above). The bigger side moves the rate 3 points its way, never more than 10 from the base rate
 * (a rate already beyond that is not pushed further); a tie moves it up to 3 points back toward the
 * base.
 */
export const electionTaxRateRule = defineRule({
  name: 'electionTaxRate',
  description: 'The tax rate after an election',
  unit: 'percent',
  inputs: {
    taxRate: { label: 'Tax rate', unit: 'percent', min: 0, max: MAX_TAX_RATE },
    baseTaxRate: { label: 'Base tax rate', unit: 'percent', min: 0, max: MAX_TAX_RATE },
    lowerTaxesInfluence: { label: 'Influence for lower taxes', unit: 'count', min: 0, max: 10_000_000 },
    higherTaxesInfluence: { label: 'Influence for higher taxes', unit: 'count', min: 0, max: 10_000_000 },
  },
  formula: (v) => {
    const lowerSide = E.add(v.lowerTaxesInfluence, E.if(E.cmp(v.taxRate, '>', v.baseTaxRate), PUBLIC_INFLUENCE_FOR_BASE_RATE, 0));
    const higherSide = E.add(v.higherTaxesInfluence, E.if(E.cmp(v.taxRate, '<', v.baseTaxRate), PUBLIC_INFLUENCE_FOR_BASE_RATE, 0));
    const cut = E.min(v.taxRate, E.max(E.sub(v.baseTaxRate, ELECTION_MAX_DISTANCE_FROM_BASE), E.sub(v.taxRate, ELECTION_TAX_STEP_POINTS)));
    const rise = E.max(v.taxRate, E.min(E.add(v.baseTaxRate, ELECTION_MAX_DISTANCE_FROM_BASE), E.add(v.taxRate, ELECTION_TAX_STEP_POINTS)));
    const towardBase = E.add(v.taxRate, E.clamp(E.sub(v.baseTaxRate, v.taxRate), -ELECTION_TAX_STEP_POINTS, ELECTION_TAX_STEP_POINTS));
    const next = E.if(E.cmp(lowerSide, '>', higherSide), cut, E.if(E.cmp(lowerSide, '<', higherSide), rise, towardBase));
    return E.clamp(next, 0, MAX_TAX_RATE);
  },
});

/** The citizens' points in an election: for the base rate's side, or none at the base rate. */
export function publicInfluence(taxRate: number, baseTaxRate: number): { lower: number; higher: number } {
  return {
    lower: taxRate > baseTaxRate ? PUBLIC_INFLUENCE_FOR_BASE_RATE : 0,
    higher: taxRate < baseTaxRate ? PUBLIC_INFLUENCE_FOR_BASE_RATE : 0,
  };
}

/** Effective tax rate: the country's rate + active increases - active cuts, within 0-100. */
export const effectiveTaxRateRule = defineRule({
  name: 'effectiveTaxRate',
  description: 'The tax rate this week, with the political events in force',
  unit: 'percent',
  inputs: {
    taxRate: { label: 'Tax rate', unit: 'percent', min: 0, max: MAX_TAX_RATE },
    increasePoints: { label: 'Active tax increases', unit: 'percent', min: 0, max: 100 },
    cutPoints: { label: 'Active tax cuts', unit: 'percent', min: 0, max: 100 },
  },
  formula: (v) => E.clamp(E.sub(E.add(v.taxRate, v.increasePoints), v.cutPoints), 0, MAX_TAX_RATE),
});
