/** Shares: the share records, trades, portfolios and the stock exchange's table. */
export * from './stocks.ts';
export * from './overview.ts';
