/**
 * Replay's door (`actOutcome`, docs/replay.md "How a replay spends its time"): a week's requests in
 * one transaction, a request the log keeps as refused with a savepoint only before its first write
 * (`withWriteGuard`), and an action inside a transaction without a savepoint of its own
 * (`inTransaction`). What a replay must keep: a refusal leaves nothing it wrote, and nothing an
 * earlier request of the week wrote is undone with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { act, actOutcome, createPlayerCompany, inOneRoundTrip } from '../src/game/index.ts';
import { connectDatabase, mayWrite, withWriteGuard, type DatabaseConnection } from '../src/client.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing/freshDatabase.ts';

describe('which statements may write (the savepoint comes before them)', () => {
  it('reads, row locks included, are reads', () => {
    expect(mayWrite('select id, cash_cents from companies where id in ($1::int) order by id for update')).toBe(false);
    expect(mayWrite('/* bots */ select 1 from buildings for no key update of b')).toBe(false);
    expect(mayWrite('with locked as (select id from companies where id = $1 for update) select * from locked')).toBe(false);
    expect(mayWrite('select updated_at, last_update from worlds')).toBe(false);
  });

  it('anything that may change a row, a sequence or a setting is a write', () => {
    expect(mayWrite('insert into market_activity (world_id) values ($1)')).toBe(true);
    expect(mayWrite('  update buildings set employees = 3')).toBe(true);
    expect(mayWrite('with change as (select 1), updated as (update companies set cash_cents = 0 returning id) select * from updated')).toBe(true);
    expect(mayWrite("select set_config('lock_timeout', '5ms', true)")).toBe(true);
    expect(mayWrite("select nextval(pg_get_serial_sequence('buildings', 'id'))")).toBe(true);
    expect(mayWrite("select case when false then refuse_statement('no') end")).toBe(true);
    expect(mayWrite('create temporary table t (id int)')).toBe(true);
    expect(mayWrite('delete from store_products where building_id = $1')).toBe(true);
  });
});

