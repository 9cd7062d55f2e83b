/**
 * The public world's clock (docs/worlds.md, "The public world's clock"; /admin's Public World Clock
 * card): a site admin pauses and resumes it with the worlds' own operation, PATCH /api/worlds/{id}
 * {status}; a player is refused (403), and so is any personal access token (session only, even the
 * admin's). Its schedule is the server's: the interval cannot be set. The turn's side (a paused
 * world's scheduled turn does nothing) is tested in worker/test/worlds.integration.test.ts.
 * /admin's World State and Advance Turn Manually are the public world's too, even while the admin
 * plays in a class world.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createWorld, INSTRUCTORS_ONLY, switchWorld } from '@marketcraft/db';
import { PUBLIC_WORLD_ID } from '@marketcraft/shared';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';

describe("the public world's clock", () => {
  let app: TestApp;
  let admin: TestPlayer;
  let player: TestPlayer;

  beforeAll(async () => {
    app = await startTestApp();
    admin = await app.createPlayer({ isAdmin: true, name: 'Site Admin Co' });
    player = await app.createPlayer({ name: 'Plain Player Co' });
  });
  afterAll(async () => {
    await app.close();
  });

  const world = (token: string) => app.api('GET', `/worlds/${PUBLIC_WORLD_ID}`, { token });
  const setClock = (token: string, body: Record<string, unknown>) => app.api('PATCH', `/worlds/${PUBLIC_WORLD_ID}`, { token, body });

  it('an admin pauses it and resumes it; the schedule (next turn) is kept', async () => {
    const before = await world(admin.token);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ kind: 'public', status: 'active', role: 'admin' });

    const paused = await setClock(admin.token, { status: 'paused' });
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    expect(paused.body).toMatchObject({
      id: PUBLIC_WORLD_ID,
      status: 'paused',
      current_week: before.body.current_week,
      next_turn_at: before.body.next_turn_at,
    });
    // Everyone sees it paused (the header reads 'Paused' from GET /api/world); players still play
    // (a paused world is not an ended one).
    expect((await world(player.token)).body.status).toBe('paused');
    expect((await app.api('GET', '/world')).body).toMatchObject({ status: 'paused', next_turn_at: before.body.next_turn_at });
    const company = await app.api('PATCH', '/company/profile', { token: player.token, body: { name: 'Plain Player Co', bio: 'Still open for business.' } });
    expect(company.status, JSON.stringify(company.body)).toBe(200);

    const resumed = await setClock(admin.token, { status: 'active' });
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ status: 'active', next_turn_at: before.body.next_turn_at });
    expect((await app.api('GET', '/world')).body.status).toBe('active');
  });

  it('refuses a player (403) and leaves the clock as it was', async () => {
    const refused = await setClock(player.token, { status: 'paused' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: INSTRUCTORS_ONLY });
    expect((await world(admin.token)).body.status).toBe('active');
  });

  it("refuses personal access tokens, even the admin's (session only)", async () => {
    const created = await app.api('POST', '/tokens', { token: admin.token, body: { name: 'admin script', scope: 'manage' } });
    expect(created.status).toBe(200);
    const refused = await setClock(created.body.token, { status: 'paused' });
    expect(refused.status).toBe(403);
    expect((await world(admin.token)).body.status).toBe('active');
  });

  it('keeps the interval the server schedule', async () => {
    const refused = await setClock(admin.token, { turn_interval_minutes: 5 });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ error: "The public world's clock is the server's schedule (TURN_CRON)" });
  });
});

describe('/admin is the public world, whichever world the admin plays in', () => {
  let app: TestApp;
  let admin: TestPlayer;
  const advanced: number[] = [];

  beforeAll(async () => {
    app = await startTestApp({
      services: {
        advanceTurn: async (worldId) => {
          advanced.push(worldId);
          return { week: 2 };
        },
      },
    });
    admin = await app.createPlayer({ isAdmin: true, name: 'Admin Teaching Co' });
  });
  afterAll(async () => {
    await app.close();
  });

  it("shows and advances the public world's turn while the admin plays in a class world", async () => {
    const db = app.database.db;
    const world = await createWorld(
      db,
      { id: admin.userId, isAdmin: true },
      { name: 'Admin class', turnIntervalMinutes: null, startingCashDollars: 50_000, bots: 0, seed: 3, maxPlayers: 30 },
    );
    await db.execute(sql`update worlds set current_week = 7, next_turn_at = null where id = ${world.id}`);
    await switchWorld(db, { id: admin.userId, isAdmin: true }, admin.token.split('.')[0]!, world.id);
    // The admin's own header is the class world's week...
    expect((await app.api('GET', '/world', { token: admin.token })).body.current_week).toBe(7);

    // ...while /admin reads and advances the public world.
    const state = await app.api('GET', '/admin/world-state', { token: admin.token });
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({ current_week: 1, status: 'active' });
    expect(state.body.next_turn_at).toEqual((await app.api('GET', '/world')).body.next_turn_at);

    const advance = await app.api('POST', '/admin/advance-turn', { token: admin.token });
    expect(advance).toMatchObject({ status: 200, body: { current_week: 2 } });
    expect(advanced).toEqual([PUBLIC_WORLD_ID]);
  });
});
