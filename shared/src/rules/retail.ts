/**
 * Store sales (docs/economy.md, "Store sales"). Each city has a weekly consumer demand for each
 * product; every store selling that product in that city shares it:
 * 1. reference price R (what shoppers expect to pay) = the market price x 130% x the city's factor;
 * 2. demand at R: Q0 = $8,000 x sqrt(population / 500,000) x demand_level/50 / base R (units);
 * 3. each store's weight w = (R / its price)^4 x (1 + its store bonus/100), 0 above 3R; its share
 *    s = w / sum of weights; the average price pbar = sum of s x price;
 * 4. units demanded Q = Q0 x min(2, (R / pbar)^4): two stores at one price share one demand;
 * 5. a store serves Q x s, within its shelf stock and its capacity (valued at its shelf prices);
 * 6. shoppers a store could not serve go to the other stores by weight, and buy there as many as
 *    they would at that store's price (spilloverShareRule).
 * The turn runs steps 3-5 in SQL for every city and product at once (worker/src/turn/sales.ts).
 */
import {
  CONSUMER_SPEND_PER_PRODUCT_CENTS,
  DEMAND_PRICE_ELASTICITY,
  MAX_DEMAND_MULTIPLE,
  MAX_EFFICIENCY,
  MAX_PRODUCTION_RATE,
  MAX_SHOCK_PERCENT,
  MIN_PRODUCTION_RATE,
  MIN_SHOCK_PERCENT,
  REFERENCE_POPULATION,
  RETAIL_MARKUP_PERCENT,
  SALES_MAX_PRICE_MULTIPLE,
  SALES_NEUTRAL_DEMAND,
  STORE_PRICE_SENSITIVITY,
  STORE_SALES_CAPACITY_CENTS,
} from '../constants.ts';
import type { Figure, FigureTerm } from '../figures.ts';
import { E, defineRule, type InputSpec } from './expr.ts';

const cents = (label: string, max = 100_000_000): InputSpec => ({ label, unit: 'dollars', cents: true, min: 1, max });

/** R = round(market price x 130% x city factor (basis points) / 10,000). */
export const referencePriceRule = defineRule({
  name: 'referencePrice',
  description: 'The price shoppers in this city expect to pay',
  unit: 'dollars',
  cents: true,
  inputs: {
    marketPriceCents: cents('Market price'),
    cityFactorBp: { label: 'City price factor (basis points)', unit: 'count', min: 5_000, max: 20_000 },
  },
  formula: (v) => E.max(1, E.divRound(E.mul(v.marketPriceCents, RETAIL_MARKUP_PERCENT, v.cityFactorBp), 1_000_000)),
});

/** Q0 = round($8,000 x sqrt(population / 500,000) x demand_level / 50 / base reference price). */
export const baseDemandRule = defineRule({
  name: 'baseDemand',
  description: 'Units the city buys each week at the reference price',
  unit: 'units',
  inputs: {
    population: { label: 'Population', unit: 'count', min: 1, max: 100_000_000 },
    demandLevel: { label: 'Demand level', unit: 'count', min: 0, max: 100 },
    baseReferenceCents: cents('Reference price at base prices'),
  },
  formula: (v) =>
    E.roundHalfUp(
      E.div(
        E.mul(E.cents(CONSUMER_SPEND_PER_PRODUCT_CENTS), E.sqrt(E.div(v.population, REFERENCE_POPULATION)), v.demandLevel),
        E.mul(SALES_NEUTRAL_DEMAND, v.baseReferenceCents),
      ),
    ),
});

/**
 * An instructor's demand shock (docs/worlds.md) scales the city's shoppers while it lasts: units at
 * the reference price = floor(Q0 x (100 + shock percent) / 100). Shocks on one product add up; below
 * -100% in all there are no shoppers (never a negative demand).
 */
