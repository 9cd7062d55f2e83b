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
    // A test's time limit only catches a hang: speed is measured by the benchmarks, never here. On
    // a busy 2-core machine (every step of npm test at once, or other work beside it) tests that
    // take 10-25 s when quiet were seen at 58 s, so the limit leaves them room.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Three files at a time on 2 cores (vitest's default is one): each has its own database, and a
    // file waits for PostgreSQL, a child process or a timer as often as it computes (the economy
    // file: about 19 s of CPU, 105 s in a quiet npm test). Once the journeys and the lint are done,
    // two files left a core idle for the last minutes (docs/benchmarks.md, "npm test's time").
    maxWorkers: 3,
    // A worker keeps the modules it has loaded from one file to the next (no fresh module graph per
    // file): loading drizzle, postgres, Hono, tRPC, zod and our packages again for each of 118 files
    // was about half of the run. Files share no state through modules: each has its own database
    // (freshDatabase.ts), its own app, its own server; none mocks a module or changes process.env.
    isolate: false,
  },
});
