/**
 * `npm test`: every check of the repository, on two cores in as little time as they allow
 * (docs/architecture.md, "Tests"). The steps and what each waits for:
 *
 *   unit and integration tests (vitest: nothing to build, TypeScript runs as it is)
 *   build (the web's bundle) ──▶ browser journeys (they start the built app)
 *                            ··▶ typecheck, lint (ESLint), format (Prettier), unused code (knip)
 *
 * Independent steps run side by side: a step mostly waits (for PostgreSQL, for a browser, for a
 * turn) as often as it computes, so several at once keep both cores busy where one after the
 * other left one idle. Each output line is prefixed with its step's name; at the end each failed
 * step's lines that say what failed are printed again (scripts/failedStep.ts), then a table gives
 * each step's time, its CPU and its result. Every step runs to its end even when another failed (one run reports
 * every failure); a step whose prerequisite failed is skipped. The exit code is 1 when anything failed.
 * A step's own command is the one to run alone (e.g. `npx vitest run <file>`).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { whatFailed } from './failedStep.ts';

const root = path.resolve(import.meta.dirname, '..');

interface Step {
  name: string;
  command: string[];
  /** The step that must pass first. */
  after?: string;
  /** The step that must end first, passed or not: the build has the two cores to itself for its seconds. */
  startsAfter?: string;
  /**
   * Off the critical path: the step runs at a lower priority (`nice`), on the cycles vitest and the
   * journeys leave while they wait. It still ends long before them (about 170 s of CPU in all, in a
   * run of 500 s); at the same priority it took that CPU from vitest, the run's longest step.
   */
  background?: boolean;
}

/** ESLint remembers the files it passed: a second run reads only what changed (a fresh clone has no cache). */
const eslint = (cache: string, ...files: string[]) => [
  'npx',
  'eslint',
  '--max-warnings',
  '0',
  '--cache',
  '--cache-strategy',
  'content',
  '--cache-location',
  cache,
  ...files,
];

/**
 * Two steps are on the run's critical path: vitest, and the build then the journeys; everything else
 * has time to spare. The build (a few seconds of CPU) starts beside vitest only, so the journeys
 * start as soon as it can finish; the rest start when it ends, at a lower priority (`background`). No step runs a long chain on one
 * core: ESLint is two processes (the Node packages, the web: its two TypeScript programs), and
 * format and knip do not wait for the lint. Timings and CPU of each step: docs/benchmarks.md,
 * "npm test's time".
 */
const STEPS: Step[] = [
  // The journeys need the web's bundle, not the typecheck.
  { name: 'build', command: ['npm', 'run', 'build', '-w', '@marketcraft/web'] },
  { name: 'vitest', command: ['npx', 'vitest', 'run'] },
  { name: 'journeys', command: ['npm', 'run', 'test:e2e', '-w', '@marketcraft/web'], after: 'build' },
  // The same files and options as every package's `typecheck` (`npx turbo run typecheck`), in two
  // programs instead of seven: api, worker, the client and lint each checked db and shared again
  // (about 40 s of CPU for the Node packages, 15 s in one program).
  { name: 'typecheck', command: ['npx', 'tsc', '-p', 'lint/tsconfig.typed.json'], startsAfter: 'build', background: true },
  { name: 'typecheck web', command: ['npx', 'tsc', '-p', 'web/tsconfig.json'], startsAfter: 'build', background: true },
  // The linter and the formatter keep a cache in node_modules/.cache (never committed). A fresh
  // clone (CI) has none and checks everything, which also catches what the lint cache cannot see: a
  // file unchanged since its last pass whose call became a floating promise because another
  // file's function changed. `npm run lint` is both halves at once.
  { name: 'lint', command: eslint('node_modules/.cache/eslint-node/', '--ignore-pattern', 'web/', '.'), startsAfter: 'build', background: true },
  { name: 'lint web', command: eslint('node_modules/.cache/eslint-web/', 'web'), startsAfter: 'build', background: true },
  { name: 'format', command: ['npx', 'prettier', '--check', '--cache', '--cache-strategy', 'content', '.'], startsAfter: 'build', background: true },
  { name: 'knip', command: ['npx', 'knip', '--no-progress'], startsAfter: 'build', background: true },
];

type Result = { passed: boolean; skipped: boolean; seconds: number; cpuSeconds?: number };

