/** `npm test` prints again, above its table, what a failed step said (scripts/failedStep.ts): what a CI log's tail shows. */
import { describe, expect, it } from 'vitest';
import { MAX_LINES, TAIL_LINES, whatFailed } from '../../scripts/failedStep.ts';

/** A failed vitest run's lines as `npm test` keeps them (blank lines left out). */
function vitestRun(failures: string[]): string[] {
  return [
    '> @marketcraft/web@0.1.0 test:e2e',
    ' RUN  v5.1.1 web/e2e',
    ' ✓ market.e2e.test.ts (6 tests) 41230ms',
    ' ❯ worlds.e2e.test.ts (1 test | 1 failed) 92011ms',
    '   × creates a world, students join by code 92004ms',
    ` ⎯⎯⎯⎯⎯⎯⎯ Failed Tests ${failures.length} ⎯⎯⎯⎯⎯⎯⎯`.trim(),
    ...failures.flatMap((name) => [
      ` FAIL  journeys  ${name} > creates a world`,
      'TimeoutError: locator.waitFor: Timeout 2000ms exceeded.',
      "  - waiting for getByText('The world is now in week 4.') to be visible",
      ` ❯ ${name}:152:75`,
      '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯',
    ]),
    ' Test Files  1 failed | 23 passed (24)',
    `      Tests  ${failures.length} failed | 132 passed (134)`,
    '   Start at  20:31:02',
    '   Duration  347.12s (transform 1.2s, setup 0ms, import 3.1s, tests 1211s, environment 0ms)',
    'npm error Lifecycle script `test:e2e` failed with error:',
    'npm error code 1',
  ];
}

describe("npm test's report of a failed step", () => {
  it("gives vitest's report of its failures, from its heading to the counts, not the files that passed", () => {
    const lines = vitestRun(['worlds.e2e.test.ts']);
    const shown = whatFailed(lines);
    expect(shown[0]).toBe('⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯');
    expect(shown).toContain(' FAIL  journeys  worlds.e2e.test.ts > creates a world');
    expect(shown).toContain('TimeoutError: locator.waitFor: Timeout 2000ms exceeded.');
    expect(shown).toContain(' Test Files  1 failed | 23 passed (24)');
    expect(shown.at(-1)).toBe('npm error code 1');
    expect(shown.join('\n')).not.toContain('market.e2e.test.ts');
  });

  it('gives the last lines of a step that is not vitest (tsc, ESLint, Prettier print their findings last)', () => {
    const lines = Array.from({ length: 300 }, (_, index) => `web/src/page${index}.tsx(1,1): error TS2322: Type 'string' is not assignable to type 'number'.`);
    const shown = whatFailed(lines);
    expect(shown).toHaveLength(TAIL_LINES);
    expect(shown.at(-1)).toBe(lines.at(-1));
    expect(shown[0]).toBe(lines[300 - TAIL_LINES]);
  });

  it('keeps a long report short: the first failures in full, the names of the others, the counts', () => {
    const files = Array.from({ length: 40 }, (_, index) => `file${index}.e2e.test.ts`);
    const shown = whatFailed(vitestRun(files));
    expect(shown.length).toBeLessThanOrEqual(MAX_LINES + files.length);
    expect(shown).toContain('TimeoutError: locator.waitFor: Timeout 2000ms exceeded.');
    for (const file of files) expect(shown, file).toContain(` FAIL  journeys  ${file} > creates a world`);
    expect(shown.find((line) => line.startsWith('... '))).toMatch(/^\.\.\. \d+ more lines \(above in the step's output\), of which these failures:$/);
    expect(shown).toContain('      Tests  40 failed | 132 passed (134)');
  });
});
