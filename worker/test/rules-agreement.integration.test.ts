/**
 * "True numbers" (docs/economy.md): a building's forecast (GET /api/buildings/{id}) is what the next
 * turn does, given no change in between. This test builds a random world (fast-check, fixed seed):
 * companies with several buildings (farms, mills sharing their company's wheat, stores competing
 * for the same city's shoppers), random staff, equipment, rates, shelf prices and stock, and random
 * subsets of the seeded research; reads every building's forecast; runs ONE real turn; and checks
 * that each company got exactly what its forecasts said: goods made and used, shelf units sold,
 * store revenue, wages, operating costs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { getBuilding } from '@marketcraft/db';
import type { BuildingForecast } from '@marketcraft/shared';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { runTurn } from '../src/turn/index.ts';
import { createCompany, createTurnWorld, insertBuilding, warehouse, type TurnWorld } from './fixtures.ts';

const buildingCase = fc.record({
  kind: fc.constantFrom('farm', 'mill', 'store', 'store'),
  employees: fc.integer({ min: 0, max: 12 }),
  equipmentLevel: fc.integer({ min: 1, max: 5 }),
  productionRate: fc.integer({ min: 10, max: 200 }),
  city: fc.integer({ min: 0, max: 3 }),
  /** Bread on the shelf (stores). */
  stock: fc.integer({ min: 0, max: 600 }),
  /** Shelf price as a multiple of the bread's market price (stores). */
  priceFactor: fc.double({ min: 0.6, max: 3.5, noNaN: true }),
});

const companyCase = (upgradeIds: readonly number[]) =>
  fc.record({
    buildings: fc.array(buildingCase, { minLength: 1, maxLength: 4 }),
    /** Wheat in the warehouse (the company's mills share it, oldest first). */
    wheat: fc.integer({ min: 0, max: 900 }),
    research: fc.subarray([...upgradeIds]),
  });

async function ledgerAmount(db: TestDatabase['db'], companyId: number, week: number, reason: string): Promise<number> {
  const [row] = await db.execute<{ total: number | null }>(sql`
    select sum(amount_cents)::bigint as total from transactions where company_id = ${companyId} and week = ${week} and reason = ${reason}`);
  return Number(row?.total ?? 0);
}

const cents = (dollars: number) => Math.round(dollars * 100);

describe("a building's forecast is what the next turn does", () => {
  let database: TestDatabase;
  let world: TurnWorld;
  beforeAll(async () => {
    database = await createTestDatabase();
    world = await createTurnWorld(database.db, { countries: 2 });
  });
  afterAll(async () => {
    await database.drop();
  });

  it('for 30 random companies with 1-4 buildings each, shared stock, competing stores and random research', { timeout: 180_000 }, async () => {
    const { db } = database;
    const upgrades = await db.execute<{ id: number }>(sql`select id from research_upgrades order by id`);
    expect(upgrades.length).toBe(15);
    const cases = fc.sample(companyCase(upgrades.map((row) => Number(row.id))), { numRuns: 30, seed: 4242 });
    const cityIds = await db.execute<{ id: number; bonus_type: string }>(sql`
      select id, bonus_type from cities where name like ${`%${world.tag}%`} order by id`);
    expect(cityIds).toHaveLength(4);
    const breadCents = 2_625;

    const companies: { companyId: number; buildings: { id: number; kind: string }[]; wheatBefore: number }[] = [];
    for (const [index, testCase] of cases.entries()) {
      const companyId = await createCompany(db, { name: `Forecast ${index} ${world.tag}`, cashCents: 10_000_000 });
      if (testCase.wheat > 0) {
        await db.execute(sql`
          insert into inventory_items (world_id, company_id, product_id, quantity, average_cost_cents) values (1, ${companyId}, ${world.wheat}, ${testCase.wheat}, 1200)`);
      }
      for (const upgradeId of testCase.research) {
        // Set-up only: research rows written directly (prerequisites and costs are the operation's business).
        await db.execute(sql`insert into company_research (world_id, company_id, upgrade_id, researched_week) values (1, ${companyId}, ${upgradeId}, 1)`);
      }
      const buildings: { id: number; kind: string }[] = [];
      for (const building of testCase.buildings) {
        const recipeId = building.kind === 'farm' ? world.farmRecipeId : building.kind === 'mill' ? world.millRecipeId : null;
        const id = await insertBuilding(db, {
          companyId,
          type: building.kind,
          cityId: Number(cityIds[building.city]!.id),
          employees: building.employees,
          equipmentLevel: building.equipmentLevel,
          recipeId,
        });
        await db.execute(sql`update buildings set production_rate = ${building.productionRate} where id = ${id}`);
        if (building.kind === 'store' && building.stock > 0) {
          await db.execute(sql`
            insert into store_products (world_id, building_id, product_id, quantity, retail_price_cents, cost_price_cents)
            values (1, ${id}, ${world.bread}, ${building.stock}, ${Math.max(1, Math.round(breadCents * building.priceFactor))}, ${breadCents})`);
        }
        buildings.push({ id, kind: building.kind });
      }
      companies.push({ companyId, buildings, wheatBefore: testCase.wheat });
    }

    const forecasts = new Map<number, BuildingForecast>();
    for (const company of companies) {
      for (const building of company.buildings) forecasts.set(building.id, (await getBuilding(db, company.companyId, building.id)).forecast);
    }

    const result = await runTurn(db);
    expect(result.status).toBe('advanced');
    if (result.status !== 'advanced') return;

    for (const [index, company] of companies.entries()) {
      const context = `company ${index} ${JSON.stringify(cases[index])}`;
      const own = company.buildings.map((building) => ({ ...building, forecast: forecasts.get(building.id)! }));
      const made = (kind: string) => own.filter((building) => building.kind === kind).reduce((sum, building) => sum + building.forecast.output_units, 0);
      const wheatUsed = own.flatMap((building) => building.forecast.inputs).reduce((sum, input) => sum + input.used, 0);
      expect(await warehouse(db, company.companyId, world.wheat), context).toBe(company.wheatBefore + made('farm') - wheatUsed);
      expect(await warehouse(db, company.companyId, world.flour), context).toBe(made('mill'));
      for (const store of own.filter((building) => building.kind === 'store')) {
        const [shelf] = await db.execute<{ units_sold_last_turn: number }>(sql`
          select units_sold_last_turn from store_products where building_id = ${store.id}`);
        expect(Number(shelf?.units_sold_last_turn ?? 0), context).toBe(store.forecast.sales.reduce((sum, sale) => sum + sale.units, 0));
      }
      const revenue = own.flatMap((building) => building.forecast.sales).reduce((sum, sale) => sum + cents(sale.revenue), 0);
      expect(await ledgerAmount(db, company.companyId, result.week, 'store_sales'), context).toBe(revenue);
      expect(await ledgerAmount(db, company.companyId, result.week, 'wages'), context).toBe(
        -own.reduce((sum, building) => sum + cents(building.forecast.wages.value), 0),
      );
      expect(await ledgerAmount(db, company.companyId, result.week, 'operating_costs'), context).toBe(
        -own.reduce((sum, building) => sum + cents(building.forecast.operating_cost.value), 0),
      );
    }

    // The world covers the interesting branches: mills short of wheat, stores selling, companies with competing stores.
    const all = [...forecasts.values()];
    expect(all.some((forecast) => forecast.limited_by !== null)).toBe(true);
    expect(all.some((forecast) => forecast.sales.some((sale) => sale.units > 0))).toBe(true);
    expect(cases.some((company) => company.buildings.filter((building) => building.kind === 'store').length > 1)).toBe(true);
  });
});