const width = Math.max(...STEPS.map((step) => step.name.length));
const started = Date.now();
const results = new Map<string, Promise<Result>>();
/** Every line each step printed, for the failed steps' summary at the end. */
const printed = new Map<string, string[]>(STEPS.map((step) => [step.name, []]));

function printLine(name: string, line: string): void {
  process.stdout.write(`${name.padEnd(width)} | ${line}\n`);
}

function printLines(name: string, text: string): void {
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    printLine(name, line);
    printed.get(name)!.push(line);
  }
}

/**
 * The children's user + system seconds from `times`: its second line (the first is the shell's
 * own), e.g. `1m2.50s 0m3.10s` (dash) or `1m2.500s 0m3.100s` (bash).
 */
function childrenCpu(times: string): number | undefined {
  const line = times.trim().split('\n')[1] ?? '';
  const parts = [...line.matchAll(/(\d+)m([\d.]+)s/g)];
  return parts.length === 2 ? parts.reduce((sum, [, minutes, seconds]) => sum + Number(minutes) * 60 + Number(seconds), 0) : undefined;
}

function run(step: Step): Promise<Result> {
  return new Promise((resolve) => {
    const begun = Date.now();
    const command = step.background ? ['nice', '-n', '10', ...step.command] : step.command;
    printLines(step.name, `$ ${command.join(' ')}`);
    // The step runs under a shell whose `times` then writes, on a pipe of its own (fd 3), the CPU
    // that the step's processes used (user and system, every descendant that was waited for:
    // PostgreSQL's backends, the browsers). On two cores the steps share, the sum is what bounds
    // the run's time (docs/benchmarks.md, "npm test's time").
    const child = spawn('sh', ['-c', '"$@" 3>&-; status=$?; times >&3; exit $status', 'sh', ...command], {
      cwd: root,
      // No terminal: the tools print plain lines (no colours or progress bars to interleave).
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    let times = '';
    child.stdio[3]!.on('data', (chunk: Buffer) => (times += chunk.toString()));
    let pending = { stdout: '', stderr: '' };
    const relay = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
      const text = pending[stream] + chunk.toString();
      const end = text.lastIndexOf('\n');
      pending = { ...pending, [stream]: end === -1 ? text : text.slice(end + 1) };
      if (end !== -1) printLines(step.name, text.slice(0, end));
    };
    child.stdout!.on('data', relay('stdout'));
    child.stderr!.on('data', relay('stderr'));
    const finish = (passed: boolean) => {
      printLines(step.name, pending.stdout + '\n' + pending.stderr);
      resolve({ passed, skipped: false, seconds: (Date.now() - begun) / 1000, cpuSeconds: childrenCpu(times) });
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
  const predecessor = step.startsAfter ? results.get(step.startsAfter) : undefined;
  results.set(
    step.name,
    (async () => {
      if (prerequisite && !(await prerequisite).passed) return { passed: false, skipped: true, seconds: 0 };
      await predecessor;
      return run(step);
    })(),
  );
}

const outcomes = await Promise.all(STEPS.map(async (step) => ({ step, result: await results.get(step.name)! })));
// A failed step's errors are far above by now (the steps print side by side) and a CI log may keep
// only its tail: each failed step's lines that say what failed, again, just above the table.
for (const { step } of outcomes.filter(({ result }) => !result.passed && !result.skipped)) {
  process.stdout.write(`\n${step.name} FAILED: what it said (scripts/failedStep.ts; its whole output is above)\n`);
  for (const line of whatFailed(printed.get(step.name)!)) printLine(step.name, line);
}
const seconds = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(0)).padStart(5) + ' s';
process.stdout.write(`\n${'step'.padEnd(width)} |    time |     CPU | result\n`);
for (const { step, result } of outcomes) {
  const verdict = result.skipped ? `skipped (${step.after} did not pass)` : result.passed ? 'passed' : 'FAILED';
  process.stdout.write(`${step.name.padEnd(width)} | ${seconds(result.seconds)} | ${seconds(result.cpuSeconds)} | ${verdict}\n`);
}
const cpu = outcomes.reduce((sum, { result }) => sum + (result.cpuSeconds ?? 0), 0);
process.stdout.write(`all steps: ${((Date.now() - started) / 1000).toFixed(0)} s, CPU ${cpu.toFixed(0)} s (user + system, every step)\n`);
process.exit(outcomes.every(({ result }) => result.passed) ? 0 : 1);