export const shockedDemandRule = defineRule({
  name: 'shockedDemand',
  description: "Units the city buys each week at the reference price, with the instructor's demand shock",
  unit: 'units',
  inputs: {
    baseDemand: { label: 'Demand at the reference price', unit: 'units', min: 0, max: 10_000_000 },
    // Shocks on one product add up: a few of them, each between MIN_SHOCK_PERCENT and MAX_SHOCK_PERCENT.
    shockPercent: { label: 'Demand shock (instructor)', unit: 'percent', min: 4 * MIN_SHOCK_PERCENT, max: 4 * MAX_SHOCK_PERCENT },
  },
  formula: (v) => E.divFloor(E.mul(v.baseDemand, E.max(0, E.add(100, v.shockPercent))), 100),
});

/** A store's bonus, in percent: the city's bonus (when it fits a store) + store_bonus research (researchEffectRule). */
export const storeBonusRule = defineRule({
  name: 'storeBonus',
  description: "The store's bonus: the city's (when it fits a store) and research's",
  unit: 'percent',
  inputs: {
    cityBonus: { label: 'City bonus (when it fits a store)', unit: 'percent', min: -100, max: 100 },
    researchBonus: { label: 'Store bonus (research)', unit: 'percent', min: -100, max: 200 },
  },
  formula: (v) => E.add(v.cityBonus, v.researchBonus),
});

/** A store's pull on shoppers: (R / price)^4 x (1 + bonus/100); 0 above 3R. */
export const storeWeightRule = defineRule({
  name: 'storeWeight',
  description: 'How strongly shoppers prefer this store: cheaper pulls more',
  unit: 'ratio',
  inputs: {
    referenceCents: cents('Reference price'),
    retailCents: cents('Shelf price'),
    bonus: { label: 'Store bonus (city and research)', unit: 'percent', min: -50, max: 300 },
  },
  formula: (v) =>
    E.if(
      E.cmp(v.retailCents, '>', E.mul(SALES_MAX_PRICE_MULTIPLE, v.referenceCents)),
      0,
      E.mul(E.pow(E.div(v.referenceCents, v.retailCents), STORE_PRICE_SENSITIVITY), E.div(E.max(0, E.add(100, v.bonus)), 100)),
    ),
});

/** Units the city buys at the shelves' average price: floor(Q0 x min(2, (R / average)^4)). */
export const cityDemandRule = defineRule({
  name: 'cityDemand',
  description: 'Units the city buys this week at the average shelf price',
  unit: 'units',
  inputs: {
    baseDemand: { label: 'Demand at the reference price', unit: 'units', min: 0, max: 10_000_000 },
    referenceCents: cents('Reference price'),
    averagePriceCents: { label: 'Average shelf price', unit: 'dollars', cents: true, integer: false, min: 1, max: 100_000_000 },
  },
  formula: (v) => E.floor(E.mul(v.baseDemand, E.min(MAX_DEMAND_MULTIPLE, E.pow(E.div(v.referenceCents, v.averagePriceCents), DEMAND_PRICE_ELASTICITY)))),
});

/**
 * The bots' estimate of what one store sells at a price, before its capacity: the city's shoppers
 * split equally among the stores selling the product (the store counted), on the city's demand
 * curve: Q0 / stores x min(2, (R / price)^4). At the reference price it is the store's equal share.
 * A plain estimate: the turn splits by weight (storeWeightRule), which a bot cannot know in advance
 * since it depends on the other companies' prices.
 */
export const storeShoppersRule = defineRule({
  name: 'storeShoppers',
  description: "Units one store can expect to sell at its price when the city's shoppers split equally among the stores",
  unit: 'units',
  inputs: {
    baseDemand: { label: 'Demand at the reference price', unit: 'units', min: 0, max: 10_000_000 },
    stores: { label: 'Stores selling it (this one included)', unit: 'count', min: 0, max: 10_000 },
    referenceCents: cents('Reference price'),
    priceCents: cents('Shelf price'),
  },
  formula: (v) =>
    E.mul(E.div(v.baseDemand, E.max(1, v.stores)), E.min(MAX_DEMAND_MULTIPLE, E.pow(E.div(v.referenceCents, v.priceCents), DEMAND_PRICE_ELASTICITY))),
});

