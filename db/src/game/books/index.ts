/** The books: the ledger (every change of cash), the player's transactions and week reports, the invariant checks. */
export * from './ledger.ts';
export * from './transactions.ts';
export * from './reports.ts';
export * from './invariants.ts';
