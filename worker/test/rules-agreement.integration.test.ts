/**
 * The turn computes its rules in SQL for every building at once; shared/src/rules holds the
 * reference implementations. This test builds many random set-ups (fast-check, fixed seed), each
 * company with a random subset of the seeded research upgrades, runs ONE real turn, and checks
 * that every company got exactly what the reference functions say: units produced (city and
 * research bonus), inputs consumed (material reduction, limited by stock), units sold and revenue
 * (store and price bonus), wages, operating costs (cost reduction).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import {
  BUILDING_TYPES,
  WAGE_PER_EMPLOYEE_WEEKLY_CENTS,
  buildingEfficiency,
  cappedReduction,
  dollarsToCents,
  effectsForBuildingType,
  inputNeeded,
  operatingCostCents,
  outputFromInput,
  plannedOutput,
  researchOutputBonusPercent,
  storeRevenueCents,
  storeUnitsSold,
  sumResearchEffects,
  type ResearchEffectValue,
} from '@marketcraft/shared';
import { runTurn } from '../src/turn/index.ts';
import { createCompany, createTurnWorld, insertBuilding, warehouse, type TurnWorld } from './fixtures.ts';

interface SeededUpgrade {
  id: number;
  building_type: string | null;
  effects: Record<string, ResearchEffectValue>;
}

const setUp = (upgrades: readonly SeededUpgrade[]) => fc.record({
  kind: fc.constantFrom('farm', 'mill', 'store'),
  employees: fc.integer({ min: 0, max: 12 }),
  equipmentLevel: fc.integer({ min: 1, max: 5 }),
  productionRate: fc.integer({ min: 10, max: 200 }),
  inFarmCity: fc.boolean(),
  /** Wheat in the warehouse (mills) or bread on the shelf (stores). */
  stock: fc.integer({ min: 0, max: 400 }),
  /** Retail price as a multiple of the market price (stores). */
  priceFactor: fc.double({ min: 0.3, max: 3.5, noNaN: true }),
  research: fc.subarray([...upgrades]),
});

async function ledgerAmount(db: TestDatabase['db'], companyId: number, week: number, reason: string): Promise<number> {
  const [row] = await db.execute<{ total: number | null }>(sql`
    select sum(amount_cents)::bigint as total from transactions where company_id = ${companyId} and week = ${week} and reason = ${reason}`);
  return Number(row?.total ?? 0);
}

