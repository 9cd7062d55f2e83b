export * from './log.ts';
export * from './stateHash.ts';
