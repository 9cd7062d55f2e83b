/**
 * The action log (docs/replay.md): every request through the action door is appended to its world's
 * log in the same transaction, applied or refused, in commit order, and never edited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { GameError } from '@marketcraft/shared';
import { act, actMany, createPlayerCompany } from '../src/game/index.ts';
import type { Database } from '../src/client.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing/freshDatabase.ts';

type Entry = {
  world_id: number;
  seq: number;
  week: number;
  company_id: number | null;
  acting_user_id: number | null;
  action: string;
  input: Record<string, unknown>;
  outcome: { applied: boolean; result?: Record<string, unknown>; code?: string; message?: string };
  by_turn: boolean;
};

/**
 * The database as `db`, except that the first statement whose text has `marker` waits for `gate`
 * (`reached` says it got there): one request held at a chosen point of its transaction.
 */
function pausedAt(db: Database, marker: string, reached: () => void, gate: Promise<void>): Database {
  const dialect = new PgDialect();
  let paused = false;
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, property) {
        const value = Reflect.get(object, property, object) as unknown;
        if (typeof value !== 'function') return value;
        if (property === 'execute') {
          return async (query: SQL) => {
            if (!paused && dialect.sqlToQuery(query).sql.includes(marker)) {
              paused = true;
              reached();
              await gate;
            }
            return value.call(object, query);
          };
        }
        if (property === 'transaction') return (callback: (inner: object) => unknown) => value.call(object, (inner: object) => callback(wrap(inner)));
        return value.bind(object);
      },
    });
  return wrap(db);
}

