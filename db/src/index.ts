export * from './client.ts';
export * from './migrate.ts';
export * from './embedded.ts';
export * as schema from './schema/index.ts';
export * from './schema/index.ts';
export { seedWorld } from './seed/index.ts';
export * from './game/index.ts';
