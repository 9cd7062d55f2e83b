/**
 * POST /api/worlds/{id}/fork (docs/replay.md, "Forking a world"): who may fork, which weeks, what
 * the new world is, and a fork whose replay fails. The replay itself runs in the worker
 * (worker/test/worldReplay.integration.test.ts); here the worker's part is a stand-in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { GameError, PUBLIC_WORLD_ID } from '@marketcraft/shared';
import { INSTRUCTORS_ONLY, createWorld, forkWeekMessage } from '@marketcraft/db';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';

describe('forking a world', () => {
  let app: TestApp;
  let instructor: TestPlayer;
  let student: TestPlayer;
  let outsider: TestPlayer;
  let classWorld: number;
  const replayed: number[] = [];
  let replayFails = false;

  beforeAll(async () => {
    app = await startTestApp({
      services: {
        forkWorld: async (forkId) => {
          replayed.push(forkId);
          if (replayFails) throw new GameError('UNAVAILABLE', "The fork could not be replayed: the fork's week 2 differs from the original's");
          return { week: 3 };
        },
      },
    });
    instructor = await app.createPlayer({ name: 'Fork Teacher Co' });
    student = await app.createPlayer({ name: 'Fork Student Co' });
    outsider = await app.createPlayer({ name: 'Fork Outsider Co' });
    const world = await createWorld(
      app.database.db,
      { id: instructor.userId, isAdmin: false },
      { name: 'Fork class', turnIntervalMinutes: 60, startingCashDollars: 50_000, bots: 2, seed: 99, maxPlayers: 30 },
    );
    classWorld = world.id;
    expect((await app.api('POST', '/worlds/join', { token: student.token, body: { code: world.join_code } })).status).toBe(200);
    await app.database.db.execute(sql`update worlds set current_week = 4 where id = ${classWorld}`);
  });
  afterAll(async () => {
    await app.close();
  });

  const fork = (token: string, worldId: number, body: Record<string, unknown>) => app.api('POST', `/worlds/${worldId}/fork`, { token, body });

  it("the world's instructor gets a new class world of their own at that week's start, with its own code and manual turns", async () => {
    const answer = await fork(instructor.token, classWorld, { week: 3, name: 'Fork class, what if' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ name: 'Fork class, what if', kind: 'private', status: 'active', role: 'instructor', turns: 'Manual turns', bots: 2 });
    expect(answer.body.id).not.toBe(classWorld);
    expect(answer.body.join_code).toEqual(expect.any(String));
    expect(replayed).toEqual([answer.body.id]);
    const [row] = await app.database.db.execute<{ seed: number; from: number; at: number }>(sql`
      select seed, forked_from_world_id as from, forked_at_week as at from worlds where id = ${answer.body.id}`);
    expect({ seed: Number(row!.seed), from: row!.from, at: row!.at }).toEqual({ seed: 99, from: classWorld, at: 3 });
  });

  it('refuses students (403), strangers (404) and anyone but a site admin for the public world (403), creating nothing', async () => {
    const worlds = async () => Number((await app.database.db.execute<{ n: number }>(sql`select count(*)::int as n from worlds`))[0]!.n);
    const before = await worlds();
    const byStudent = await fork(student.token, classWorld, { week: 2, name: 'Mine now' });
    expect(byStudent).toMatchObject({ status: 403, body: { error: INSTRUCTORS_ONLY } });
    expect((await fork(outsider.token, classWorld, { week: 2, name: 'Mine now' })).status).toBe(404);
    expect(await fork(student.token, PUBLIC_WORLD_ID, { week: 1, name: 'Public what if' })).toMatchObject({ status: 403, body: { error: INSTRUCTORS_ONLY } });
    expect(await worlds()).toBe(before);
  });

  it('refuses a week the world has not reached (422) and a week that is not a week (400)', async () => {
    expect(await fork(instructor.token, classWorld, { week: 5, name: 'Too late' })).toMatchObject({ status: 422, body: { error: forkWeekMessage(4) } });
    expect((await fork(instructor.token, classWorld, { week: 0, name: 'Too early' })).status).toBe(400);
    expect((await fork(instructor.token, classWorld, { week: 2.5, name: 'Half' })).status).toBe(400);
    expect((await fork(instructor.token, classWorld, { week: 2, name: ' ' })).status).toBe(400);
  });

  it('a fork whose replay fails answers 503 with the reason and is ended, never played', async () => {
    replayFails = true;
    try {
      const answer = await fork(instructor.token, classWorld, { week: 2, name: 'Broken fork' });
      expect(answer).toMatchObject({ status: 503, body: { error: "The fork could not be replayed: the fork's week 2 differs from the original's" } });
      const [broken] = await app.database.db.execute<{ status: string }>(sql`select status from worlds where name = 'Broken fork'`);
      expect(broken!.status).toBe('ended');
    } finally {
      replayFails = false;
    }
  });
});
