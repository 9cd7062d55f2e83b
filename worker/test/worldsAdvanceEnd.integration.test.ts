/**
 * An instructor presses "Advance turn now" while another ends the world (docs/worlds.md): the
 * router's check saw the world running, the turn then refuses the ended world, and the advance
 * answers 409 "This world has ended: it is read-only" (it answered 503 and sent the instructor to
 * the worker logs). The end is held uncommitted on the world's row until the advance has been sent,
 * so the race is decided the same way on every run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createWorld, users } from '@marketcraft/db';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { startApiServer } from '../../api/src/server.ts';
import { loadApiConfig } from '../../api/src/config.ts';
import { createSession } from '../../api/src/auth/session.ts';
import { startInProcessWorker } from './helpers.ts';

describe('advancing a world that is ended meanwhile', { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let api: Awaited<ReturnType<typeof startApiServer>>;
  let worker: Awaited<ReturnType<typeof startInProcessWorker>>;
  let token: string;
  let worldId: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    const [teacher] = await database.db
      .insert(users)
      .values({ email: `teacher-${Date.now()}@example.com` })
      .returning({ id: users.id });
    worldId = (
      await createWorld(
        database.db,
        { id: teacher!.id, isAdmin: false },
        { name: 'Ending class', turnIntervalMinutes: null, startingCashDollars: 100_000, bots: 0, maxPlayers: 10 },
      )
    ).id;
    token = (await createSession(database.db, teacher!.id)).token;
    api = await startApiServer(loadApiConfig({ DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'test', ADVANCE_TURN_TIMEOUT_MS: '60000' }));
    worker = await startInProcessWorker(database.url);
  });
  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    await database.drop();
  });

  it('answers 409 "This world has ended" when the world ends while the turn waits', async () => {
    let commitEnd!: () => void;
    const endHeld = new Promise<void>((resolve) => (commitEnd = resolve));
    let endWritten!: () => void;
    const written = new Promise<void>((resolve) => (endWritten = resolve));
    // The end, as POST /api/worlds/{id}/end writes it, held open on the world's row.
    const ending = database.db.transaction(async (tx) => {
      await tx.execute(sql`update worlds set status = 'ended', ended_at = now(), next_turn_at = null where id = ${worldId}`);
      endWritten();
      await endHeld;
    });
    await written;
    const advancing = fetch(`http://127.0.0.1:${api.port}/api/worlds/${worldId}/advance`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    // The advance has passed the router's check (the end is not committed) once its job is queued.
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const [job] = await database.db.execute<{ n: number }>(sql`select count(*)::int as n from pgboss.job where data->>'worldId' = ${String(worldId)}`);
      if (Number(job?.n ?? 0) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    commitEnd();
    await ending;
    const answer = await advancing;
    expect(answer.status).toBe(409);
    expect(await answer.json()).toEqual({ error: 'This world has ended: it is read-only' });
    const [world] = await database.db.execute<{ current_week: number }>(sql`select current_week from worlds where id = ${worldId}`);
    expect(Number(world!.current_week)).toBe(1);
  });
});
