/**
 * What an attacker probes first: security headers on every answer (the app's HTML, its assets and
 * the API), and batched tRPC calls that multiply one small request into a huge answer.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TRPC_BATCH_CALLS } from '@marketcraft/shared';
import { startTestApp, type TestApp } from './helpers/testApp.ts';

describe('security headers and batch limits', () => {
  let app: TestApp;
  beforeAll(async () => {
    const webDist = mkdtempSync(path.join(os.tmpdir(), 'marketcraft-web-'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Marketcraft</title><script type="module" src="/assets/app.js"></script>');
    writeFileSync(path.join(webDist, 'app.js'), 'export {};');
    app = await startTestApp({ env: { WEB_DIST_DIR: webDist } });
  });
  afterAll(async () => {
    await app.close();
  });

  function expectSecurityHeaders(headers: Headers, what: string) {
    const csp = headers.get('content-security-policy') ?? '';
    expect(csp, what).toContain("default-src 'self'");
    expect(csp, what).toMatch(/script-src 'self'(;|$)/); // no inline scripts, no eval
    expect(csp, what).toContain("frame-ancestors 'none'");
    expect(csp, what).toContain("object-src 'none'");
    expect(headers.get('x-content-type-options'), what).toBe('nosniff');
    expect(headers.get('x-frame-options'), what).toBe('DENY');
    // Not no-referrer: browsers would send `Origin: null` on the app's own POSTs.
    expect(headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
    expect(headers.get('strict-transport-security'), what).toMatch(/max-age=\d+/);
    expect(headers.get('x-powered-by'), what).toBeNull();
  }

  it('sends them on the HTML, the assets, API answers, errors and the API docs', async () => {
    const player = await app.createPlayer();
    const answers: Array<[string, Response]> = [
      ['GET / (app shell)', await fetch(`${app.baseUrl}/`)],
      ['GET /market (client route)', await fetch(`${app.baseUrl}/market`)],
      ['GET /app.js', await fetch(`${app.baseUrl}/app.js`)],
      ['GET /api/world', await fetch(`${app.baseUrl}/api/world`)],
      ['GET /api/company', await fetch(`${app.baseUrl}/api/company`, { headers: { authorization: `Bearer ${player.token}` } })],
      ['GET /api/company without a session (401)', await fetch(`${app.baseUrl}/api/company`)],
      ['GET /api/nope (404)', await fetch(`${app.baseUrl}/api/nope`)],
      ['GET /api/trpc/world.state', await fetch(`${app.baseUrl}/api/trpc/world.state`)],
      ['GET /api/docs', await fetch(`${app.baseUrl}/api/docs`)],
    ];
    for (const [what, response] of answers) {
      expect(response.status, what).toBeLessThan(500);
      expectSecurityHeaders(response.headers, what);
    }
    // The docs page's script is a file of our origin, so the policy needs no inline script.
    const docs = await (await fetch(`${app.baseUrl}/api/docs`)).text();
    expect(docs).toContain('<script src="/api/docs.js"></script>');
    expect(docs).not.toMatch(/<script>/);
    const script = await fetch(`${app.baseUrl}/api/docs.js`);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(await script.text()).toContain("fetch('/api/openapi.json')");
  });

  it(`caps tRPC batches at ${MAX_TRPC_BATCH_CALLS} calls with a clear 400, before running any`, async () => {
    const batch = (calls: number) =>
      fetch(`${app.baseUrl}/api/trpc/${Array.from({ length: calls }, () => 'world.state').join(',')}?batch=1&input=${encodeURIComponent(JSON.stringify({}))}`);
    const full = await batch(MAX_TRPC_BATCH_CALLS);
    expect(full.status).toBe(200);
    expect(await full.json()).toHaveLength(MAX_TRPC_BATCH_CALLS);
    for (const calls of [MAX_TRPC_BATCH_CALLS + 1, 600]) {
      const refused = await batch(calls);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({
        error: `A batch can hold at most ${MAX_TRPC_BATCH_CALLS} calls; this one has ${calls}. Send them in several requests.`,
      });
    }
    // POST batches (mutations) too.
    const post = await fetch(`${app.baseUrl}/api/trpc/${Array.from({ length: 50 }, () => 'company.updateProfile').join(',')}?batch=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(post.status).toBe(400);
  });
});
