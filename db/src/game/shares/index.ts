/** Shares: the share records, trades, portfolios and the valuation (net worth). */
export * from './stocks.ts';
export * from './valuation.ts';
