/** The catalogue: goods, recipes, cities and their market data (read-only). */
export * from './catalog.ts';
