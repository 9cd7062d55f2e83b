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
    // A worker keeps the modules it has loaded from one file to the next (no fresh module graph per
    // file): loading drizzle, postgres, Hono, tRPC, zod and our packages again for each of 118 files
    // was about half of the run. Files share no state through modules: each has its own database
    // (freshDatabase.ts), its own app, its own server; none mocks a module or changes process.env.
    isolate: false,
  },
});
