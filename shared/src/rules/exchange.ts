/**
 * The exchange between players (docs/exchange.md): the fee, and the market maker's standing
 * schedule in the weekly call auction.
 *
 * The maker's schedule is its price curve (market.ts) read the other way round: instead of "what do
 * n units cost", "how many units would it sell (or buy) at price p". With posted price P, depth D,
 * this week's flow q (instant trades so far), half-spread h and the wholesale margin m (consumer
 * goods), the maker sells its x-th next unit at P x e^((q+x)/D) x (1 + h + m) and buys it at
 * P x e^((q-x)/D) x (1 - h). So at a clearing price p it supplies
 *   floor(D x ln(p / (P x (1 + h + m))) - q)   units (0 below its ask)
 * and demands
 *   floor(q + D x ln(P x (1 - h) / p))          units (0 above its bid),
 * each within the market's reach (MARKET_MAX_REACH_DEPTHS depths with this week's flow). Every unit
 * it trades in the auction is priced at p, never better for the player than the curve it walks in
 * an instant trade: an auction fill against the maker never beats the instant market.
 */
import { EXCHANGE_FEE_BP, MARKET_HALF_SPREAD_BP } from '../constants.ts';
import { E, defineRule, type InputSpec } from './expr.ts';
import { MARKET_MAX_REACH_DEPTHS } from './market.ts';

const value: InputSpec = { label: 'Value traded (price x units)', unit: 'dollars', cents: true, min: 0, max: 1_000_000_000_000 };

/** The exchange fee on a traded value: ceil(value x EXCHANGE_FEE_BP / 10,000), cents. */
export const exchangeFeeRule = defineRule({
  name: 'exchangeFee',
  description: "The exchange's fee on a value traded, each side (rounded up to the cent)",
  unit: 'dollars',
  cents: true,
  inputs: { value },
  formula: (v) => E.divCeil(E.mul(v.value, EXCHANGE_FEE_BP), 10_000),
});

const price: InputSpec = { label: 'Posted price', unit: 'dollars', cents: true, min: 1, max: 10_000_000 };
const depth: InputSpec = { label: 'Market depth', unit: 'units', min: 1, max: 10_000_000 };
const flow: InputSpec = { label: 'Net units bought this week before the auction', unit: 'units', min: -10_000_000, max: 10_000_000 };
const at: InputSpec = { label: 'Auction price', unit: 'dollars', cents: true, min: 1, max: 1_000_000_000 };
const marginBp: InputSpec = { label: 'Wholesale margin (basis points)', unit: 'count', min: 0, max: 10_000 };

/** Units the market maker sells in the auction at price `at` (its supply): within its reach, never negative. */
export const makerSupplyRule = defineRule({
  name: 'makerSupply',
  description: "Units the market maker would sell in this week's auction at this price",
  unit: 'units',
  inputs: { price, depth, flow, at, marginBp },
  formula: (v) => {
    const ask = E.mul(v.price, E.div(E.add(10_000 + MARKET_HALF_SPREAD_BP, v.marginBp), 10_000));
    const units = E.floor(E.sub(E.mul(v.depth, E.ln(E.div(v.at, ask))), v.flow));
    // Reach: |flow + x| <= 10 D, so x <= 10 D - flow.
    return E.clamp(units, 0, E.max(0, E.sub(E.mul(MARKET_MAX_REACH_DEPTHS, v.depth), v.flow)));
  },
});

/** Units the market maker buys in the auction at price `at` (its demand): within its reach, never negative. */
export const makerDemandRule = defineRule({
  name: 'makerDemand',
  description: "Units the market maker would buy in this week's auction at this price",
  unit: 'units',
  inputs: { price, depth, flow, at },
  formula: (v) => {
    const bid = E.mul(v.price, (10_000 - MARKET_HALF_SPREAD_BP) / 10_000);
    const units = E.floor(E.add(v.flow, E.mul(v.depth, E.ln(E.div(bid, v.at)))));
    // Reach: |flow - x| <= 10 D, so x <= 10 D + flow.
    return E.clamp(units, 0, E.max(0, E.add(E.mul(MARKET_MAX_REACH_DEPTHS, v.depth), v.flow)));
  },
});