/**
 * Shoppers who could not buy where they chose (that store ran out or reached its capacity) try the
 * other stores selling the product in the city, by weight, and buy there as many as they would at
 * that store's price: min(1, (P_u / its price)^4), the city's demand curve (DEMAND_PRICE_ELASTICITY),
 * P_u = the average price of the stores they could not buy from, but never below the reference price
 * R. Cheaper stores get all of them.
 * Why the curve: without it a one-unit shelf at $0.01 pulled the city's average price down (the city
 * then bought 2x its demand), ran out at once, and handed those shoppers, in full, to a shelf of the
 * same company priced at 3x the reference price (docs/economy.md, "Store sales").
 * Why not below R: a shopper turned away from a bargain compares the next store with what he expects
 * to pay, not with the bargain he missed. Measured from P_u alone, one unit at $0.01 of any company
 * (it takes nearly all the weight) left every other shelf of the product in the city unsold: the
 * economy benchmark's late joiner opened its store where the product page showed 326 shoppers a week
 * unserved, next to such a shelf, and sold nothing (docs/economy.md, "A late joiner").
 */
export const spilloverShareRule = defineRule({
  name: 'spilloverShare',
  description: 'Share of the shoppers a store could not serve who buy at this store, at its price',
  unit: 'ratio',
  inputs: {
    unservedPriceCents: {
      label: 'Average price of the stores they could not buy from',
      unit: 'dollars',
      cents: true,
      integer: false,
      min: 1,
      max: 100_000_000,
    },
    referenceCents: cents('Reference price'),
    retailCents: cents('Shelf price'),
  },
  formula: (v) => E.min(1, E.pow(E.div(E.max(v.unservedPriceCents, v.referenceCents), v.retailCents), DEMAND_PRICE_ELASTICITY)),
});

/**
 * Shoppers passed on to the stores that can still sell: those the others could not serve, but at
 * most what the city buys when the shelves that could not serve them count at no less than the
 * reference price (cityDemandRule on that average), less what every shelf sold:
 * max(0, min(unserved, that demand - sold)). Why: the unserved shoppers buy at R or below in full
 * (spilloverShareRule), so without it a one-unit shelf at $0.01 would double the city's demand (the
 * city buys 2x at its average price) for the stores beside it, for the price of one unit. Shoppers
 * drawn only by a bargain that sold out go home; a shelf at R or dearer that sold out passes its
 * shoppers on as before.
 */
export const spilloverShoppersRule = defineRule({
  name: 'spilloverShoppers',
  description: 'Shoppers other stores could not serve who try the stores that can still sell',
  unit: 'units',
  inputs: {
    unserved: { label: 'Shoppers other stores could not serve', unit: 'units', min: 0, max: 10_000_000 },
    demandAtReference: {
      label: 'Units the city buys with the shelves that could not serve counted at no less than the reference price',
      unit: 'units',
      min: 0,
      max: 10_000_000,
    },
    sold: { label: 'Units every shelf sold to its own shoppers', unit: 'units', min: 0, max: 10_000_000 },
  },
  formula: (v) => E.max(0, E.min(v.unserved, E.sub(v.demandAtReference, v.sold))),
});

/** What a store can sell per week, valued at its shelf prices: $30,000 x efficiency x rate x (100 + bonus) / 10^6. */
export const storeCapacityRule = defineRule({
  name: 'storeCapacity',
  description: 'What the store can sell in a week, valued at its shelf prices',
  unit: 'dollars',
  cents: true,
  inputs: {
    efficiency: { label: 'Efficiency', unit: 'percent', min: 0, max: MAX_EFFICIENCY },
    productionRate: { label: 'Production rate', unit: 'percent', min: MIN_PRODUCTION_RATE, max: MAX_PRODUCTION_RATE },
    bonus: { label: 'Store bonus (city and research)', unit: 'percent', min: -50, max: 300 },
  },
  formula: (v) => E.divFloor(E.mul(E.cents(STORE_SALES_CAPACITY_CENTS), v.efficiency, v.productionRate, E.max(0, E.add(100, v.bonus))), 1_000_000),
});

