import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'shared/src/**/*.test.ts',
      'db/test/**/*.test.ts',
      'api/test/**/*.test.ts',
      'api/src/**/*.test.ts',
      'worker/test/**/*.test.ts',
      'worker/src/**/*.test.ts',
      'web/src/**/*.test.ts',
      'lint/test/**/*.test.ts',
    ],
    globalSetup: ['./db/src/testing/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two files at a time (vitest's default on 2 cores is one): each has its own database, and a
    // file mostly waits for PostgreSQL, so two keep both cores busy. 14 API files: 258 s -> 183 s.
    maxWorkers: 2,
  },
});
