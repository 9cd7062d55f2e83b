/** Retail: shelves, putting goods on them, and the shoppers' split (the sales plan). */
export * from './stores.ts';
export * from './shelving.ts';
export * from './salesPlan.ts';
export * from './shelfPrice.ts';
