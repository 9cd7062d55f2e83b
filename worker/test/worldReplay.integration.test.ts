/**
 * Replay (docs/replay.md): a class world played for several weeks by random players (concurrent
 * requests, refusals among them), its bots and an instructor's shocks, replayed from its log into
 * a fresh database, reaches the same state hash after every week; a replay stopped at a week equals
 * the original at that week; one logged decision changed makes the hashes differ from its week on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { addShock, createFork, createWorld, joinWorld, stateHash, stateHashVersionOf, users, type Database } from '@marketcraft/db';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { runTurn } from '../src/turn/index.ts';
import { replayWorld, type ReplayTarget } from '../src/replay/replay.ts';
import { playRandomWeek, seededRandom } from '../src/replay/randomPlay.ts';
import { replayFork } from '../src/replay/fork.ts';

const WEEKS = 6;
const SETTINGS = { name: 'Replayed class', turnIntervalMinutes: null, startingCashDollars: 200_000, bots: 3, maxPlayers: 40, seed: 4242 };

async function newAdmin(db: Database, email: string) {
  const [user] = await db.insert(users).values({ email, isAdmin: true }).returning({ id: users.id });
  return { id: user!.id, isAdmin: true as const };
}

async function targetIn(database: TestDatabase): Promise<ReplayTarget> {
  const admin = await newAdmin(database.db, 'replayer@example.com');
  const world = await createWorld(database.db, admin, SETTINGS);
  const accounts = new Map<number, number>();
  return {
    db: database.db,
    worldId: world.id,
    admin,
    userFor: async (original) => {
      if (!accounts.has(original)) {
        const [user] = await database.db
          .insert(users)
          .values({ email: `player-${original}@replay.invalid` })
          .returning({ id: users.id });
        accounts.set(original, user!.id);
      }
      return accounts.get(original)!;
    },
  };
}

describe('replaying a world from its log', () => {
  let original: TestDatabase;
  let worldId: number;
  let teacher: { id: number; isAdmin: true };

  beforeAll(async () => {
    original = await createTestDatabase({ max: 12 });
    const db = original.db;
    teacher = await newAdmin(db, 'teacher@example.com');
    const world = await createWorld(db, teacher, SETTINGS);
    worldId = world.id;
    const players: { userId: number; companyId: number }[] = [];
    for (let index = 0; index < 5; index += 1) {
      const [user] = await db
        .insert(users)
        .values({ email: `student-${index}@example.com` })
        .returning({ id: users.id });
      await joinWorld(db, { id: user!.id, isAdmin: false, email: `student-${index}@example.com` }, { code: world.join_code!, companyName: `Student ${index}` });
      const [company] = await db.execute<{ id: number }>(sql`select id from companies where world_id = ${worldId} and user_id = ${user!.id}`);
      players.push({ userId: user!.id, companyId: Number(company!.id) });
    }
    const random = seededRandom(20261207);
    for (let week = 1; week <= WEEKS; week += 1) {
      // Each player's moves one after the other; the players at the same time (concurrent requests).
      await playRandomWeek(db, players, random);
      if (week === 3) {
        const [wheat] = await db.execute<{ id: number }>(sql`select id from products where name = 'Wheat'`);
        const [country] = await db.execute<{ id: number }>(sql`select id from countries order by id limit 1`);
        await addShock(db, teacher, worldId, { kind: 'price', productId: Number(wheat!.id), percent: 40, weeks: 2 });
        await addShock(db, teacher, worldId, { kind: 'tax_rate', countryId: Number(country!.id), percent: -50, weeks: 3 });
      }
      const turned = await runTurn(db, { worldId, week });
      expect(turned.status).toBe('advanced');
    }
  }, 240_000);
  afterAll(async () => {
    await original.drop();
  });

  it('the log holds the turns, the foundings, the shocks and refused requests as well as applied ones', async () => {
    const counts = await original.db.execute<{ action: string; refused: number; entries: number }>(sql`
      select action, count(*) filter (where not (outcome->>'applied')::boolean)::int as refused, count(*)::int as entries
      from world_actions where world_id = ${worldId} group by action`);
    const by = new Map(counts.map((row) => [row.action, row]));
    expect(by.get('advanceTurn')?.entries).toBe(WEEKS);
    expect(by.get('foundCompany')?.entries).toBe(5);
    expect(by.get('addShock')?.entries).toBe(2);
    expect(counts.reduce((sum, row) => sum + Number(row.refused), 0)).toBeGreaterThan(0);
    const hashes = await original.db.execute<{ state_hash: string | null }>(sql`select state_hash from turns where world_id = ${worldId} order by week`);
    expect(hashes.map((row) => /^v3:[0-9a-f]{64}$/.test(row.state_hash ?? ''))).toEqual(Array.from({ length: WEEKS }, () => true));
  });

  it('replayed into a fresh database, every week ends with the same state hash and every request answers as it did', async () => {
    const fresh = await createTestDatabase();
    try {
      const report = await replayWorld(original.db, worldId, await targetIn(fresh));
      expect(report.mismatches).toEqual([]);
      expect(report.weeks.map((week) => [week.week, week.matches])).toEqual(Array.from({ length: WEEKS }, (_, index) => [index + 1, true]));
      expect(report.week).toBe(WEEKS + 1);
    } finally {
      await fresh.drop();
    }
  }, 240_000);

  it('a replay stopped at week 4 is the original at the start of week 4; one changed trade makes every hash differ from its week on', async () => {
    const stopped = await createTestDatabase();
    const altered = await createTestDatabase();
    try {
      const target = await targetIn(stopped);
      const report = await replayWorld(original.db, worldId, target, { toWeek: 4 });
      expect(report.week).toBe(4);
      const [turn3] = await original.db.execute<{ state_hash: string }>(sql`select state_hash from turns where world_id = ${worldId} and week = 3`);
      expect(await stateHash(target.db, target.worldId)).toBe(turn3!.state_hash);

      // The first applied market trade from week 2 on (the players' order of requests depends on
      // the concurrency: its week is whatever it is), with one unit less: always possible, and the
      // world differs from that week on.
      const [changed] = await original.db.execute<{ seq: number; week: number }>(sql`
        select seq, week from world_actions where world_id = ${worldId} and week >= 2 and action = 'marketTrade' and not by_turn
          and (outcome->>'applied')::boolean and (input->>'quantity')::int >= 2 order by seq limit 1`);
      expect(changed).toBeDefined();
      const whatIf = await replayWorld(original.db, worldId, await targetIn(altered), {
        alter: (entry) => (entry.seq === Number(changed!.seq) ? { ...entry.input, quantity: Number(entry.input.quantity) - 1 } : entry.input),
      });
      expect(whatIf.weeks.map((week) => week.matches)).toEqual(Array.from({ length: WEEKS }, (_, index) => index + 1 < Number(changed!.week)));
    } finally {
      await stopped.drop();
      await altered.drop();
    }
  }, 240_000);

  it('a request logged as applied and refused on replay is answered refused once and leaves nothing: its week runs again with a savepoint for each request', async () => {
    const altered = await createTestDatabase();
    try {
      // A hire logged as applied, sent again for a building nobody has: refused by the action (not
      // by the schema), after the request ran without its savepoint.
      const [changed] = await original.db.execute<{ seq: number; week: number }>(sql`
        select seq, week from world_actions where world_id = ${worldId} and week >= 2 and action = 'hireEmployees' and not by_turn
          and (outcome->>'applied')::boolean order by seq limit 1`);
      expect(changed).toBeDefined();
      const target = await targetIn(altered);
      const report = await replayWorld(original.db, worldId, target, {
        toWeek: Number(changed!.week) + 1,
        alter: (entry) => (entry.seq === Number(changed!.seq) ? { ...entry.input, id: 2_000_000_000 } : entry.input),
      });
      expect(report.mismatches).toEqual([
        expect.objectContaining({
          seq: Number(changed!.seq),
          action: 'hireEmployees',
          replayed: expect.objectContaining({ applied: false, code: 'NOT_FOUND' }),
        }),
      ]);
      // Each request of the week in the replay's log once, in the original's order of actions.
      const actions = async (db: Database, id: number) =>
        (
          await db.execute<{ action: string }>(
            sql`select action from world_actions where world_id = ${id} and week = ${Number(changed!.week)} and not by_turn and company_id is not null order by seq`,
          )
        ).map((row) => row.action);
      expect(await actions(target.db, target.worldId)).toEqual(await actions(original.db, worldId));
      expect(report.weeks.map((week) => week.matches)).toEqual(Array.from({ length: Number(changed!.week) }, (_, index) => index + 1 < Number(changed!.week)));
    } finally {
      await altered.drop();
    }
  }, 240_000);

  it('a fork at week 5 in the same database: the original at the start of week 5, the same players, its own join code, and it turns on', async () => {
    const db = original.db;
    const fork = await createFork(db, teacher, worldId, { week: 5, name: 'What if' });
    const report = await replayFork(db, fork.id);
    expect(report.week).toBe(5);
    const [turn4] = await db.execute<{ state_hash: string }>(sql`select state_hash from turns where world_id = ${worldId} and week = 4`);
    expect(await stateHash(db, fork.id)).toBe(turn4!.state_hash);
    const owners = async (id: number) =>
      (await db.execute<{ user_id: number }>(sql`select user_id from companies where world_id = ${id} and not is_bot order by id`)).map((row) => row.user_id);
    expect(await owners(fork.id)).toEqual(await owners(worldId));
    const [codes] = await db.execute<{ fork: string; original: string; from: number; at: number }>(sql`
      select f.join_code as fork, o.join_code as original, f.forked_from_world_id as from, f.forked_at_week as at
      from worlds f, worlds o where f.id = ${fork.id} and o.id = ${worldId}`);
    expect(codes!.fork).not.toBe(codes!.original);
    expect([codes!.from, codes!.at]).toEqual([worldId, 5]);
    expect((await runTurn(db, { worldId: fork.id, week: 5 })).status).toBe('advanced');
    // A fork is replayed once.
    await expect(replayFork(db, fork.id)).rejects.toThrow(/already replayed/);
  }, 240_000);

  it('a world whose turns stored version 1 and 2 hashes (before issue 25 and before version 3) replays against them, week by week', async () => {
    const db = original.db;
    const old = await createWorld(db, teacher, { ...SETTINGS, name: 'Hashed the old way' });
    // Each turn as a server before version 2 stored it (the hash of every city market too), then
    // as one before version 3 did (the rows as jsonb text).
    for (const [week, version] of [
      [1, 1],
      [2, 2],
      [3, 2],
    ] as const) {
      expect((await runTurn(db, { worldId: old.id, week })).status).toBe('advanced');
      await db.execute(sql`update turns set state_hash = ${await stateHash(db, old.id, version)} where world_id = ${old.id} and week = ${week}`);
    }
    const fresh = await createTestDatabase();
    try {
      const report = await replayWorld(db, old.id, await targetIn(fresh));
      expect(report.weeks.map((week) => [week.week, stateHashVersionOf(week.original!), week.matches])).toEqual([
        [1, 1, true],
        [2, 2, true],
        [3, 2, true],
      ]);
      // The replay's own turns stored the current version.
      const stored = await fresh.db.execute<{ state_hash: string }>(sql`select state_hash from turns order by world_id, week`);
      expect(stored.map((row) => stateHashVersionOf(row.state_hash))).toEqual([3, 3, 3]);
    } finally {
      await fresh.drop();
    }
  }, 240_000);
});
