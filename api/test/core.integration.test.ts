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
