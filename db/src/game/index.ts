/** The game's functions by domain (docs/architecture.md, "Domains"). */
export * from './books/index.ts';
export * from './clock/index.ts';
export * from './buildings/index.ts';
export * from './catalog/index.ts';
export * from './forecast/index.ts';
export * from './companies/index.ts';
export * from './goods/index.ts';
export * from './politics/index.ts';
export * from './research/index.ts';
export * from './retail/index.ts';
export * from './shares/index.ts';
export * from './worlds/index.ts';
export * from './exchange/index.ts';
export * from './opendata/index.ts';
export * from './action.ts';
export * from './actions.ts';
export * from './replay/index.ts';
