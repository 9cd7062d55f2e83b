/**
 * Ending a class world races with its players' actions (docs/worlds.md, "Ending a world while
 * players act"): no action commits after the end. An action already running when the instructor
 * ends the world finishes first (the end waits for it), and an action that read the world as
 * running just before the end answers 409 'This world has ended: it is read-only' and writes
 * nothing. Each race is held open on a row lock, so it is decided the same way every run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createWorld, joinWorld, switchWorld, WORLD_ENDED, type Database } from '@marketcraft/db';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';

describe('ending a class world while its players act', () => {
  let app: TestApp;
  let db: Database;
  let teacher: TestPlayer;
  let wheatId: number;

  beforeAll(async () => {
    app = await startTestApp();
    db = app.database.db;
    teacher = await app.createPlayer({ name: 'End Race Teacher Co' });
  });
  afterAll(async () => {
    await app.close();
  });

  /** A class world with one student playing in it: the student's session and company there. */
  async function classWithStudent(name: string) {
    const world = await createWorld(
      db,
      { id: teacher.userId, isAdmin: false },
      { name, turnIntervalMinutes: null, startingCashDollars: 50_000, bots: 0, seed: 9, maxPlayers: 30 },
    );
    const student = await app.createPlayer({ name: `${name} public co` });
    await joinWorld(db, { id: student.userId, isAdmin: false, email: student.email }, { code: world.join_code!, companyName: `${name} student co` });
    await switchWorld(db, { id: student.userId, isAdmin: false }, student.token.split('.')[0]!, world.id);
    const [company] = await db.execute<{ id: number }>(sql`select id from companies where world_id = ${world.id} and user_id = ${student.userId}`);
    if (!wheatId) {
      const goods = await app.api<Array<{ id: number; name: string }>>('GET', '/goods', { token: student.token });
      wheatId = goods.body.find((good) => good.name === 'Wheat')!.id;
    }
    return { worldId: world.id, student, companyId: Number(company!.id) };
  }

  const buyWheat = (student: TestPlayer) =>
    app.api('POST', '/market/trade', { token: student.token, body: { product_id: wheatId, quantity: 10, action: 'buy' } });
  const purchases = async (companyId: number) => {
    const [row] = await db.execute<{ n: number }>(sql`select count(*)::int as n from transactions where company_id = ${companyId} and reason = 'market_buy'`);
    return Number(row!.n);
  };
  /** Whether a statement matching `pattern` waits for a row lock now. */
  async function waitsForLock(pattern: string): Promise<boolean> {
    const [row] = await db.execute<{ n: number }>(sql`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query ilike ${pattern}`);
    return Number(row!.n) > 0;
  }
  async function untilWaiting(pattern: string, stop: () => boolean = () => false): Promise<boolean> {
    for (let attempt = 0; attempt < 200 && !stop(); attempt += 1) {
      if (await waitsForLock(pattern)) return true;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return false;
  }
  /** Runs `hold` in a transaction that stays open until the returned release() is called. */
  async function holdOpen(hold: (tx: Parameters<Parameters<Database['transaction']>[0]>[0]) => Promise<void>) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const done = db.transaction(async (tx) => {
      await hold(tx);
      holding();
      await released;
    });
    await held;
    return async () => {
      release();
      await done;
    };
  }

  it('an action running when the world is ended commits first: the end waits for it', async () => {
    const { worldId, student, companyId } = await classWithStudent('Ends after a trade');
    // The trade starts, then stops at its company's row lock, held here.
    const releaseCompany = await holdOpen(async (tx) => {
      await tx.execute(sql`select id from companies where id = ${companyId} for update`);
    });
    const trade = buyWheat(student);
    expect(await untilWaiting('%from companies%for update%')).toBe(true);

    let endAnswered = false;
    const end = app.api('POST', `/worlds/${worldId}/end`, { token: teacher.token }).finally(() => {
      endAnswered = true;
    });
    // The end waits for the running trade instead of ending the world under it.
    expect(await untilWaiting('%from worlds%for update%', () => endAnswered)).toBe(true);
    expect(endAnswered).toBe(false);

    await releaseCompany();
    expect((await trade).status).toBe(200);
    expect((await end).status).toBe(200);
    expect(await purchases(companyId)).toBe(1);
    // From now on the world is read-only.
    expect(await buyWheat(student)).toMatchObject({ status: 409, body: { error: WORLD_ENDED } });
    expect(await purchases(companyId)).toBe(1);
  });

  it('an action that read the world as running just before it ended answers 409 and writes nothing', async () => {
    const { worldId, student, companyId } = await classWithStudent('Ends before a trade');
    // The end, as POST /api/worlds/{id}/end writes it, held uncommitted: the trade reads the world
    // as running (the end is not committed), then reaches the world's row.
    const commitEnd = await holdOpen(async (tx) => {
      await tx.execute(sql`select 1 from worlds where id = ${worldId} for update`);
      await tx.execute(sql`update worlds set status = 'ended', ended_at = now(), next_turn_at = null where id = ${worldId}`);
    });
    const trade = buyWheat(student);
    await untilWaiting('%from worlds%for key share%');
    await commitEnd();
    expect(await trade).toMatchObject({ status: 409, body: { error: WORLD_ENDED } });
    expect(await purchases(companyId)).toBe(0);
    const [cash] = await db.execute<{ cash_cents: number }>(sql`select cash_cents::bigint as cash_cents from companies where id = ${companyId}`);
    expect(Number(cash!.cash_cents)).toBe(5_000_000);
  });
});
