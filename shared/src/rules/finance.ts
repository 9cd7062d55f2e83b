/**
 * Taxes, dividends and share prices (docs/economy.md, "Taxes", "Dividends", "Shares"). Written once
 * (expr.ts); the turn's SQL embeds them. Money in integer cents.
 */
import { DISTRESS_DISCOUNT_PERCENT_PER_TURN, DIVIDEND_RATE, LISTING_SHARE_PRICE, SHARE_DEPTH_PERCENT, SHARE_SENTIMENT_DECAY_PERCENT } from '../constants.ts';
import { E, defineRule, type InputSpec } from './expr.ts';

const money = (label: string): InputSpec => ({ label, unit: 'dollars', cents: true, min: -100_000_000_000, max: 100_000_000_000 });

/**
 * Tax of a week: the rate on the week's profit beyond the losses carried from earlier weeks:
 * round(max(0, profit - carried loss) x rate (basis points) / 10,000).
 */
export const taxRule = defineRule({
  name: 'tax',
  description: "Tax on this week's profit, after the losses carried from earlier weeks",
  unit: 'dollars',
  cents: true,
  inputs: {
    profitCents: money('Profit before tax'),
    carriedLossCents: { label: 'Losses carried forward', unit: 'dollars', cents: true, min: 0, max: 100_000_000_000 },
    rateBp: { label: 'Tax rate (basis points)', unit: 'count', min: 0, max: 10_000 },
  },
  formula: (v) => E.divRound(E.mul(E.max(0, E.sub(v.profitCents, v.carriedLossCents)), v.rateBp), 10_000),
});

/** Losses carried into next week: max(0, carried - profit) (a loss adds to them, a profit uses them up). */
export const carriedLossRule = defineRule({
  name: 'carriedLoss',
  description: 'Losses carried forward to reduce future taxes',
  unit: 'dollars',
  cents: true,
  inputs: {
    profitCents: money('Profit before tax'),
    carriedLossCents: { label: 'Losses carried forward', unit: 'dollars', cents: true, min: 0, max: 100_000_000_000 },
  },
  formula: (v) => E.max(0, E.sub(v.carriedLossCents, v.profitCents)),
});

/** Dividend per share: floor(20% x profit after tax / total shares); 0 without profit. */
export const dividendPerShareRule = defineRule({
  name: 'dividendPerShare',
  description: "Dividend per share: 20% of the week's profit after tax",
  unit: 'dollars',
  cents: true,
  inputs: {
    profitCents: money('Profit after tax'),
    totalShares: { label: 'Shares', unit: 'count', min: 1, max: 1_000_000_000 },
  },
  formula: (v) => E.divFloor(E.mul(E.max(0, v.profitCents), Math.round(DIVIDEND_RATE * 100)), E.mul(100, v.totalShares)),
});

/**
 * A share's fundamental value: the company's own assets plus what it holds in other companies, per
 * share, cut 20% for each turn in a row it ended in debt: floor(max(0, equity) x (100 - 20 x
 * negative turns) / (100 x shares)).
 */
export const shareFundamentalRule = defineRule({
  name: 'shareFundamental',
  description: 'Book value per share, cut while the company is in debt',
  unit: 'dollars',
  cents: true,
  inputs: {
    equityCents: money('Assets and holdings'),
    totalShares: { label: 'Shares', unit: 'count', min: 1, max: 1_000_000_000 },
    negativeTurns: { label: 'Turns in a row in debt', unit: 'count', min: 0, max: 5 },
  },
  formula: (v) =>
    E.divFloor(E.mul(E.max(0, v.equityCents), E.max(0, E.sub(100, E.mul(DISTRESS_DISCOUNT_PERCENT_PER_TURN, v.negativeTurns)))), E.mul(100, v.totalShares)),
});

