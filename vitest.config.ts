import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/src/**/*.test.ts', 'db/test/**/*.test.ts', 'api/test/**/*.test.ts', 'api/src/**/*.test.ts', 'worker/test/**/*.test.ts', 'worker/src/**/*.test.ts', 'web/src/**/*.test.ts', 'lint/test/**/*.test.ts'],
    globalSetup: ['./db/src/testing/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
