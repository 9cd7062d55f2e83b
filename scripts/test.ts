/**
 * `npm test`: every check of the repository, on two cores in as little time as they allow
 * (docs/architecture.md, "Tests"). The steps and what each waits for:
 *
 *   typecheck + build (turbo) ──▶ browser journeys (they start the built app)
 *   unit and integration tests (vitest: nothing to build, TypeScript runs as it is)
 *   lint (ESLint) ──▶ format (Prettier) ──▶ unused code (knip)
 *
 * Independent steps run side by side: a step mostly waits (for PostgreSQL, for a browser, for a
 * turn) as often as it computes, so two or three at once keep both cores busy where one after the
 * other left one idle. Each output line is prefixed with its step's name; at the end a table gives
 * each step's time and result. Every step runs to its end even when another failed (one run reports
 * every failure); a step whose prerequisite failed is skipped. The exit code is 1 when anything failed.
 * A step's own command is the one to run alone (e.g. `npx vitest run <file>`).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

interface Step {
  name: string;
  command: string[];
  /** The step that must pass first. */
  after?: string;
}

const STEPS: Step[] = [
  { name: 'build', command: ['npx', 'turbo', 'run', 'typecheck', 'build', '--output-logs=errors-only'] },
  { name: 'vitest', command: ['npx', 'vitest', 'run'] },
  // The linter and the formatter remember the files they passed (in node_modules/.cache, never
  // committed): a second run reads only what changed. A fresh clone (CI) has no cache and checks
  // everything, which also catches what the lint cache cannot see: a file unchanged since its last
  // pass whose call became a floating promise because another file's function changed.
  {
    name: 'lint',
    command: ['npx', 'eslint', '--max-warnings', '0', '--cache', '--cache-strategy', 'content', '--cache-location', 'node_modules/.cache/eslint/', '.'],
  },
  { name: 'format', command: ['npx', 'prettier', '--check', '--cache', '--cache-strategy', 'content', '.'], after: 'lint' },
  { name: 'knip', command: ['npx', 'knip', '--no-progress'], after: 'format' },
  { name: 'journeys', command: ['npm', 'run', 'test:e2e', '-w', '@marketcraft/web'], after: 'build' },
];

type Result = { passed: boolean; skipped: boolean; seconds: number };

const width = Math.max(...STEPS.map((step) => step.name.length));
const started = Date.now();
const results = new Map<string, Promise<Result>>();

function printLines(name: string, text: string): void {
  for (const line of text.split('\n')) if (line.trim() !== '') process.stdout.write(`${name.padEnd(width)} | ${line}\n`);
}

function run(step: Step): Promise<Result> {
  return new Promise((resolve) => {
    const begun = Date.now();
    const [command, ...args] = step.command;
    printLines(step.name, `$ ${step.command.join(' ')}`);
    // No terminal: the tools print plain lines (no colours or progress bars to interleave).
    const child = spawn(command!, args, { cwd: root, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let pending = { stdout: '', stderr: '' };
    const relay = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
      const text = pending[stream] + chunk.toString();
      const end = text.lastIndexOf('\n');
      pending = { ...pending, [stream]: end === -1 ? text : text.slice(end + 1) };
      if (end !== -1) printLines(step.name, text.slice(0, end));
    };
    child.stdout.on('data', relay('stdout'));
    child.stderr.on('data', relay('stderr'));
    const finish = (passed: boolean) => {
      printLines(step.name, pending.stdout + '\n' + pending.stderr);
      resolve({ passed, skipped: false, seconds: (Date.now() - begun) / 1000 });
    };
    child.on('error', (error) => {
      printLines(step.name, `could not start: ${error.message}`);
      finish(false);
    });
    child.on('close', (code) => finish(code === 0));
  });
}

for (const step of STEPS) {
  const prerequisite = step.after ? results.get(step.after) : undefined;
  results.set(
    step.name,
    (async () => {
      if (prerequisite && !(await prerequisite).passed) return { passed: false, skipped: true, seconds: 0 };
      return run(step);
    })(),
  );
}

const outcomes = await Promise.all(STEPS.map(async (step) => ({ step, result: await results.get(step.name)! })));
process.stdout.write(`\n${'step'.padEnd(width)} |    time | result\n`);
for (const { step, result } of outcomes) {
  const verdict = result.skipped ? `skipped (${step.after} did not pass)` : result.passed ? 'passed' : 'FAILED';
  process.stdout.write(`${step.name.padEnd(width)} | ${result.seconds.toFixed(0).padStart(5)} s | ${verdict}\n`);
}
process.stdout.write(`all steps: ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
process.exit(outcomes.every(({ result }) => result.passed) ? 0 : 1);