/** The posted share price: round(fundamental x e^sentiment), at least 1 cent while the fundamental is positive. */
export const sharePriceRule = defineRule({
  name: 'sharePrice',
  description: 'Share price: book value per share moved by buying and selling pressure',
  unit: 'dollars',
  cents: true,
  inputs: {
    fundamentalCents: { label: 'Book value per share', unit: 'dollars', cents: true, min: 0, max: 10_000_000_000 },
    sentiment: { label: 'Buying pressure (log)', unit: 'ratio', integer: false, min: -5, max: 5 },
  },
  formula: (v) => E.if(E.cmp(v.fundamentalCents, '<=', 0), 0, E.max(1, E.roundHalfUp(E.mul(v.fundamentalCents, E.exp(v.sentiment))))),
});

/** Next week's sentiment: this week's pressure (old + flow / depth) decays by half. */
export const nextSentimentRule = defineRule({
  name: 'nextSentiment',
  description: 'Buying pressure carried into next week',
  unit: 'ratio',
  inputs: {
    sentiment: { label: 'Buying pressure (log)', unit: 'ratio', integer: false, min: -5, max: 5 },
    flow: { label: 'Net shares bought this week', unit: 'count', min: -1_000_000, max: 1_000_000 },
    depth: { label: 'Share depth', unit: 'count', min: 1, max: 1_000_000_000 },
  },
  formula: (v) => E.mul(E.add(v.sentiment, E.div(v.flow, v.depth)), (100 - SHARE_SENTIMENT_DECAY_PERCENT) / 100),
});

/** A share's depth: 50% of the company's shares (buying that many moves the price by e). */
export const shareDepthRule = defineRule({
  name: 'shareDepth',
  description: 'How many shares move the price by a factor e',
  unit: 'count',
  inputs: { totalShares: { label: 'Shares', unit: 'count', min: 1, max: 1_000_000_000 } },
  formula: (v) => E.max(1, E.divFloor(E.mul(v.totalShares, SHARE_DEPTH_PERCENT), 100)),
});

/**
 * How a new company lists: one share per LISTING_SHARE_PRICE ($100) of its book value (at least
 * one), each priced at the book value per share (rounded down to the cent).
 */
export function listing(bookCents: number): { totalShares: number; priceCents: number } {
  const totalShares = Math.max(1, Math.round(bookCents / (LISTING_SHARE_PRICE * 100)));
  return { totalShares, priceCents: Math.max(0, Math.floor(bookCents / totalShares)) };
}

const bookPart = (label: string): InputSpec => ({ label, unit: 'dollars', cents: true, min: 0, max: 100_000_000_000 });

/** What backs a company's shares: cash + goods + buildings + shares it holds in other companies. */
export const equityRule = defineRule({
  name: 'equity',
  description: 'What the company owns: cash, goods, buildings and shares in other companies',
  unit: 'dollars',
  cents: true,
  inputs: {
    cashCents: money('Cash'),
    goodsCents: bookPart('Goods at what selling them would pay'),
    buildingsCents: bookPart('Buildings at what selling them would refund'),
    holdingsCents: bookPart('Shares held in other companies at what selling them would pay'),
  },
  formula: (v) => E.add(v.cashCents, v.goodsCents, v.buildingsCents, v.holdingsCents),
});

/** Net worth: equity less what other companies' shareholdings in this company are worth (their claims). */
export const netWorthRule = defineRule({
  name: 'netWorth',
  description: 'Net worth: what the company owns, less the part other companies own through its shares',
  unit: 'dollars',
  cents: true,
  inputs: {
    cashCents: money('Cash'),
    goodsCents: bookPart('Goods at what selling them would pay'),
    buildingsCents: bookPart('Buildings at what selling them would refund'),
    holdingsCents: bookPart('Shares held in other companies at what selling them would pay'),
    claimsCents: bookPart("Other companies' shares in this company at what selling them would pay"),
  },
  formula: (v) => E.sub(E.add(v.cashCents, v.goodsCents, v.buildingsCents, v.holdingsCents), v.claimsCents),
});
