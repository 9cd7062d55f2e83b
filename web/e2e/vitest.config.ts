import { defineConfig } from 'vitest/config';

/**
 * Browser journeys: the app is started the README way (`npm start`) once for the whole run by
 * globalSetup.ts, then each file drives Chromium (e2e/chromium.ts) through playwright-core.
 */
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['**/*.e2e.test.ts'],
    globalSetup: ['./globalSetup.ts'],
    testTimeout: 90_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // One browser per file, one file at a time: they share the one app and world, and the admin
    // journey advances the week, which the others must not race with.
    fileParallelism: false,
    // A journey that fails is run once more before the run fails (Playwright's own advice for CI):
    // a real defect fails twice, while a one-off stall of a loaded machine (a list that re-renders
    // between two key presses) does not throw away the run. Vitest reports every retried test.
    retry: 1,
  },
});