/** Revenue: round(units x shelf price x (100 + price_bonus research) / 100). */
export const storeRevenueRule = defineRule({
  name: 'storeRevenue',
  description: 'What the shoppers pay',
  unit: 'dollars',
  cents: true,
  inputs: {
    units: { label: 'Units sold', unit: 'units', min: 0, max: 10_000_000 },
    retailCents: cents('Shelf price'),
    priceBonus: { label: 'Price bonus (research)', unit: 'percent', min: 0, max: 100 },
  },
  formula: (v) => E.divRound(E.mul(v.units, v.retailCents, E.add(100, v.priceBonus)), 100),
});

/**
 * One shelf offer in a city's market for one product, as the shoppers' split sees it: its pull
 * (storeWeightRule) and its price.
 */
export interface ShelfOffer {
  weight: number;
  priceCents: number;
}

/** What a store's best shelf price is searched against: the city's market for the product now. */
export interface ShelfMarket {
  /** What shoppers in the city expect to pay (R). */
  referenceCents: number;
  /** Units the city buys at R (baseDemandRule, an instructor's demand shock included). */
  baseDemand: number;
  /** The other stores' offers of the product in the city (this store's own offer left out). */
  others: readonly ShelfOffer[];
  /** This store's bonus (city and research), as storeWeightRule and storeCapacityRule take it. */
  storeBonus: number;
  /** Research price bonus (storeRevenueRule). */
  priceBonus: number;
  /** What the store can still sell in a week after its other shelves, at shelf prices (cents). */
  capacityCents: number;
  /** Units the store can put on the shelf. */
  units: number;
  /** What each unit cost the company (average cost, cents): a unit sold below it loses money. */
  unitCostCents: number;
}

export interface ShelfOutcome {
  priceCents: number;
  units: number;
  revenueCents: number;
  /** revenue - units x unit cost. */
  marginCents: number;
}

/**
 * The week's sales of the shelf at one price, by the turn's rules (steps 3-5 of the split above):
 * its weight among the others', the city's demand at the new average price, its share of it, within
 * the units and the store's capacity. The shoppers other stores cannot serve (step 6) are left out:
 * they depend on the others' stock, and leaving them out never raises the price.
 */
export function shelfOutcomeAt(market: ShelfMarket, priceCents: number): ShelfOutcome {
  const weight = storeWeightRule.evaluate({ referenceCents: market.referenceCents, retailCents: priceCents, bonus: market.storeBonus });
  const otherWeight = market.others.reduce((sum, offer) => sum + offer.weight, 0);
  const otherPriceWeight = market.others.reduce((sum, offer) => sum + offer.weight * offer.priceCents, 0);
  let units = 0;
  if (weight > 0) {
    const totalWeight = otherWeight + weight;
    const demand = cityDemandRule.evaluate({
      baseDemand: market.baseDemand,
      referenceCents: market.referenceCents,
      averagePriceCents: (otherPriceWeight + weight * priceCents) / totalWeight,
    });
    units = Math.min(market.units, Math.floor((demand * weight) / totalWeight), Math.floor(Math.max(0, market.capacityCents) / priceCents));
  }
  const revenueCents = storeRevenueRule.evaluate({ units, retailCents: priceCents, priceBonus: market.priceBonus });
  return { priceCents, units, revenueCents, marginCents: revenueCents - units * market.unitCostCents };
}

/**
 * The shelf price the store's forecast finds best: the most margin over the goods' cost this week
 * (shelfOutcomeAt), searched from 1 cent to the price above which shoppers stop coming
 * (SALES_MAX_PRICE_MULTIPLE x R): a pass over the whole range in 600 steps, then finer passes
 * around the best step down to the cent. Ties go to the price that sells more units. When every
 * price loses money (goods that cost more than shoppers pay), it is the one that loses least; the
 * dialog's below-cost warning then says what each unit loses.
 */
