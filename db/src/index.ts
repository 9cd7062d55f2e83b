/**
 * The db package for the server processes. The embedded PostgreSQL server is NOT exported here:
 * only `npm start` (scripts/start.ts), the test setup and the benchmarks start one, through
 * '@marketcraft/db/embedded.ts', so the API and the worker never load it (its exit hooks would
 * stop the process at the first SIGTERM).
 */
export * from './client.ts';
export * from './migrate.ts';
export * as schema from './schema/index.ts';
export * from './schema/index.ts';
export * from './game/index.ts';
export * from './ruleSql.ts';
export * from './moneySql.ts';
export * from './sqlTemplate.ts';
export * from './unavailable.ts';
