/**
 * What `npm test` prints again, under the table's heading, for a step that failed: the steps print
 * side by side as they run, so a failure's errors end up far above the end of the output, and a CI
 * log often keeps only its tail. For vitest (the unit tests and the journeys) that is its report of
 * the failures, from its "Failed Tests" (or "Failed Suites", "Unhandled Errors") line to the end: each
 * failed test's name, its error and where it failed, then the counts. For any other step (tsc,
 * ESLint, Prettier, knip print their findings last), its last lines.
 */

/** The lines of a step that is not vitest, or of a vitest run that printed no report of failures. */
export const TAIL_LINES = 80;
/** At most this many lines for one step, so a run with many failures stays readable. */
export const MAX_LINES = 150;
/** vitest's counts ("Test Files  1 failed (24)", "Tests ...", "Duration ...") and npm's exit lines. */
const LAST_LINES = 10;

/** vitest's heading of its report of failures, e.g. "⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯". */
const VITEST_REPORT = /⎯ (Failed Tests|Failed Suites|Unhandled Errors?) ?\d* ?⎯/;
/** vitest's line naming one failed test or file: " FAIL  web/e2e/worlds.e2e.test.ts > journey > step". */
const VITEST_FAIL = /^\s*FAIL\s/;

/** The lines that say what failed, from all the lines a failed step printed (blank lines left out). */
export function whatFailed(lines: readonly string[]): string[] {
  const report = lines.findIndex((line) => VITEST_REPORT.test(line));
  const shown = report === -1 ? lines.slice(-TAIL_LINES) : lines.slice(report);
  if (shown.length <= MAX_LINES) return shown;
  // Too long: the first failures in full, then the names of the others, then the counts.
  const head = shown.slice(0, MAX_LINES - LAST_LINES);
  const middle = shown.slice(MAX_LINES - LAST_LINES, -LAST_LINES);
  const othersFailed = middle.filter((line) => VITEST_FAIL.test(line));
  return [
    ...head,
    `... ${middle.length} more lines (above in the step's output)${othersFailed.length > 0 ? ', of which these failures:' : ''}`,
    ...othersFailed,
    ...shown.slice(-LAST_LINES),
  ];
}
