/**
 * GET /api/realtime (api/src/realtime.ts): a browser hears only the turns of the world it plays in.
 * A player of a private world is not told of the public world's turn (no refetch, no "Turn
 * processed!" toast) and the other way round; a visitor hears the public world; a player who
 * switches worlds while the stream is open hears the new world from then on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createWorld, switchWorld, type Database } from '@marketcraft/db';
import { PUBLIC_WORLD_ID, REALTIME_CHANNEL } from '@marketcraft/shared';
import { GAME_UPDATES_CHANNEL, type GameUpdate } from '@marketcraft/shared/queues.ts';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';
import { REALTIME_STREAMS_PER_CREDENTIAL, TOO_MANY_STREAMS_MESSAGE } from '../src/realtime.ts';

interface SseEvent {
  event: string;
  data: string;
}

/** An open stream as a browser's EventSource sees it: its events in order, read as they come. */
async function openStream(app: TestApp, token?: string, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const response = await fetch(`${app.baseUrl}/api/realtime`, {
    headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const pending: SseEvent[] = [];
  async function next(): Promise<SseEvent> {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const lines = block.split('\n');
        const event = lines
          .find((line) => line.startsWith('event:'))
          ?.slice(6)
          .trim();
        const data = lines
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .join('\n');
        if (event) return { event, data };
        continue; // a keepalive comment
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffer += value;
    }
  }
  const ready = await next();
  expect(ready.event).toBe('ready');
  return {
    /** The next game update this stream delivers (its week numbers say which notification it was). */
    nextUpdate: async (): Promise<GameUpdate> => {
      const event = pending.shift() ?? (await next());
      expect(event.event).toBe(REALTIME_CHANNEL);
      return JSON.parse(event.data) as GameUpdate;
    },
    close: () => abort.abort(),
  };
}

describe('realtime: each stream hears its own world only', () => {
  let app: TestApp;
  let db: Database;
  let publicPlayer: TestPlayer;
  let classPlayer: TestPlayer;
  let classWorld: number;

  /** What the worker sends after a turn commits (worker/src/turn/index.ts). */
  const notify = (update: GameUpdate) => db.execute(sql`select pg_notify(${GAME_UPDATES_CHANNEL}, ${JSON.stringify(update)})`);

  beforeAll(async () => {
    app = await startTestApp({ realtime: true });
    db = app.database.db;
    publicPlayer = await app.createPlayer({ name: 'Public Listener Co' });
    classPlayer = await app.createPlayer({ name: 'Class Listener Co' });
    const world = await createWorld(
      db,
      { id: classPlayer.userId, isAdmin: false },
      {
        name: 'Realtime class',
        turnIntervalMinutes: null,
        startingCashDollars: 50_000,
        bots: 0,
        seed: 11,
        maxPlayers: 5,
      },
    );
    classWorld = world.id;
    await switchWorld(db, { id: classPlayer.userId, isAdmin: false }, classPlayer.token.split('.')[0]!, classWorld);
  });
  afterAll(async () => {
    await app.close();
  });

  it("delivers a turn to the players of that world and to nobody else's stream", async () => {
    const publicStream = await openStream(app, publicPlayer.token);
    const classStream = await openStream(app, classPlayer.token);
    const visitorStream = await openStream(app);
    try {
      // Notifications arrive in order: a stream's next update says which ones it skipped.
      await notify({ worldId: classWorld, week: 2, processedWeek: 1 });
      await notify({ worldId: PUBLIC_WORLD_ID, week: 101, processedWeek: 100 });
      await notify({ worldId: classWorld, week: 3, processedWeek: 2 });
      await notify({ worldId: PUBLIC_WORLD_ID, week: 102, processedWeek: 101 });

      expect(await publicStream.nextUpdate()).toEqual({ worldId: PUBLIC_WORLD_ID, week: 101, processedWeek: 100 });
      expect(await publicStream.nextUpdate()).toEqual({ worldId: PUBLIC_WORLD_ID, week: 102, processedWeek: 101 });
      expect(await visitorStream.nextUpdate()).toMatchObject({ worldId: PUBLIC_WORLD_ID, week: 101 });
      expect(await visitorStream.nextUpdate()).toMatchObject({ worldId: PUBLIC_WORLD_ID, week: 102 });
      expect(await classStream.nextUpdate()).toEqual({ worldId: classWorld, week: 2, processedWeek: 1 });
      expect(await classStream.nextUpdate()).toEqual({ worldId: classWorld, week: 3, processedWeek: 2 });
    } finally {
      publicStream.close();
      classStream.close();
      visitorStream.close();
    }
  });

  it('follows a world switch made while the stream is open', async () => {
    const stream = await openStream(app, classPlayer.token);
    try {
      await notify({ worldId: classWorld, week: 4, processedWeek: 3 });
      expect(await stream.nextUpdate()).toMatchObject({ worldId: classWorld, week: 4 });
      // The header's switcher, in another tab: back to the public world.
      const switched = await app.api('PUT', '/session/world', { token: classPlayer.token, body: { world_id: PUBLIC_WORLD_ID } });
      expect(switched.status).toBe(200);
      await notify({ worldId: classWorld, week: 5, processedWeek: 4 });
      await notify({ worldId: PUBLIC_WORLD_ID, week: 103, processedWeek: 102 });
      expect(await stream.nextUpdate()).toMatchObject({ worldId: PUBLIC_WORLD_ID, week: 103 });
    } finally {
      stream.close();
    }
  });

  it('hears the world a personal access token names with X-World-Id, as every token route does', async () => {
    await switchWorld(db, { id: classPlayer.userId, isAdmin: false }, classPlayer.token.split('.')[0]!, PUBLIC_WORLD_ID);
    const created = await app.api('POST', '/tokens', { token: classPlayer.token, body: { name: 'class listener', scope: 'read' } });
    expect(created.status).toBe(200);
    const token = created.body.token as string;
    const classStream = await openStream(app, token, { 'X-World-Id': String(classWorld) });
    const publicStream = await openStream(app, token);
    try {
      await notify({ worldId: PUBLIC_WORLD_ID, week: 104, processedWeek: 103 });
      await notify({ worldId: classWorld, week: 6, processedWeek: 5 });
      expect(await classStream.nextUpdate()).toEqual({ worldId: classWorld, week: 6, processedWeek: 5 });
      expect(await publicStream.nextUpdate()).toEqual({ worldId: PUBLIC_WORLD_ID, week: 104, processedWeek: 103 });
    } finally {
      classStream.close();
      publicStream.close();
    }
    // A world the token's user is not part of: the same 404 as every route, before any stream.
    const outsider = await app.api('POST', '/tokens', { token: publicPlayer.token, body: { name: 'outsider', scope: 'read' } });
    const refused = await fetch(`${app.baseUrl}/api/realtime`, {
      headers: { authorization: `Bearer ${outsider.body.token}`, 'X-World-Id': String(classWorld) },
    });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ error: expect.stringContaining(`World not found: X-World-Id ${classWorld}`) });
  });

  it('is in the OpenAPI document, with each refusal it answers and the update its events carry', async () => {
    const document = (await app.api('GET', '/openapi.json')).body;
    const operation = document.paths['/realtime']?.get;
    expect(operation, 'GET /realtime in /api/openapi.json').toBeDefined();
    expect(operation['x-token-scope']).toBe('read');
    expect(operation.parameters).toEqual([{ $ref: '#/components/parameters/WorldId' }]);
    const answered = [
      // A session naming a world: X-World-Id is read only with a token.
      await fetch(`${app.baseUrl}/api/realtime`, { headers: { authorization: `Bearer ${publicPlayer.token}`, 'X-World-Id': String(classWorld) } }),
      await fetch(`${app.baseUrl}/api/realtime`, { headers: { authorization: 'Bearer mc_pat_aaaaaaaaaaaaaaaa_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' } }),
    ];
    const outsider = await app.api('POST', '/tokens', { token: publicPlayer.token, body: { name: 'documented', scope: 'read' } });
    answered.push(
      await fetch(`${app.baseUrl}/api/realtime`, { headers: { authorization: `Bearer ${outsider.body.token}`, 'X-World-Id': String(classWorld) } }),
    );
    expect(answered.map((response) => response.status)).toEqual([400, 401, 404]);
    for (const response of answered) {
      expect(operation.responses[String(response.status)]?.content, `the ${response.status} answer`).toEqual({
        'application/json': { schema: { $ref: '#/components/schemas/Error' } },
      });
      expect(Object.keys((await response.json()) as object)).toEqual(['error']);
    }
    expect(operation.responses['429'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    const stream = operation.responses['200'].content['text/event-stream'];
    const update: GameUpdate = { worldId: PUBLIC_WORLD_ID, week: 3, processedWeek: 2 };
    expect(stream['x-event-data'].required).toEqual(Object.keys(update));
    expect(Object.keys(stream['x-event-data'].properties)).toEqual(Object.keys(update));
  });

  it('caps the streams one session holds open: the next answers 429 until one closes, and others are not affected', async () => {
    const holder = await app.createPlayer({ name: 'Many Tabs Co' });
    const open = [];
    for (let tab = 0; tab < REALTIME_STREAMS_PER_CREDENTIAL; tab += 1) open.push(await openStream(app, holder.token));
    const refused = await fetch(`${app.baseUrl}/api/realtime`, { headers: { authorization: `Bearer ${holder.token}` } });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: TOO_MANY_STREAMS_MESSAGE });
    // Another player on the same address still gets a stream.
    const neighbour = await openStream(app, publicPlayer.token);
    neighbour.close();
    // Closing a tab frees its place (the server notices the closed connection).
    open.pop()!.close();
    await expect
      .poll(async () => {
        const abort = new AbortController();
        const response = await fetch(`${app.baseUrl}/api/realtime`, { headers: { authorization: `Bearer ${holder.token}` }, signal: abort.signal });
        abort.abort();
        return response.status;
      })
      .toBe(200);
    for (const stream of open) stream.close();
  });
});