describe('the action log', () => {
  let database: TestDatabase;
  let worldId: number;
  let wheat: number;
  let players: { companyId: number; userId: number }[];

  /** The log's entries after `seq`, in seq order. */
  const entriesAfter = async (seq: number) =>
    (await database.db.execute<Entry>(sql`select * from world_actions where world_id = ${worldId} and seq > ${seq} order by seq`)).map((row) => ({
      ...row,
      seq: Number(row.seq),
    }));
  const lastSeq = async () =>
    Number((await database.db.execute<{ seq: number }>(sql`select coalesce(max(seq), 0) as seq from world_actions where world_id = ${worldId}`))[0]!.seq);

  /**
   * A research purchase `player` cannot afford: its company left with $1,000 (its starting cash
   * too: cash = start + ledger still holds), the first upgrade costing more.
   */
  const researchRefusedFor = async (player: { companyId: number; userId: number }) => {
    const db = database.db;
    await db.execute(sql`
      update companies set starting_cash_cents = starting_cash_cents - (cash_cents - 100000), cash_cents = 100000 where id = ${player.companyId}`);
    const [upgrade] = await db.execute<{ id: number }>(sql`select id from research_upgrades where prerequisite_id is null order by id limit 1`);
    return { companyId: player.companyId, actingUserId: player.userId, input: { upgrade_id: Number(upgrade!.id) } };
  };
  /** The message a refusal quotes for $1,000 plus `total` dollars of cash. */
  const cashQuoted = (total: number) => `you have $${(1000 + total).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;

  beforeAll(async () => {
    database = await createTestDatabase({ max: 12 });
    const db = database.db;
    worldId = Number((await db.execute<{ id: number }>(sql`select id from worlds order by id limit 1`))[0]!.id);
    wheat = Number((await db.execute<{ id: number }>(sql`select id from products where name = 'Wheat'`))[0]!.id);
    players = [];
    for (let index = 0; index < 8; index += 1) {
      const [user] = await db.execute<{ id: number }>(sql`
        insert into users (email, password_hash) values (${`log-${index}@example.com`}, 'x') returning id`);
      const userId = Number(user!.id);
      const company = await db.transaction((tx) =>
        createPlayerCompany(tx, { worldId, userId, email: `log-${index}@example.com`, mode: 'flat', name: `Log Test ${index}` }),
      );
      players.push({ companyId: company.id, userId });
    }
  });
  afterAll(async () => {
    await database.drop();
  });

  it('logs each founding with the starting cash it got', async () => {
    const foundings = (
      await database.db.execute<Entry>(sql`
      select * from world_actions where world_id = ${worldId} and action = 'foundCompany' order by seq`)
    ).filter((entry) => players.some((player) => player.companyId === entry.company_id));
    expect(foundings.map((entry) => entry.company_id)).toEqual(players.map((player) => player.companyId));
    expect(foundings[0]!.acting_user_id).toBe(players[0]!.userId);
    expect(foundings[0]!.input).toMatchObject({ user_id: players[0]!.userId, name: 'Log Test 0', starting_cash_cents: 10_000_000 });
    expect(foundings[0]!.outcome).toEqual({ applied: true, result: { company_id: players[0]!.companyId, cash_cents: 10_000_000 } });
  });

  it('an applied request: its company, user, week, validated input and result', async () => {
    const before = await lastSeq();
    const player = players[0]!;
    const trade = await act(database.db, 'marketTrade', {
      companyId: player.companyId,
      actingUserId: player.userId,
      input: { product_id: wheat, quantity: 10, action: 'buy' },
    });
    const [entry, ...more] = await entriesAfter(before);
    expect(more).toEqual([]);
    const week = Number((await database.db.execute<{ w: number }>(sql`select current_week as w from worlds where id = ${worldId}`))[0]!.w);
    expect(entry).toMatchObject({
      seq: before + 1,
      week,
      company_id: player.companyId,
      acting_user_id: player.userId,
      action: 'marketTrade',
      input: { product_id: wheat, quantity: 10, action: 'buy' },
      outcome: { applied: true, result: { ...trade } },
      by_turn: false,
    });
  });

  it('a refused request: logged with its refusal, and nothing it did is kept', async () => {
    const before = await lastSeq();
    const player = players[1]!;
    const cash = async () =>
      Number((await database.db.execute<{ c: number }>(sql`select cash_cents as c from companies where id = ${player.companyId}`))[0]!.c);
    const cashBefore = await cash();
    const refusal = await act(database.db, 'marketTrade', {
      companyId: player.companyId,
      actingUserId: player.userId,
      input: { product_id: wheat, quantity: 50_000_000, action: 'buy' },
    }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(GameError);
    expect(await cash()).toBe(cashBefore);
    const [entry] = await entriesAfter(before);
    expect(entry).toMatchObject({
      action: 'marketTrade',
      company_id: player.companyId,
      outcome: { applied: false, code: (refusal as GameError).code, message: (refusal as GameError).message },
    });
  });

  it("a list (the bots' door): one entry per request in the list's order; a request without a user is the turn's", async () => {
    const before = await lastSeq();
    const requests = players.slice(0, 3).map((player, index) => ({
      companyId: player.companyId,
      actingUserId: index === 1 ? player.userId : null,
      input: { product_id: wheat, quantity: index === 2 ? -5 : 5, action: 'sell' as const },
    }));
    const outcomes = await actMany(database.db, 'marketTrade', requests);
    const entries = await entriesAfter(before);
    expect(entries.map((entry) => [entry.seq, entry.company_id, entry.outcome.applied, entry.by_turn])).toEqual([
      [before + 1, players[0]!.companyId, outcomes[0]!.applied, true],
      [before + 2, players[1]!.companyId, outcomes[1]!.applied, false],
      [before + 3, players[2]!.companyId, false, true],
    ]);
    expect(entries[2]!.outcome.code).toBe('INVALID_INPUT');
  });

  it('concurrent requests: seq is the order they took effect in (each buy paid more than the one before it)', async () => {
    const before = await lastSeq();
    await Promise.all(
      players.map((player) =>
        act(database.db, 'marketTrade', {
          companyId: player.companyId,
          actingUserId: player.userId,
          input: { product_id: wheat, quantity: 400, action: 'buy' },
        }),
      ),
    );
    const entries = await entriesAfter(before);
    expect(entries.map((entry) => entry.seq)).toEqual(players.map((_, index) => before + index + 1));
    expect(new Set(entries.map((entry) => entry.company_id))).toEqual(new Set(players.map((player) => player.companyId)));
    // Each buy walks the week's price curve up: in commit order the unit prices never go down.
    const prices = entries.map((entry) => Number(entry.outcome.result!.unit_price));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(prices[prices.length - 1]!).toBeGreaterThan(prices[0]!);
  });

  it('is never edited', async () => {
    await expect(database.db.execute(sql`update world_actions set action = 'other' where world_id = ${worldId}`)).rejects.toMatchObject({
      cause: { message: expect.stringMatching(/append-only/) as unknown },
    });
  });

  it("a store's purchase waiting for a trade's first flow of the week pays the moved price, as a replay in commit order does", async () => {
    const db = database.db;
    const [cola] = await db.execute<{ id: number }>(sql`select id from products where name = 'Cola'`);
    const [store] = await db.execute<{ id: number; company_id: number }>(sql`
      select b.id, b.company_id from buildings b join companies c on c.id = b.company_id
      where b.type = 'store' and c.world_id = ${worldId} order by b.id limit 1`);
    const colaId = Number(cola!.id);
    const week = sql`(select current_week from worlds where id = ${worldId})`;
    // No flow yet this week: the trade inserts the week's row, and holds it until it commits.
    expect(await db.execute(sql`select 1 from market_activity where world_id = ${worldId} and product_id = ${colaId} and week = ${week}`)).toHaveLength(0);
    const purchase = (executor: typeof db) =>
      act(executor, 'purchaseForBuilding', {
        companyId: Number(store!.company_id),
        actingUserId: null,
        input: { id: Number(store!.id), product_id: colaId, quantity: 50 },
      });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let traded!: () => void;
    const tradeDone = new Promise<void>((resolve) => (traded = resolve));
    const trade = db.transaction(async (tx) => {
      await act(tx, 'marketTrade', {
        companyId: players[3]!.companyId,
        actingUserId: players[3]!.userId,
        input: { product_id: colaId, quantity: 400, action: 'buy' },
      });
      traded();
      await held;
    });
    await tradeDone;
    const waiting = purchase(db);
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await trade;
    const concurrent = await waiting;
    // The same purchase again now, after both: it paid at least as much as the one that waited
    // (the flow only went up). Priced on the week's flow before the trade (the bug), the waiting
    // purchase paid less than the flow the log says it came after.
    const [moved] = await db.execute<{ flow: number }>(sql`
      select units_bought - units_sold as flow from market_activity where world_id = ${worldId} and product_id = ${colaId} and week = ${week}`);
    expect(Number(moved!.flow)).toBe(450);
    const entries = (await entriesAfter(0)).filter(
      (entry) => entry.action === 'purchaseForBuilding' || (entry.action === 'marketTrade' && entry.input.product_id === colaId),
    );
    expect(entries.map((entry) => entry.action)).toEqual(['marketTrade', 'purchaseForBuilding']);
    const tradeUnit = Number(entries[0]!.outcome.result!.unit_price);
    expect(concurrent.unit_price).toBeGreaterThan(tradeUnit);
  });

  it('a refusal is logged after every change it saw and before any it did not: its replay answers the same', async () => {
    const db = database.db;
    const [refuser, buyer] = [players[6]!, players[7]!];
    const research = await researchRefusedFor(refuser);
    const before = await lastSeq();
    let reached!: () => void;
    const atLog = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The research is refused (not enough cash), then held just before it takes the log's lock...
    const refused = act(pausedAt(db, 'pg_advisory_xact_lock', reached, gate), 'purchaseResearch', research).catch((error: unknown) => error);
    await atLog;
    // ...while another company buys its shares: the refuser's cash goes up, and the purchase logs first.
    const bought = await act(db, 'tradeShares', {
      companyId: buyer.companyId,
      actingUserId: buyer.userId,
      input: { company_id: refuser.companyId, shares: 5, action: 'buy' },
    });
    release();
    const refusal = await refused;
    expect(refusal).toBeInstanceOf(GameError);
    const entries = await entriesAfter(before);
    expect(entries.map((entry) => entry.action)).toEqual(['tradeShares', 'purchaseResearch']);
    // In the log's order, the refusal comes after the purchase: it must have seen the cash the
    // purchase brought (a replay, in log order, sees it). The same request now answers the same.
    const again = await act(db, 'purchaseResearch', research).catch((error: unknown) => error);
    expect((again as GameError).message).toContain(cashQuoted(bought.total));
    expect(entries[1]!.outcome).toEqual({ applied: false, code: 'NOT_ENOUGH_CASH', message: (again as GameError).message });
    expect((refusal as GameError).message).toBe((again as GameError).message);
  });

  it('a refusal decided holding the log lock lets it go for a request that holds its row and waits to log: no deadlock, logged after it', async () => {
    const db = database.db;
    const [refuser, buyer] = [players[4]!, players[5]!];
    const research = await researchRefusedFor(refuser);
    const before = await lastSeq();
    let reached!: () => void;
    const holdingLogLock = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The research is refused, then decided again holding the world's log lock: held there...
    const refused = act(pausedAt(db, "set_config('lock_timeout'", reached, gate), 'purchaseResearch', research).catch((error: unknown) => error);
    await holdingLogLock;
    // ...while another company buys its shares: the purchase locks the refuser's row (its cash goes
    // up) and waits for the log lock to log itself and commit.
    const bought = act(db, 'tradeShares', {
      companyId: buyer.companyId,
      actingUserId: buyer.userId,
      input: { company_id: refuser.companyId, shares: 5, action: 'buy' },
    });
    await expect
      .poll(
        async () =>
          Number(
            (await db.execute<{ waiting: number }>(sql`select count(*) as waiting from pg_locks where locktype = 'advisory' and not granted`))[0]!.waiting,
          ),
        {
          timeout: 10_000,
        },
      )
      .toBe(1);
    // The refusal's decision now needs the row the purchase holds: each holds what the other waits
    // for. The refusal gives up its wait, lets the log lock go, and decides again once the purchase
    // committed.
    release();
    const purchase = await bought;
    const refusal = await refused;
    expect(refusal).toBeInstanceOf(GameError);
    const entries = await entriesAfter(before);
    expect(entries.map((entry) => entry.action)).toEqual(['tradeShares', 'purchaseResearch']);
    expect((refusal as GameError).message).toContain(cashQuoted(purchase.total));
  });
});
