/**
 * A class world played through the HTTP API for 20 weeks replays with matching hashes (issue 23,
 * "Done when"; docs/replay.md). The real API server and the real turn worker: an instructor creates
 * the world, students join it with its code, switch their sessions to it and send the random
 * players' moves (worker/src/replay/randomPlay.ts) as HTTP requests, all students at the same time,
 * refusals among them; the instructor adds a shock and presses "Advance turn now" each week. Then
 * the world's log is replayed into a fresh database: every week's state hash and every answer match.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createWorld, users, type Database } from '@marketcraft/db';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { startApiServer } from '../../api/src/server.ts';
import { loadApiConfig } from '../../api/src/config.ts';
import { createSession } from '../../api/src/auth/session.ts';
import { replayWorld, type ReplayTarget } from '../src/replay/replay.ts';
import { choicesIn, randomMove, seededRandom, type RandomRequest } from '../src/replay/randomPlay.ts';
import { startInProcessWorker } from './helpers.ts';

const WEEKS = 20;
const STUDENTS = 6;
const MOVES = 3;
const SEED = 2320;

/** Each action's route (docs/api.md): a building's id goes in the path. */
function route({ name, input }: RandomRequest): { method: string; path: string; body: Record<string, unknown> } {
  const { id, ...body } = input;
  const paths: Partial<Record<RandomRequest['name'], [string, string]>> = {
    buildBuilding: ['POST', '/buildings'],
    hireEmployees: ['POST', `/buildings/${id}/hire-employees`],
    upgradeEquipment: ['POST', `/buildings/${id}/upgrade-equipment`],
    selectRecipe: ['PUT', `/buildings/${id}/select-recipe`],
    purchaseForBuilding: ['POST', `/buildings/${id}/inventory/purchase`],
    transferToStore: ['POST', `/buildings/${id}/inventory/transfer-to-store`],
    marketTrade: ['POST', '/market/trade'],
    investInPolitics: ['POST', '/politics/invest'],
    purchaseResearch: ['POST', '/research/purchase'],
    tradeShares: ['POST', '/stocks/trade'],
  };
  const found = paths[name];
  if (!found) throw new Error(`no route for ${name} in this test`);
  return { method: found[0], path: found[1], body };
}

async function newUser(db: Database, email: string) {
  const [user] = await db.insert(users).values({ email }).returning({ id: users.id });
  return { id: user!.id, token: (await createSession(db, user!.id)).token };
}

describe('a world played through the HTTP API replays week by week', { timeout: 600_000 }, () => {
  let database: TestDatabase;
  let api: Awaited<ReturnType<typeof startApiServer>>;
  let worker: Awaited<ReturnType<typeof startInProcessWorker>>;
  let worldId: number;
  const statuses = new Map<number, number>();

  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${api.port}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };

  beforeAll(async () => {
    database = await createTestDatabase({ max: 12 });
    api = await startApiServer(
      loadApiConfig({
        DATABASE_URL: database.url,
        PORT: '0',
        HOST: '127.0.0.1',
        NODE_ENV: 'test',
        ADVANCE_TURN_TIMEOUT_MS: '120000',
        SIGNUPS_PER_ADDRESS_PER_HOUR: '0',
      }),
    );
    worker = await startInProcessWorker(database.url);

    const teacher = await newUser(database.db, 'api-replay-teacher@example.com');
    const created = await call(teacher.token, 'POST', '/worlds', { name: 'Played over HTTP', starting_cash: 200_000, bots: 3, seed: SEED });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    worldId = created.body.id;
    const students = [];
    for (let index = 0; index < STUDENTS; index += 1) {
      const student = await newUser(database.db, `api-replay-student-${index}@example.com`);
      const joined = await call(student.token, 'POST', '/worlds/join', { code: created.body.join_code, company_name: `Wire Student ${index}` });
      expect(joined.status, JSON.stringify(joined.body)).toBe(200);
      expect((await call(student.token, 'PUT', '/session/world', { world_id: worldId })).status).toBe(200);
      const [company] = await database.db.execute<{ id: number }>(sql`select id from companies where world_id = ${worldId} and user_id = ${student.id}`);
      students.push({ ...student, companyId: Number(company!.id) });
    }
    const companies = students.map((student) => student.companyId);
    const choices = await choicesIn(database.db);
    const random = seededRandom(SEED);
    for (let week = 1; week <= WEEKS; week += 1) {
      await Promise.all(
        students.map(async (student) => {
          for (let move = 0; move < MOVES; move += 1) {
            const buildings = (await call(student.token, 'GET', '/buildings')).body as { id: number; type: string }[];
            for (const request of randomMove(random, choices, buildings, companies)) {
              const { method, path, body } = route(request);
              const answer = await call(student.token, method, path, body);
              statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
            }
          }
        }),
      );
      if (week === 5) {
        const [wheat] = await database.db.execute<{ id: number }>(sql`select id from products where name = 'Wheat'`);
        const shock = await call(teacher.token, 'POST', `/worlds/${worldId}/shocks`, { kind: 'price', product_id: Number(wheat!.id), percent: 30, weeks: 3 });
        expect(shock.status, JSON.stringify(shock.body)).toBe(200);
      }
      const advanced = await call(teacher.token, 'POST', `/worlds/${worldId}/advance`);
      expect(advanced.status, JSON.stringify(advanced.body)).toBe(200);
    }
  }, 600_000);

  afterAll(async () => {
    await worker?.stop();
    await api?.close();
    await database?.drop();
  });

  it('the students were answered (applied or refused with a 4xx, never a 5xx) and the world reached week 21', async () => {
    const answered = [...statuses.entries()];
    expect(answered.filter(([status]) => status >= 500)).toEqual([]);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(50);
    expect(answered.filter(([status]) => status >= 400).reduce((sum, [, count]) => sum + count, 0)).toBeGreaterThan(10);
    const [world] = await database.db.execute<{ week: number }>(sql`select current_week as week from worlds where id = ${worldId}`);
    expect(Number(world!.week)).toBe(WEEKS + 1);
  });

  it('its log replayed into a fresh database gives every week the same state hash and every request the same answer', async () => {
    const fresh = await createTestDatabase();
    try {
      const [admin] = await fresh.db.insert(users).values({ email: 'replayer@example.com', isAdmin: true }).returning({ id: users.id });
      const replayer = { id: admin!.id, isAdmin: true as const };
      const target = await createWorld(fresh.db, replayer, {
        name: 'Played over HTTP',
        seed: SEED,
        bots: 3,
        startingCashDollars: 200_000,
        maxPlayers: 1_000,
        turnIntervalMinutes: null,
      });
      const accounts = new Map<number, number>();
      const replayTarget: ReplayTarget = {
        db: fresh.db,
        worldId: target.id,
        admin: replayer,
        userFor: async (original) => {
          if (!accounts.has(original)) {
            const [user] = await fresh.db
              .insert(users)
              .values({ email: `player-${original}@replay.invalid` })
              .returning({ id: users.id });
            accounts.set(original, user!.id);
          }
          return accounts.get(original)!;
        },
      };
      const report = await replayWorld(database.db, worldId, replayTarget);
      expect(report.mismatches).toEqual([]);
      expect(report.weeks.map((week) => week.week)).toEqual(Array.from({ length: WEEKS }, (_, index) => index + 1));
      expect(report.weeks.filter((week) => !week.matches)).toEqual([]);
      expect(report.week).toBe(WEEKS + 1);
    } finally {
      await fresh.drop();
    }
  });
});
