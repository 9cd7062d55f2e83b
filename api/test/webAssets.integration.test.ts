/**
 * How the built web app reaches a phone: each text file precompressed (brotli, gzip) and sent in
 * the encoding the browser accepts, hashed assets cached for a year, the app shell always revalidated.
 * Raw HTTP (node:http), not fetch: fetch would decompress and hide what went over the wire.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/testApp.ts';

const HASHED_SCRIPT = 'assets/index-B4x9Kq2Z.js';
const script = Buffer.from(`export const greeting = ${JSON.stringify('Welcome to Marketcraft. '.repeat(200))};\n`);
const shell = Buffer.from('<!doctype html><title>Marketcraft</title><script type="module" src="/' + HASHED_SCRIPT + '"></script>');

function get(baseUrl: string, urlPath: string, acceptEncoding?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.get(new URL(urlPath, baseUrl), { headers: acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
  });
}

describe('the web app over HTTP', () => {
  let app: TestApp;
  beforeAll(async () => {
    const webDist = mkdtempSync(path.join(os.tmpdir(), 'marketcraft-web-'));
    mkdirSync(path.join(webDist, 'assets'));
    // As the build writes them (web/vite.config.ts, precompress).
    for (const [file, content] of [
      [HASHED_SCRIPT, script],
      ['index.html', shell],
    ] as const) {
      writeFileSync(path.join(webDist, file), content);
      writeFileSync(path.join(webDist, `${file}.gz`), gzipSync(content));
      writeFileSync(path.join(webDist, `${file}.br`), brotliCompressSync(content));
    }
    writeFileSync(path.join(webDist, 'color-scheme.js'), 'document.documentElement.dataset.scheme = "light";');
    app = await startTestApp({ env: { WEB_DIST_DIR: webDist } });
  });
  afterAll(async () => {
    await app.close();
  });

  it('sends brotli to a browser that accepts it, bytes that decompress to the file', async () => {
    const answer = await get(app.baseUrl, `/${HASHED_SCRIPT}`, 'gzip, deflate, br, zstd');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(answer.headers['content-type']).toMatch(/javascript/);
    expect(answer.body.length).toBeLessThan(script.length / 5);
    expect(brotliDecompressSync(answer.body).equals(script)).toBe(true);
  });

  it('sends gzip to a browser that accepts only gzip', async () => {
    const answer = await get(app.baseUrl, `/${HASHED_SCRIPT}`, 'gzip');
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers['vary']).toMatch(/Accept-Encoding/i);
    expect(gunzipSync(answer.body).equals(script)).toBe(true);
  });

  it('sends the file as it is to a client that accepts no compression', async () => {
    const answer = await get(app.baseUrl, `/${HASHED_SCRIPT}`);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.equals(script)).toBe(true);
  });

  it('lets a browser keep a hashed asset for a year, and asks again for the app shell and unhashed files', async () => {
    const asset = await get(app.baseUrl, `/${HASHED_SCRIPT}`, 'br');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const urlPath of ['/', '/index.html', '/market', '/buildings/3', '/color-scheme.js']) {
      const answer = await get(app.baseUrl, urlPath, 'br');
      expect(answer.status, urlPath).toBe(200);
      expect(answer.headers['cache-control'], urlPath).toBe('no-cache');
    }
  });

  it('sends the app shell of a client-side route compressed too', async () => {
    const answer = await get(app.baseUrl, '/market', 'gzip, br');
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toMatch(/text\/html/);
    expect(brotliDecompressSync(answer.body).equals(shell)).toBe(true);
  });

  it('answers a missing asset with 404, not the app shell cached for a year', async () => {
    const answer = await get(app.baseUrl, '/assets/gone-AAAAAAAA.js', 'br');
    expect(answer.status).toBe(404);
    expect(answer.headers['cache-control'] ?? '').not.toMatch(/immutable/);
  });
});
