/**
 * Rollback and replay: an injected failure in a late phase leaves everything as it was; the same
 * turns on two copies of one database state (CREATE DATABASE ... TEMPLATE) give identical results.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import postgres from 'postgres';
import { inject } from 'vitest';
import { sql } from 'drizzle-orm';
import { connectDatabase, act } from '@marketcraft/db';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { replaceDatabase } from '@marketcraft/db/testing/urls.ts';
import { runTurn } from '../src/turn/index.ts';
import { createCompany, createTurnWorld, economySnapshot, worldWeek, type TurnWorld } from './fixtures.ts';

async function populate(db: TestDatabase['db'], world: TurnWorld) {
  const a = await createCompany(db, { name: `Alpha ${world.tag}`, cashCents: 60_000_000 });
  const b = await createCompany(db, { name: `Beta ${world.tag}`, cashCents: 60_000_000 });
  const farm = await act(db, 'buildBuilding', { companyId: a, actingUserId: null, input: { type: 'farm', city_id: world.farmCityId } });
  await act(db, 'selectRecipe', { companyId: a, actingUserId: null, input: { id: farm.id, recipe_id: world.farmRecipeId } });
  await act(db, 'hireEmployees', { companyId: a, actingUserId: null, input: { id: farm.id, count: 4 } });
  const mill = await act(db, 'buildBuilding', { companyId: a, actingUserId: null, input: { type: 'mill', city_id: world.farmCityId } });
  await act(db, 'selectRecipe', { companyId: a, actingUserId: null, input: { id: mill.id, recipe_id: world.millRecipeId } });
  const store = await act(db, 'buildBuilding', { companyId: b, actingUserId: null, input: { type: 'store', city_id: world.retailCityId } });
  await act(db, 'purchaseForBuilding', { companyId: b, actingUserId: null, input: { id: store.id, product_id: world.bread, quantity: 400 } });
  await act(db, 'transferToStore', {
    companyId: b,
    actingUserId: null,
    input: { id: store.id, product_id: world.bread, quantity: 400, retail_price: 4_000 / 100 },
  });
  await act(db, 'marketTrade', { companyId: b, actingUserId: null, input: { product_id: world.wheat, quantity: 700, action: 'buy' } });
  await act(db, 'tradeShares', { companyId: b, actingUserId: null, input: { company_id: a, shares: 20, action: 'buy' } });
  for (const countryId of world.countryIds)
    await act(db, 'investInPolitics', { companyId: a, actingUserId: null, input: { country_id: countryId, amount: 20_000 } });
  return { a, b };
}

describe('rollback and replay', () => {
  let database: TestDatabase;
  let world: TurnWorld;
  beforeAll(async () => {
    database = await createTestDatabase();
    world = await createTurnWorld(database.db, { countries: 5 });
    await populate(database.db, world);
  });
  afterAll(async () => {
    await database.drop();
  });

  it('an error in a late phase rolls the whole turn back: world, cash, inventory, ledger unchanged', async () => {
    const before = await economySnapshot(database.db);
    for (const phase of ['politics', 'bankruptcy', 'finish'] as const) {
      await expect(
        runTurn(database.db, {
          hooks: {
            afterPhase: (done) => {
              if (done === phase) throw new Error(`injected failure after ${phase}`);
            },
          },
        }),
      ).rejects.toThrow(`injected failure after ${phase}`);
      expect(await economySnapshot(database.db)).toEqual(before);
      expect(await database.db.execute(sql`select week from turns`)).toHaveLength(0);
    }
  });

  it('the same turns on a copy of the same state give the same cash, goods, prices and events', { timeout: 120_000 }, async () => {
    const serverUrl = inject('testServerUrl');
    const copyName = `${inject('testRunId')}_replay_${world.tag}`;
    await database.close();
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${copyName}" template "${database.name}"`);
    const original = connectDatabase(database.url, { max: 4 });
    const copy = connectDatabase(replaceDatabase(serverUrl, copyName), { max: 4 });
    try {
      const start = await worldWeek(original.db);
      const clock = Date.UTC(2026, 0, 1, 0, 30);
      // 13 turns: crosses the week-12 election and gives the 5 countries 65 event rolls.
      for (let turn = 0; turn < 13; turn += 1) {
        const now = new Date(clock + turn * 12 * 3_600_000);
        const [left, right] = await Promise.all([runTurn(original.db, { now }), runTurn(copy.db, { now })]);
        expect(left.status).toBe('advanced');
        expect(right.status).toBe('advanced');
      }
      const [left, right] = await Promise.all([economySnapshot(original.db), economySnapshot(copy.db)]);
      expect(left).toEqual(right);
      expect(await worldWeek(original.db)).toBe(start + 13);
      expect(left.events.length).toBeGreaterThan(0);
      expect(left.events.some((event) => (event as { event_type: string }).event_type === 'election')).toBe(true);
    } finally {
      await original.close();
      await copy.close();
      await admin.unsafe(`drop database if exists "${copyName}" with (force)`);
      await admin.end({ timeout: 5 });
    }
  });
});
