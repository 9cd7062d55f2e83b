/**
 * Grade passback after a class world's turn (docs/classroom.md, "The grade"): the worker posts each
 * launched student's changed score to their course's line item on the course platform written
 * for the tests (api/test/helpers/ltiPlatform.ts), and a platform that is down never fails the turn.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createWorld, joinWorld, ltiContexts, ltiPlatforms, ltiUsers, users, type Database } from '@marketcraft/db';
import { toolJwks } from '@marketcraft/db/lti/keys.ts';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { startTestPlatform, type TestPlatform } from '../../api/test/helpers/ltiPlatform.ts';
import { sendWorldTurn } from '../src/queue.ts';
import { startInProcessWorker, startSender, waitFor } from './helpers.ts';

async function weekOf(db: Database, worldId: number): Promise<number> {
  const [row] = await db.execute<{ current_week: number }>(sql`select current_week from worlds where id = ${worldId}`);
  return Number(row!.current_week);
}

describe('grade passback after a turn', { timeout: 180_000 }, () => {
  let database: TestDatabase;
  let db: Database;
  let platform: TestPlatform;
  let tool: http.Server;
  let worldId: number;

  beforeAll(async () => {
    database = await createTestDatabase({ max: 12 });
    db = database.db;
    // The tool's JWKS, which the platform reads to check our token requests.
    tool = http.createServer((_req, res) => {
      void toolJwks(db).then((jwks) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks)));
    });
    await new Promise<void>((resolve) => tool.listen(0, '127.0.0.1', resolve));
    platform = await startTestPlatform({ toolBaseUrl: `http://127.0.0.1:${(tool.address() as AddressInfo).port}` });

    const [teacher] = await db.insert(users).values({ email: 'teacher@lti.invalid' }).returning({ id: users.id });
    const world = await createWorld(
      db,
      { id: teacher!.id, isAdmin: false },
      { name: 'Economics 101', turnIntervalMinutes: null, startingCashDollars: 100_000, bots: 2, maxPlayers: 40 },
    );
    worldId = world.id;
    const [registered] = await db
      .insert(ltiPlatforms)
      .values({
        issuer: platform.issuer,
        clientId: platform.clientId,
        deploymentIds: [platform.deploymentId],
        authLoginUrl: `${platform.url}/auth`,
        authTokenUrl: `${platform.url}/token`,
        jwksUrl: `${platform.url}/jwks`,
      })
      .returning({ id: ltiPlatforms.id });
    await db
      .insert(ltiContexts)
      .values({ platformId: registered!.id, contextId: platform.course.id, worldId, lineitemsUrl: `${platform.url}/courses/${platform.course.id}/lineitems` });
    for (const [subject, email] of [
      ['student-1', 'one@lti.invalid'],
      ['student-2', 'two@lti.invalid'],
    ] as const) {
      const [student] = await db.insert(users).values({ email }).returning({ id: users.id });
      await joinWorld(db, { id: student!.id, isAdmin: false, email }, { code: world.join_code! });
      await db.insert(ltiUsers).values({ platformId: registered!.id, subject, userId: student!.id });
    }
    // student-2 falls behind: rank 2 of 2.
    await db.execute(
      sql`update companies set cash_cents = cash_cents - 5000000 where world_id = ${worldId} and user_id = (select user_id from lti_users where subject = 'student-2')`,
    );
  });
  afterAll(async () => {
    await platform?.close();
    await new Promise<void>((resolve) => tool?.close(() => resolve()));
    await database?.drop();
  });

  it("posts each student's score to the course's line item after the turn", async () => {
    const worker = await startInProcessWorker(database.url, { TURN_SCHEDULE_ENABLED: '0' });
    const sender = await startSender(database.url);
    try {
      const week = await weekOf(db, worldId);
      await sendWorldTurn(sender, worldId, week);
      await waitFor(async () => platform.lineItems[0]?.scores.size === 2, 90_000, 'the scores at the platform');
      expect(await weekOf(db, worldId)).toBe(week + 1);
      const [item] = platform.lineItems;
      expect(item!.scores.get('student-1')!.scoreGiven).toBe(100);
      expect(item!.scores.get('student-2')!.scoreGiven).toBe(50);
      // The worker logs the posting once the platform has answered both: the scores can arrive first.
      await waitFor(async () => worker.logs.some((line) => line.msg === 'posted 2 score(s) to the course platform'), 30_000, 'the posting logged');

      // The platform goes down: the next turn still advances, and says why no grade went out.
      await platform.close();
      await db.execute(
        sql`update companies set cash_cents = cash_cents + 10000000 where world_id = ${worldId} and user_id = (select user_id from lti_users where subject = 'student-2')`,
      );
      await sendWorldTurn(sender, worldId, week + 1);
      await waitFor(async () => (await weekOf(db, worldId)) === week + 2, 90_000, 'the second turn');
      await waitFor(async () => worker.logs.some((line) => String(line.msg).startsWith("could not post the world's scores")), 30_000, 'the warning');
    } finally {
      await sender.stop({ graceful: false, close: true });
      await worker.stop();
    }
  });
});