export function bestShelfPrice(market: ShelfMarket): ShelfOutcome {
  const highest = Math.max(1, SALES_MAX_PRICE_MULTIPLE * market.referenceCents);
  // Assigned in `consider`: declared this way so the checker does not narrow it to null here.
  let best = null as ShelfOutcome | null;
  const consider = (price: number) => {
    const outcome = shelfOutcomeAt(market, price);
    if (best === null || outcome.marginCents > best.marginCents || (outcome.marginCents === best.marginCents && outcome.units > best.units)) best = outcome;
  };
  let step = Math.max(1, Math.ceil(highest / 600));
  for (let price = step; price <= highest; price += step) consider(price);
  while (step > 1) {
    const around = best!.priceCents;
    const wide = step;
    step = Math.max(1, Math.ceil(step / 20));
    for (let price = Math.max(1, around - wide); price <= Math.min(highest, around + wide); price += step) consider(price);
  }
  return best!;
}

/** What a shelf sold in the split (storeSalesSql's row for it), in the game's units. */
export interface ShelfSplit {
  /** Units the city buys at the shelves' average price (cityDemandRule). */
  cityDemand: number;
  /** The shelf's share of the city's shoppers (its weight over the market's, 0-1). */
  share: number;
  priceCents: number;
  referenceCents: number;
  /** The other stores' weight-averaged price; null when no other store sells the product in the city. */
  othersPriceCents: number | null;
  otherStores: number;
  stock: number;
  /** The store's capacity (storeCapacityRule), shared by all its shelves. */
  capacityCents: number;
  /** Units its own shoppers bought (within stock and capacity). */
  ownUnits: number;
  /** Units in all: its own shoppers and those other stores could not serve (spilloverShareRule). */
  units: number;
}

/**
 * "Why this number" for a shelf's units: its share of the city's demand, its price against the
 * others', what its shelf and its store's capacity allow, and the shoppers other stores sent. The
 * split itself runs in SQL (storeSalesSql); these are its own figures for the shelf, not recomputed.
 */
export function storeUnitsWhy(split: ShelfSplit): Figure {
  const dollars = (cents: number) => Math.round(cents) / 100;
  const terms: FigureTerm[] = [
    { name: 'city_demand', label: "Units the city buys at the shelves' average price", value: split.cityDemand, unit: 'units' },
    { name: 'share', label: "This store's share of the city's shoppers (cheaper pulls more)", value: Math.round(split.share * 10_000) / 100, unit: 'percent' },
    { name: 'price', label: 'Its shelf price', value: dollars(split.priceCents), unit: 'dollars' },
    ...(split.othersPriceCents === null
      ? [{ name: 'other_stores', label: 'Other stores selling it in the city', value: 0, unit: 'count' as const }]
      : [
          { name: 'other_stores', label: 'Other stores selling it in the city', value: split.otherStores, unit: 'count' as const },
          { name: 'others_price', label: "The other stores' average price", value: dollars(split.othersPriceCents), unit: 'dollars' as const },
        ]),
    { name: 'reference_price', label: 'What shoppers expect to pay', value: dollars(split.referenceCents), unit: 'dollars' },
    { name: 'stock', label: 'Units on the shelf', value: split.stock, unit: 'units' },
    { name: 'capacity', label: 'What the store can sell in a week (all its shelves, at their prices)', value: dollars(split.capacityCents), unit: 'dollars' },
    { name: 'own_shoppers', label: 'Bought by its own shoppers (within the shelf and the capacity)', value: split.ownUnits, unit: 'units' },
    { name: 'from_other_stores', label: 'Shoppers other stores could not serve', value: split.units - split.ownUnits, unit: 'units' },
  ];
  return {
    value: split.units,
    unit: 'units',
    formula: 'own_shoppers + from_other_stores, own_shoppers = floor(city_demand x share/100) within stock and capacity',
    terms,
  };
}
