/**
 * The turn's pipelined writes (worker/src/turn/pipeline.ts) and its working tables
 * (worker/src/turn/turnTables.ts) keep a turn all or nothing: a write whose answer the turn does not
 * wait for, failing in the middle of the turn, still fails the turn and leaves nothing of it; the
 * working tables a failed turn created or filled on a connection are gone or empty for the next turn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { act, connectDatabase } from '@marketcraft/db';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { runTurn } from '../src/turn/index.ts';
import { createCompany, createTurnWorld, economySnapshot, worldWeek, type TurnWorld } from './fixtures.ts';

describe('a turn with pipelined writes is all or nothing', () => {
  let database: TestDatabase;
  let world: TurnWorld;
  let maker: number;
  beforeAll(async () => {
    database = await createTestDatabase();
    world = await createTurnWorld(database.db);
    maker = await createCompany(database.db, { name: `Maker ${world.tag}`, cashCents: 60_000_000 });
    const farm = await act(database.db, 'buildBuilding', { companyId: maker, actingUserId: null, input: { type: 'farm', city_id: world.farmCityId } });
    await act(database.db, 'selectRecipe', { companyId: maker, actingUserId: null, input: { id: farm.id, recipe_id: world.farmRecipeId } });
    await act(database.db, 'hireEmployees', { companyId: maker, actingUserId: null, input: { id: farm.id, count: 4 } });
    const seller = await createCompany(database.db, { name: `Seller ${world.tag}`, cashCents: 60_000_000 });
    const store = await act(database.db, 'buildBuilding', { companyId: seller, actingUserId: null, input: { type: 'store', city_id: world.retailCityId } });
    await act(database.db, 'purchaseForBuilding', { companyId: seller, actingUserId: null, input: { id: store.id, product_id: world.bread, quantity: 200 } });
    await act(database.db, 'transferToStore', {
      companyId: seller,
      actingUserId: null,
      input: { id: store.id, product_id: world.bread, quantity: 200, retail_price: 40 },
    });
  });
  afterAll(async () => {
    await database.drop();
  });

  it('a write that fails after production and sales wrote fails the turn at the next read and leaves the world as it was', async () => {
    // One connection: the failed turns and the good one share its working tables.
    const connection = connectDatabase(database.url, { max: 1 });
    try {
      const week = await worldWeek(connection.db);
      const before = await economySnapshot(connection.db);
      for (const phase of ['production', 'sales', 'markets'] as const) {
        let sentWithoutWaiting = false;
        await expect(
          runTurn(connection.db, {
            hooks: {
              afterPhase: async (done, ctx) => {
                if (done !== phase) return;
                // A ledger row without a company: refused by PostgreSQL, but the turn does not wait for the answer.
                await ctx.tx.execute(sql`insert into turn_cash (company_id, type, reason, amount_cents, description) values (null, 'other', 'other', 1, 'x')`);
                sentWithoutWaiting = true;
              },
            },
          }),
          // The failure is the write's own (drizzle names the statement), not a later statement's
          // "current transaction is aborted".
        ).rejects.toThrow(/^Failed query: insert into turn_cash \(company_id, type, reason, amount_cents, description\) values \(null/);
        expect(sentWithoutWaiting).toBe(true);
        // Nothing of the turn: the week, cash, goods, shelves, prices, ledger and history are as before.
        expect(await economySnapshot(connection.db)).toEqual(before);
        expect(await connection.db.execute(sql`select week from turns where world_id = 1`)).toHaveLength(0);
      }
      // The next turn on the same connection starts from empty working tables and advances once.
      const advanced = await runTurn(connection.db);
      expect(advanced.status).toBe('advanced');
      expect(await worldWeek(connection.db)).toBe(week + 1);
      const [counted] = await connection.db.execute<{ rows: number }>(sql`
        select count(*)::int as rows from transactions where company_id = ${maker} and week = ${week} and type = 'production'`);
      expect(Number(counted?.rows)).toBe(1);
    } finally {
      await connection.close();
    }
  });

  it("a small world's turn keeps its working tables without indexes; a large world's indexes its company tables for the turn and drops them before it commits", async () => {
    const connection = connectDatabase(database.url, { max: 1 });
    const keysDuring = async (world: 'small' | 'large') => {
      let seen: string[] = [];
      const turned = await runTurn(connection.db, {
        hooks: {
          afterPhase: async (phase, ctx) => {
            // A large world's tax statement turns nested loops off for itself only (taxes.ts): the later phases plan with them.
            if (phase === 'taxes') {
              const [setting] = await ctx.tx.execute<{ nestloop: string }>(sql`select current_setting('enable_nestloop') as nestloop`);
              expect(setting?.nestloop).toBe('on');
            }
            if (phase !== 'stocks') return;
            expect(ctx.largeWorld).toBe(world === 'large');
            const indexes = await ctx.tx.execute<{ name: string }>(sql`
              select relname as name from pg_class where relnamespace = pg_my_temp_schema() and relkind = 'i' and relname like 'turn%key' order by relname`);
            seen = indexes.map((row) => row.name);
          },
        },
      });
      expect(turned.status).toBe('advanced');
      return seen;
    };
    const keysAfter = async () =>
      (await connection.db.execute(sql`select 1 from pg_class where relnamespace = pg_my_temp_schema() and relkind = 'i' and relname like 'turn%key'`)).length;
    try {
      // Emptying an indexed table at commit would make every statement that reads it plan again.
      expect(await keysDuring('small')).toEqual([]);
      expect(await keysAfter()).toBe(0);
      await connection.db.execute(sql`
        insert into companies (world_id, name, cash_cents, starting_cash_cents)
        select 1, 'Large world company ' || g, 1000000, 1000000 from generate_series(1, 200) g`);
      // With the key indexes the planner knows a company is one row of each (at 10,000 companies it plans by them).
      expect(await keysDuring('large')).toEqual(['turn_assets_key', 'turn_companies_key', 'turn_equity_key', 'turn_profit_key', 'turn_valuation_key']);
      expect(await keysAfter()).toBe(0);
      expect(await keysDuring('large')).toHaveLength(5);
      await connection.db.execute(sql`update companies set status = 'bankrupt' where name like 'Large world company %'`);
      expect(await keysDuring('small')).toEqual([]);
      expect(await keysAfter()).toBe(0);
    } finally {
      await connection.close();
    }
  });
});
