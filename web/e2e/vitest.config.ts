import { defineConfig } from 'vitest/config';

/**
 * Browser journeys: the app is started the README way (`npm start`) once for the whole run by
 * globalSetup.ts, then each file drives Chromium (e2e/chromium.ts) through playwright-core.
 *
 * All files share the one app and its public world. The journeys that advance the public world's
 * week (WEEK_ADVANCING) run last and one at a time, after every other journey has finished: a turn
 * in the middle of another journey would change what it sees (a building finished, a price moved).
 * The other journeys each sign up their own players, so they run two at a time (one per core).
 * No retry: a journey that fails once is a defect to fix, not a flake to hide.
 */
const WEEK_ADVANCING = ['admin.e2e.test.ts', 'chain.e2e.test.ts', 'reports.e2e.test.ts'];

export default defineConfig({
  test: {
    root: import.meta.dirname,
    globalSetup: ['./globalSetup.ts'],
    testTimeout: 90_000,
    hookTimeout: 300_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'journeys',
          root: import.meta.dirname,
          include: ['**/*.e2e.test.ts'],
          exclude: WEEK_ADVANCING,
          maxWorkers: 2,
          testTimeout: 90_000,
          hookTimeout: 300_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'weeks',
          root: import.meta.dirname,
          include: WEEK_ADVANCING,
          testTimeout: 90_000,
          hookTimeout: 300_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
