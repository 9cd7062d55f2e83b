import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Browser journeys: the app is started the README way (`npm start`) once for the whole run by
 * globalSetup.ts, then each file drives Chromium (e2e/chromium.ts) through playwright-core.
 *
 * All files share the one app. Each journey signs up its own players, and a journey whose story
 * needs turns (chain, reports, exchange, worlds, assignments) plays in a class world of its
 * own and runs that world's turns, so these files run side by side: JOURNEY_WORKERS at once (most
 * of a journey's time is waiting for the browser and the server, not computing; docs/benchmarks.md
 * has the measurements). Only the admin journey advances the public world's week (its card is the
 * public world's): it runs last and alone, after every other journey has finished, since a turn in
 * the middle of another journey would change what it sees (a building finished, a price moved).
 * No retry: a journey that fails once is a defect to fix, not a flake to hide.
 */
const PUBLIC_WEEK_ADVANCING = ['admin.e2e.test.ts'];
const JOURNEY_WORKERS = 4;

/**
 * The longest journeys, longest first (docs/benchmarks.md, "npm test's time"): they start first, so
 * the run does not end with one long file alone on one worker. Vitest orders the files it has not
 * timed yet (a fresh clone) by their size, which would start the four small axe files last.
 */
const LONGEST_FIRST = [
  'chain.e2e.test.ts',
  'accessibility-light-1366.e2e.test.ts',
  'accessibility-dark-1366.e2e.test.ts',
  'accessibility-light-375.e2e.test.ts',
  'accessibility-dark-375.e2e.test.ts',
  'worlds.e2e.test.ts',
  'reports.e2e.test.ts',
  'build.e2e.test.ts',
  'assignments.e2e.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FIRST.indexOf(path.basename(file.moduleId));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    const group = (file: TestSpecification) => file.project.config.sequence.groupOrder;
    // Vitest's order (its timings of earlier runs, else the files' sizes) for the rest: the sort is stable.
    return (await super.sort(files)).sort((a, b) => group(a) - group(b) || rank(a) - rank(b));
  }
}

const shared = {
  root: import.meta.dirname,
  // A journey's time limit only catches a hang (each of its waits has its own bound and names what it
  // waited for); speed is measured elsewhere. At load 30-40 here single-screen journeys reached 61 s,
  // and the CI machine ran the journeys 1.4 times slower than a loaded run here.
  testTimeout: 120_000,
  hookTimeout: 300_000,
  // expect.poll waits for a condition as long as a locator does (browser.ts: 20 s), not vitest's 1 s:
  // a busy machine renders a search's rows or a layout's last move later than that.
  expect: { poll: { timeout: 20_000 } },
};

export default defineConfig({
  test: {
    ...shared,
    globalSetup: ['./globalSetup.ts'],
    sequence: { sequencer: LongestFirst },
    pool: 'forks',
    maxWorkers: JOURNEY_WORKERS,
    projects: [
      {
        test: {
          ...shared,
          name: 'journeys',
          include: ['**/*.e2e.test.ts'],
          exclude: PUBLIC_WEEK_ADVANCING,
          maxWorkers: JOURNEY_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: 'weeks',
          include: PUBLIC_WEEK_ADVANCING,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
