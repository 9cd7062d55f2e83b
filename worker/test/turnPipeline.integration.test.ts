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
});
