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
  formula: (v) =>
    E.floor(E.mul(v.baseDemand, E.min(MAX_DEMAND_MULTIPLE, E.pow(E.div(v.referenceCents, v.averagePriceCents), DEMAND_PRICE_ELASTICITY)))),
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
 * that store's price: min(1, (the average price of the stores they could not buy from / its
 * price)^4), the city's demand curve (DEMAND_PRICE_ELASTICITY). Cheaper stores get all of them.
 * Why: without it a one-unit shelf at $0.01 pulled the city's average price down (the city then
 * bought 2x its demand), ran out at once, and handed those shoppers, in full, to a shelf of the same
 * company priced at 3x the reference price (docs/economy.md, "Store sales").
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
    retailCents: cents('Shelf price'),
  },
  formula: (v) => E.min(1, E.pow(E.div(v.unservedPriceCents, v.retailCents), DEMAND_PRICE_ELASTICITY)),
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
  formula: (v) =>
    E.divFloor(E.mul(E.cents(STORE_SALES_CAPACITY_CENTS), v.efficiency, v.productionRate, E.max(0, E.add(100, v.bonus))), 1_000_000),
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
