/**
 * Every rule of the economy written with the rule DSL (expr.ts), in one list: the agreement test
 * (worker/test/rules-agreement.integration.test.ts) checks each of them in TypeScript against
 * PostgreSQL, and docs/economy.md describes them.
 */
import type { Rule } from './expr.ts';
import {
  buildingBookValueRule,
  efficiencyRule,
  equipmentSpentRule,
  inputNeededRule,
  operatingCostRule,
  outputBonusRule,
  outputFromInputRule,
  plannedOutputRule,
  wagesRule,
} from './production.ts';
import {
  goodsBuyCostRule,
  liquidationValueRule,
  marketBuyCostRule,
  marketMidPriceRule,
  marketOrderFitsRule,
  marketSellProceedsRule,
  nextMarketPriceRule,
  shockedPriceRule,
} from './market.ts';
import {
  baseDemandRule,
  cityDemandRule,
  referencePriceRule,
  shockedDemandRule,
  spilloverShareRule,
  spilloverShoppersRule,
  storeBonusRule,
  storeCapacityRule,
  storeRevenueRule,
  storeShoppersRule,
  storeWeightRule,
} from './retail.ts';
import { researchEffectRule } from './research.ts';
import {
  carriedLossRule,
  dividendPerShareRule,
  equityRule,
  netWorthRule,
  nextSentimentRule,
  shareDepthRule,
  shareFundamentalRule,
  sharePriceRule,
  taxRule,
} from './finance.ts';
import { effectiveTaxRateRule, electionTaxRateRule } from './politics.ts';
import { exchangeFeeRule, makerDemandRule, makerSupplyRule } from './exchange.ts';

export const RULES: readonly Rule[] = [
  efficiencyRule,
  plannedOutputRule,
  inputNeededRule,
  outputFromInputRule,
  wagesRule,
  operatingCostRule,
  buildingBookValueRule,
  marketBuyCostRule,
  marketSellProceedsRule,
  liquidationValueRule,
  marketMidPriceRule,
  nextMarketPriceRule,
  referencePriceRule,
  baseDemandRule,
  storeWeightRule,
  cityDemandRule,
  storeCapacityRule,
  storeRevenueRule,
  taxRule,
  carriedLossRule,
  dividendPerShareRule,
  equityRule,
  netWorthRule,
  shareFundamentalRule,
  sharePriceRule,
  nextSentimentRule,
  shareDepthRule,
  effectiveTaxRateRule,
  electionTaxRateRule,
  // Added last: each rule's samples are seeded by its place in this list.
  shockedPriceRule,
  marketOrderFitsRule,
  goodsBuyCostRule,
  spilloverShareRule,
  outputBonusRule,
  researchEffectRule,
  equipmentSpentRule,
  shockedDemandRule,
  storeShoppersRule,
  storeBonusRule,
  exchangeFeeRule,
  makerSupplyRule,
  makerDemandRule,
  spilloverShoppersRule,
] as readonly Rule[];