describe("replay's door: a week's requests in one transaction", () => {
  let database: TestDatabase;
  /** A second connection to the same database that keeps the text of every statement it sends. */
  let watched: DatabaseConnection;
  let sent: string[] = [];
  let worldId: number;
  let wheat: number;
  let cityId: number;
  let player: { companyId: number; userId: number };
  let store: number;

  const marketRows = async () =>
    Number(
      (
        await database.db.execute<{ n: number }>(sql`
          select count(*)::int as n from market_activity a join worlds w on w.id = a.world_id
          where a.world_id = ${worldId} and a.week = w.current_week and a.product_id = ${wheat}`)
      )[0]!.n,
    );
  const buildingCount = async () =>
    Number((await database.db.execute<{ n: number }>(sql`select count(*)::int as n from buildings where company_id = ${player.companyId}`))[0]!.n);
  const request = <I>(input: I) => ({ companyId: player.companyId, actingUserId: player.userId, input });

  beforeAll(async () => {
    database = await createTestDatabase();
    watched = connectDatabase(database.url, { max: 2, onStatement: (query) => sent.push(query) });
    const db = database.db;
    worldId = Number((await db.execute<{ id: number }>(sql`select id from worlds order by id limit 1`))[0]!.id);
    wheat = Number((await db.execute<{ id: number }>(sql`select id from products where name = 'Wheat'`))[0]!.id);
    cityId = Number((await db.execute<{ id: number }>(sql`select id from cities order by id limit 1`))[0]!.id);
    const [user] = await db.execute<{ id: number }>(sql`insert into users (email, password_hash) values ('door@example.com', 'x') returning id`);
    const userId = Number(user!.id);
    const company = await db.transaction((tx) => createPlayerCompany(tx, { worldId, userId, email: 'door@example.com', mode: 'flat', name: 'Door Test' }));
    player = { companyId: company.id, userId };
    store = (await act(db, 'buildBuilding', request({ type: 'store' as const, city_id: cityId }))).id;
    // $1 left: the purchases below are refused for cash.
    await db.execute(sql`
      update companies set starting_cash_cents = starting_cash_cents - (cash_cents - 100), cash_cents = 100 where id = ${player.companyId}`);
  });
  afterAll(async () => {
    await watched.close();
    await database.drop();
  });

  it('a request refused on what it read sends no savepoint and no rollback, and answers as the API does', async () => {
    const apiRefusal = await act(database.db, 'buildBuilding', request({ type: 'farm' as const, city_id: cityId })).catch((error: unknown) => error);
    const before = await buildingCount();
    sent = [];
    const { outcome } = await watched.db.transaction((tx) =>
      actOutcome(tx, 'buildBuilding', request({ type: 'farm' as const, city_id: cityId }), 'beforeWrites'),
    );
    expect(outcome).toEqual({ applied: false, code: 'NOT_ENOUGH_CASH', message: (apiRefusal as Error).message });
    expect(sent.filter((query) => /savepoint|rollback to/i.test(query))).toEqual([]);
    expect(await buildingCount()).toBe(before);
  });

  it("a request refused after it wrote leaves nothing it wrote, and keeps what the week's earlier requests wrote", async () => {
    // The week's first purchase of wheat: walking the order inserts the week's flow row for it
    // before the cash refuses the purchase.
    expect(await marketRows()).toBe(0);
    await database.db.execute(
      sql`update companies set cash_cents = cash_cents + 10000000, starting_cash_cents = starting_cash_cents + 10000000 where id = ${player.companyId}`,
    );
    const buildingsBefore = await buildingCount();
    sent = [];
    const outcomes = await watched.db.transaction(async (tx) => {
      // The log keeps this one as applied: no savepoint.
      const built = await actOutcome(tx, 'buildBuilding', request({ type: 'farm' as const, city_id: cityId }), 'none');
      // Too much to pay for: $100,000 of cash left after the farm.
      await tx.execute(
        sql`update companies set cash_cents = 100, starting_cash_cents = starting_cash_cents - (cash_cents - 100) where id = ${player.companyId}`,
      );
      const refused = await actOutcome(tx, 'purchaseForBuilding', request({ id: store, product_id: wheat, quantity: 50 }), 'beforeWrites');
      // The transaction goes on: the week's next statements run.
      await tx.execute(sql`select 1`);
      return [built.outcome, refused.outcome];
    });
    expect(outcomes[0]).toMatchObject({ applied: true });
    expect(outcomes[1]).toMatchObject({ applied: false, code: 'NOT_ENOUGH_CASH' });
    expect(sent.filter((query) => /^savepoint request_writes_\d+$/.test(query))).toHaveLength(1);
    expect(sent.filter((query) => /^rollback to savepoint request_writes_\d+$/.test(query))).toHaveLength(1);
    expect(await marketRows()).toBe(0);
    expect(await buildingCount()).toBe(buildingsBefore + 1);
  });

  it('a one-statement trade refused inside the week leaves the transaction usable and undoes nothing before it', async () => {
    const buildingsBefore = await buildingCount();
    await database.db.execute(
      sql`update companies set cash_cents = cash_cents + 10000000, starting_cash_cents = starting_cash_cents + 10000000 where id = ${player.companyId}`,
    );
    const apiRefusal = await act(database.db, 'marketTrade', request({ product_id: wheat, quantity: 5, action: 'sell' as const })).catch(
      (error: unknown) => error,
    );
    let saleStatements: string[] = [];
    const outcomes = await watched.db.transaction(async (tx) => {
      const built = await actOutcome(tx, 'buildBuilding', request({ type: 'farm' as const, city_id: cityId }), 'none');
      // No wheat to sell: the statement refuses itself (refuse_statement) in its own savepoint, which
      // undoes it: no guard's savepoint around it.
      sent = [];
      const sale = await actOutcome(tx, 'marketTrade', request({ product_id: wheat, quantity: 5, action: 'sell' as const }), 'beforeWrites');
      saleStatements = [...sent];
      const bought = await actOutcome(tx, 'marketTrade', request({ product_id: wheat, quantity: 5, action: 'buy' as const }), 'none');
      return [built.outcome, sale.outcome, bought.outcome];
    });
    expect(outcomes.map((outcome) => outcome.applied)).toEqual([true, false, true]);
    expect(outcomes[1]).toEqual({ applied: false, code: 'NOT_ENOUGH_STOCK', message: (apiRefusal as Error).message });
    expect(saleStatements.filter((query) => /savepoint|rollback/i.test(query))).toEqual([
      expect.stringMatching(/^savepoint "s\d+"$/),
      expect.stringMatching(/^rollback to "s\d+"$/),
    ]);
    expect(await buildingCount()).toBe(buildingsBefore + 1);
    const [held] = await database.db.execute<{ quantity: number }>(sql`
      select quantity from inventory_items where company_id = ${player.companyId} and product_id = ${wheat}`);
    expect(Number(held?.quantity)).toBe(5);
  });

  it('the guard: writes after its savepoint are undone; writes a committed nested savepoint kept before it are reported, not undone', async () => {
    await database.db.execute(sql`create table guard_probe (label text)`);
    const labels = async () => (await database.db.execute<{ label: string }>(sql`select label from guard_probe order by label`)).map((row) => row.label);
    const guarded = await watched.db.transaction(async (tx) => {
      await tx.execute(sql`insert into guard_probe values ('before')`);
      const direct = await withWriteGuard(tx, () => tx.execute(sql`insert into guard_probe values ('direct')`));
      await direct.undo();
      const nested = await withWriteGuard(tx, () => tx.transaction((savepoint) => savepoint.execute(sql`insert into guard_probe values ('nested')`)));
      const failed = await withWriteGuard(tx, () =>
        tx.transaction((savepoint) => savepoint.execute(sql`insert into guard_probe values (refuse_statement('no')::text)`)).catch(() => 'refused'),
      );
      return { nested: nested.wroteUnguarded, failed: failed.wroteUnguarded };
    });
    expect(guarded).toEqual({ nested: true, failed: false });
    expect(await labels()).toEqual(['before', 'nested']);
  });

  it('statements sent in one round trip run in order, and a failure is the first failing one (not the "transaction is aborted" of those after it)', async () => {
    sent = [];
    const [first, second] = await watched.db.transaction((tx) =>
      inOneRoundTrip(tx.execute<{ n: number }>(sql`select 1 as n`), tx.execute<{ n: number }>(sql`select 2 as n`)),
    );
    expect([first[0]!.n, second[0]!.n]).toEqual([1, 2]);
    expect(sent.filter((query) => query.startsWith('select'))).toEqual(['select 1 as n', 'select 2 as n']);
    const failure = await watched.db
      .transaction((tx) => inOneRoundTrip(tx.execute(sql`select refuse_statement('the first fails')`), tx.execute(sql`select 2 as n`)))
      .catch((error: unknown) => error);
    expect(String((failure as Error).cause ?? failure)).toContain('the first fails');
  });
});
