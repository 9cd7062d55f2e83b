export * from './world.ts';
export * from './ledger.ts';
export * from './companies.ts';
