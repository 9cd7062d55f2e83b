import { existsSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that keep a worker longest (a whole run's per-file times: docs/benchmarks.md, "npm
 * test's time", 2026-12-07 (night, last)), longest first. Without a record of earlier runs (a
 * fresh clone, CI) vitest starts the largest files first, which put the drill (106th of 137 by
 * size), the start script (92nd), the API replay (58th) and the worker crash (55th) among the last
 * files: the run then ended with one or two workers on them while the others had nothing left.
 * Started first, the short files fill the workers' ends instead. A name that no longer exists
 * fails the run.
 */
const LONGEST_FIRST = [
  'worker/test/worldReplay.integration.test.ts',
  'worker/test/economy.integration.test.ts',
  'api/test/worldForkOptions.integration.test.ts',
  'worker/test/worlds.integration.test.ts',
  'api/test/drill.integration.test.ts',
  'worker/test/crash.integration.test.ts',
  'api/test/auth.integration.test.ts',
  'api/test/startScript.integration.test.ts',
  'worker/test/apiReplay.integration.test.ts',
  'api/test/rate-limits.integration.test.ts',
  'api/test/openData.integration.test.ts',
  'worker/test/advanceWhileRestarting.integration.test.ts',
  'worker/test/queue.integration.test.ts',
  'worker/test/bots.integration.test.ts',
  'api/test/invariants.integration.test.ts',
  'worker/test/replay.integration.test.ts',
];
for (const file of LONGEST_FIRST) {
  if (!existsSync(path.join(import.meta.dirname, file))) throw new Error(`vitest.config.ts: LONGEST_FIRST names ${file}, which does not exist`);
}

/** The listed files first, in their order; then vitest's own order (earlier runs' times, else size). */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const index = LONGEST_FIRST.indexOf(path.relative(import.meta.dirname, spec.moduleId));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    const ordered = await super.sort(files);
    return ordered
      .map((spec, index) => ({ spec, index }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.index - b.index)
      .map(({ spec }) => spec);
  }
}

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
    sequence: { sequencer: LongestFirst },
  },
});
