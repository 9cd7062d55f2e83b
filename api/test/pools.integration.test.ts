/**
 * The API's two pools (api/src/server.ts, db/src/client.ts): reads run on a few connections that
 * postgres.js pipelines under load, mutations and transactions on the others. A write can wait for a
 * row lock for as long as a turn runs (the turn holds its companies' rows until it commits); reads
 * must not wait with it, as they would if the waiting writes held the reads' connections.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from './helpers/testApp.ts';
import { API_STATEMENT_CONNECTIONS } from '../src/server.ts';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await app?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('reads while writes wait for a lock', () => {
  it('answers a read while more writes than the read pool has connections wait for a company row held as a turn holds it', async () => {
    const player = await app.createPlayer();
    const reader = await app.createPlayer();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    // Another connection holds the player's company row, as a running turn does.
    const turn = app.database.db.transaction(async (tx) => {
      await tx.execute(sql`select id from companies where id = ${player.companyId} for update`);
      locked();
      await held;
    });
    await lockTaken;
    const writes = Array.from({ length: API_STATEMENT_CONNECTIONS + 1 }, (_, index) =>
      app.api('PATCH', '/company/profile', { token: player.token, body: { name: `Waiting Works ${index + 1}` } }),
    );
    await sleep(300);
    try {
      const read = app.api('GET', '/research/company', { token: reader.token });
      const answered = await Promise.race([read.then((response) => response.status), sleep(3_000).then(() => 'still waiting')]);
      expect(answered).toBe(200);
    } finally {
      release();
      await turn;
    }
    // Once the lock is gone the writes go through, in some order.
    const statuses = (await Promise.all(writes)).map((response) => response.status);
    expect(statuses).toEqual(statuses.map(() => 200));
  });
});
