export * from './ledger.ts';
export * from './orders.ts';
export * from './auction.ts';
export * from './books.ts';
export * from './contracts.ts';
