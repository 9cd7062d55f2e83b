/**
 * The action log (docs/replay.md): every request through the action door is appended to its world's
 * log in the same transaction, applied or refused, in commit order, and never edited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { GameError } from '@marketcraft/shared';
import { act, actMany, createPlayerCompany } from '../src/game/index.ts';
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
});
