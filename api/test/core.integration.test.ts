import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/testApp.ts';

describe('API core', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers the world state without a session', async () => {
    const response = await app.api('GET', '/world');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ current_week: 1, last_turn_at: null });
    expect(typeof response.body.next_turn_at).toBe('string');
  });

  it('refuses admin routes to anonymous users (401) and players (403), and tells a player they are not admin', async () => {
    const player = await app.createPlayer();
    expect((await app.api('GET', '/admin/world-state')).status).toBe(401);
    expect((await app.api('GET', '/admin/world-state', { token: player.token })).status).toBe(403);
    expect((await app.api('POST', '/admin/advance-turn', { token: player.token })).status).toBe(403);
    expect((await app.api('GET', '/admin/cron-status', { token: player.token })).status).toBe(403);
    expect((await app.api('GET', '/admin/cron-status')).status).toBe(401);
    expect((await app.api('GET', '/admin/check')).status).toBe(401);
    const check = await app.api('GET', '/admin/check', { token: player.token });
    expect(check).toMatchObject({ status: 200, body: { isAdmin: false } });
  });

  it('lets an admin read the world state and cron status', async () => {
    const admin = await app.createPlayer({ isAdmin: true });
    const state = await app.api('GET', '/admin/world-state', { token: admin.token });
    expect(state.status).toBe(200);
    expect(state.body.current_week).toBe(1);
    const cron = await app.api('GET', '/admin/cron-status', { token: admin.token });
    expect(cron.body).toMatchObject({ jobname: 'advance-game-turn', schedule: '30 */12 * * *' });
  });

  it('answers an admin advance-turn with a clear 503 when no turn worker is there, and the week stays', async () => {
    const admin = await app.createPlayer({ isAdmin: true });
    const response = await app.api('POST', '/admin/advance-turn', { token: admin.token });
    expect(response).toMatchObject({ status: 503, body: { error: 'The turn worker is not available' } });
    expect((await app.api('GET', '/world')).body.current_week).toBe(1);
  });

  it('refuses a request body over 64 KB with 413 before reading it', async () => {
    const player = await app.createPlayer();
    const huge = JSON.stringify({ name: 'Big', bio: 'x'.repeat(70 * 1024) });
    const rest = await app.api('PATCH', '/company/profile', { token: player.token, body: huge });
    expect(rest).toMatchObject({ status: 413, body: { error: 'The request body is too large (at most 64 KB)' } });
    const signup = await app.api('POST', '/auth/signup', { body: JSON.stringify({ email: 'big@example.com', password: 'p'.repeat(70 * 1024) }) });
    expect(signup.status).toBe(413);
    expect((await app.api('GET', '/company', { token: player.token })).body.name).not.toBe('Big');
  });

  it('refuses a body sent in chunks (no Content-Length) once it passes 64 KB, and reads a small one', async () => {
    const player = await app.createPlayer();
    const send = (body: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = httpRequest(`${app.baseUrl}/api/company/profile`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${player.token}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        });
        request.on('response', (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        });
        request.on('error', reject);
        // In pieces, as a client streaming its body would.
        for (let at = 0; at < body.length; at += 8 * 1024) request.write(body.slice(at, at + 8 * 1024));
        request.end();
      });
    const huge = await send(JSON.stringify({ name: 'Chunked Big', bio: 'x'.repeat(70 * 1024) }));
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.body)).toEqual({ error: 'The request body is too large (at most 64 KB)' });
    const small = await send(JSON.stringify({ name: 'Chunked Small', bio: 'short' }));
    expect(small.status).toBe(200);
    expect((await app.api('GET', '/company', { token: player.token })).body.name).toBe('Chunked Small');
  });

  it('never sends a stack trace through tRPC, whatever NODE_ENV is', async () => {
    const player = await app.createPlayer();
    const invalid = await app.api('POST', '/trpc/market.trade', { token: player.token, body: { product_id: 'x', quantity: 1, action: 'buy' } });
    expect(invalid.status).toBe(400);
    const unknown = await app.api('GET', '/trpc/no.such.procedure', { token: player.token });
    expect(unknown.status).toBe(404);
    for (const response of [invalid, unknown]) {
      expect(JSON.stringify(response.body)).not.toMatch(/stack|\.ts:\d+|node_modules/);
    }
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const response = await app.api('GET', '/no-such-thing');
    expect(response.status).toBe(404);
    expect(response.body.error).toMatch(/No such API route/);
  });

  it('serves an OpenAPI document listing the REST routes', async () => {
    const response = await app.api('GET', '/openapi.json');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.paths)).toEqual(expect.arrayContaining(['/world', '/admin/advance-turn']));
  });
});
