/**
 * The OpenAPI document passes Spectral's `oas` ruleset (api/.spectral.yaml) with nothing to report:
 * every operation tagged, described and with security schemes it declares (a bearer requirement
 * lists no scopes: the token scope is x-token-scope). Runs the Spectral CLI (@stoplight/spectral-cli)
 * on the document built from the code, as `npm run lint:openapi` does.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runInNewContext } from 'node:vm';
import { DOCS_SCRIPT, buildOpenApiDocument } from '../src/openapi.ts';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../..');

describe('the OpenAPI document', () => {
  it("passes Spectral's oas ruleset with no errors and no warnings", async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'marketcraft-openapi-'));
    try {
      const file = path.join(folder, 'openapi.json');
      await writeFile(file, JSON.stringify(buildOpenApiDocument()));
      const { stdout } = await run(
        path.join(repoRoot, 'node_modules/.bin/spectral'),
        ['lint', file, '--ruleset', path.join(repoRoot, 'api/.spectral.yaml'), '--format', 'json', '--quiet', '--fail-severity', 'hint'],
        { timeout: 120_000 },
      ).catch((error: { stdout?: string; stderr?: string }) => ({
        stdout: error.stdout || `[{"code":"spectral failed","message":${JSON.stringify(error.stderr ?? '')}}]`,
      }));
      const results = JSON.parse(stdout.trim() || '[]') as Array<{ code: string; message: string; path: string[] }>;
      expect(results.map((result) => `${result.code} at ${result.path?.join('.')}: ${result.message}`)).toEqual([]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 180_000);

  it('tags every operation with a tag it declares', () => {
    const document = buildOpenApiDocument() as { tags: Array<{ name: string }>; paths: Record<string, Record<string, { tags: string[] }>> };
    const declared = new Set(document.tags.map((tag) => tag.name));
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    expect(operations.length).toBeGreaterThan(90);
    expect(operations.filter((operation) => operation.tags?.length !== 1 || !declared.has(operation.tags[0]!))).toEqual([]);
  });

  it('/api/docs lists every route, the binary data files included (its script once stopped at an answer without JSON)', async () => {
    const routes = { innerHTML: 'Loading…' };
    const document = buildOpenApiDocument();
    const page = { getElementById: (id: string) => (id === 'routes' ? routes : null) };
    runInNewContext(DOCS_SCRIPT, { fetch: async () => ({ json: async () => document }), document: page, JSON, Object });
    for (let tick = 0; tick < 20 && routes.innerHTML === 'Loading…'; tick += 1) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(routes.innerHTML).toContain('<code>/api/data/worlds/{id}/weeks/{week}/{table}.{format}</code>');
    expect(routes.innerHTML).toContain('Answer (200): application/gzip or application/vnd.apache.parquet');
    expect(routes.innerHTML).toContain('<code>/api/data/worlds/{id}/manifest.json</code>');
    expect(routes.innerHTML.match(/<h2>/g)).toHaveLength(
      Object.values((document as { paths: Record<string, object> }).paths).flatMap((methods) => Object.keys(methods)).length,
    );
  });
});