describe('the turn agrees with the reference rules', () => {
  let database: TestDatabase;
  let world: TurnWorld;
  beforeAll(async () => {
    database = await createTestDatabase();
    world = await createTurnWorld(database.db);
  });
  afterAll(async () => {
    await database.drop();
  });

  it('for 60 random buildings with random research: output, inputs, sales, revenue, wages and operating costs', { timeout: 120_000 }, async () => {
    const { db } = database;
    const upgrades = await db.execute<SeededUpgrade & Record<string, unknown>>(sql`select id, building_type, effects from research_upgrades order by id`);
    expect(upgrades.length).toBe(15);
    const cases = fc.sample(setUp(upgrades), { numRuns: 60, seed: 4242 });
    const breadMarketCents = 2_625;
    const planned: { companyId: number; check: (week: number) => Promise<void> }[] = [];

    for (const [index, testCase] of cases.entries()) {
      // One company per building, so no two buildings share a warehouse.
      const companyId = await createCompany(db, { name: `Agreement ${index} ${world.tag}`, cashCents: 10_000_000 });
      const cityId = testCase.inFarmCity ? world.farmCityId : world.retailCityId;
      const recipeId = testCase.kind === 'farm' ? world.farmRecipeId : testCase.kind === 'mill' ? world.millRecipeId : null;
      const buildingId = await insertBuilding(db, { companyId, type: testCase.kind, cityId, employees: testCase.employees, equipmentLevel: testCase.equipmentLevel, recipeId });
      await db.execute(sql`update buildings set production_rate = ${testCase.productionRate} where id = ${buildingId}`);
      // Set-up only: research rows written directly (prerequisites and costs are the operation's business).
      for (const upgrade of testCase.research) {
        await db.execute(sql`insert into company_research (company_id, upgrade_id, researched_week) values (${companyId}, ${upgrade.id}, 1)`);
      }
      const research = sumResearchEffects(testCase.research.map((upgrade) => ({ buildingType: upgrade.building_type, effects: upgrade.effects })));
      const effects = effectsForBuildingType(research, testCase.kind);
      const researchBonus = researchOutputBonusPercent(research, testCase.kind);
      const efficiency = buildingEfficiency(testCase.employees, testCase.equipmentLevel);
      const wages = 0 - testCase.employees * WAGE_PER_EMPLOYEE_WEEKLY_CENTS;
      const operating = 0 - operatingCostCents(dollarsToCents(BUILDING_TYPES[testCase.kind].weeklyOperatingCost), effects.cost_reduction ?? 0);

      let expectGoods: () => Promise<void>;
      let expectedRevenue = 0;
      if (testCase.kind === 'farm') {
        // The farm city's agricultural bonus (15%) fits farms; the retail city's does not.
        const wheat = plannedOutput(100, testCase.productionRate, efficiency, (testCase.inFarmCity ? 15 : 0) + researchBonus);
        expectGoods = async () => expect(await warehouse(db, companyId, world.wheat)).toBe(wheat);
      } else if (testCase.kind === 'mill') {
        await db.execute(sql`
          insert into inventory_items (company_id, product_id, quantity, average_cost_cents) values (${companyId}, ${world.wheat}, ${testCase.stock}, 1200)`);
        // Mill: 150 wheat -> 80 flour; no city bonus fits a mill here. Output limited by the wheat held.
        const reduction = cappedReduction(effects.material_reduction ?? 0);
        const flour = Math.min(plannedOutput(80, testCase.productionRate, efficiency, researchBonus), outputFromInput(testCase.stock, 150, 80, reduction));
        const wheatLeft = testCase.stock - Math.min(testCase.stock, inputNeeded(flour, 150, 80, reduction));
        expectGoods = async () => {
          expect(await warehouse(db, companyId, world.flour)).toBe(flour);
          expect(await warehouse(db, companyId, world.wheat)).toBe(wheatLeft);
        };
      } else {
        const retailCents = Math.max(1, Math.round(breadMarketCents * testCase.priceFactor));
        await db.execute(sql`
          insert into store_products (building_id, product_id, quantity, retail_price_cents, cost_price_cents)
          values (${buildingId}, ${world.bread}, ${testCase.stock}, ${retailCents}, ${breadMarketCents})`);
        // Every store sees the start-of-turn demand (60); the retail city's 10% bonus fits stores.
        const units = storeUnitsSold({
          stock: testCase.stock,
          baseUnits: BUILDING_TYPES.store.baseCapacity,
          demandLevel: 60,
          retailCents,
          marketCents: breadMarketCents,
          bonusPercent: (testCase.inFarmCity ? 0 : 10) + (effects.store_bonus ?? 0),
        });
        expectedRevenue = storeRevenueCents(units, retailCents, effects.price_bonus ?? 0);
        expectGoods = async () => {
          const [shelf] = await db.execute<{ quantity: number; units_sold_last_turn: number }>(sql`
            select quantity, units_sold_last_turn from store_products where building_id = ${buildingId}`);
          expect({ sold: Number(shelf?.units_sold_last_turn), left: Number(shelf?.quantity) }).toEqual({ sold: units, left: testCase.stock - units });
        };
      }
      planned.push({
        companyId,
        check: async (week) => {
          await expectGoods();
          expect(await ledgerAmount(db, companyId, week, 'wages')).toBe(wages);
          expect(await ledgerAmount(db, companyId, week, 'operating_costs')).toBe(operating);
          expect(await ledgerAmount(db, companyId, week, 'store_sales')).toBe(expectedRevenue);
        },
      });
    }

    const result = await runTurn(db);
    expect(result.status).toBe('advanced');
    if (result.status !== 'advanced') return;
    for (const [index, { check }] of planned.entries()) {
      try {
        await check(result.week);
      } catch (error) {
        throw new Error(`case ${index} ${JSON.stringify(cases[index])}: ${(error as Error).message}`);
      }
    }
    // The cases cover every branch: output limited by stock, nothing sold above 3x the market price, sales limited by stock.
    expect(cases.some((c) => c.kind === 'mill' && c.stock < 100 && c.research.some((upgrade) => 'material_reduction' in upgrade.effects))).toBe(true);
    expect(cases.some((c) => c.kind === 'farm' && c.research.some((upgrade) => upgrade.building_type === 'farm'))).toBe(true);
    expect(cases.some((c) => c.kind === 'store' && c.research.some((upgrade) => 'price_bonus' in upgrade.effects))).toBe(true);
    expect(cases.some((c) => c.kind === 'store' && c.priceFactor > 3)).toBe(true);
    expect(cases.some((c) => c.kind === 'store' && c.priceFactor < 1 && c.stock < 100)).toBe(true);
  });
});
