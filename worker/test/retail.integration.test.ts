/**
 * Store sales share each city's demand (docs/economy.md, "Store sales"): checked on the query the
 * turn and the forecasts run (storeSalesSql), against expectations computed here from the shared
 * rules, one market (a fresh product in one city) per case.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { storeSalesSql } from '@marketcraft/db';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { baseDemandRule, cityDemandRule, referencePriceRule, spilloverShareRule, storeCapacityRule, storeWeightRule } from '@marketcraft/shared';
import { createCompany, createTurnWorld, insertBuilding, type TurnWorld } from './fixtures.ts';

const PRICE = 2_000;
const REFERENCE = referencePriceRule.evaluate({ marketPriceCents: PRICE, cityFactorBp: 10_000 });
/** The fixture's retail city: 500,000 people, demand 60, retail bonus 10%. */
const BASE_DEMAND = baseDemandRule.evaluate({ population: 500_000, demandLevel: 60, baseReferenceCents: REFERENCE });

describe("store sales share a city's demand", () => {
  let database: TestDatabase;
  let world: TurnWorld;
  let caseNumber = 0;
  beforeAll(async () => {
    database = await createTestDatabase();
    world = await createTurnWorld(database.db, { countries: 1 });
  });
  afterAll(async () => {
    await database.drop();
  });

  /** A fresh product sold only in the retail city, and stores offering it: [stock, price, employees]. */
  async function market(offers: { stock: number; price: number; employees?: number }[]) {
    const { db } = database;
    caseNumber += 1;
    const [product] = await db.execute<{ id: number }>(sql`
      insert into products (name, category, subcategory, base_price_cents, depth_units)
      values (${`Retail case ${caseNumber} ${world.tag}`}, 'Food Products', 'Test', ${PRICE}, 4000) returning id`);
    await db.execute(sql`insert into world_products (world_id, product_id, current_price_cents) values (1, ${product!.id}, ${PRICE})`);
    await db.execute(sql`
      insert into city_market_data (world_id, city_id, product_id, demand_level, base_demand_level, price_factor_bp)
      values (1, ${world.retailCityId}, ${product!.id}, 60, 60, 10000)`);
    const storeIds: number[] = [];
    for (const [index, offer] of offers.entries()) {
      const companyId = await createCompany(db, { name: `Retailer ${caseNumber}.${index} ${world.tag}`, cashCents: 1_000_000 });
      const storeId = await insertBuilding(db, { companyId, type: 'store', cityId: world.retailCityId, employees: offer.employees ?? 9 });
      await db.execute(sql`
        insert into store_products (world_id, building_id, product_id, quantity, retail_price_cents, cost_price_cents)
        values (1, ${storeId}, ${product!.id}, ${offer.stock}, ${offer.price}, ${PRICE})`);
      storeIds.push(storeId);
    }
    const rows = await db.execute<{ building_id: number; units: number; demand: number }>(sql`
      select building_id, units, demand from ${storeSalesSql({
        worldId: 1,
        companies: sql`(select id as company_id from companies where status = 'active')`,
        research: sql`(select null::int as company_id, null::text as building_type, 0 as production_bonus, 0 as chain_bonus,
                               0 as material_reduction, 0 as store_bonus, 0 as price_bonus, 0 as cost_reduction where false)`,
        cityIds: sql`(${world.retailCityId})`,
      })} s where s.product_id = ${product!.id}`);
    const units = storeIds.map((id) => Number(rows.find((row) => Number(row.building_id) === id)?.units ?? 0));
    return { units, total: units.reduce((sum, value) => sum + value, 0), demand: Number(rows[0]?.demand ?? 0) };
  }

  it("one store at the reference price sells the city's demand at that price", async () => {
    const { units, demand } = await market([{ stock: 10_000, price: REFERENCE }]);
    expect(demand).toBe(BASE_DEMAND);
    expect(units).toEqual([BASE_DEMAND]);
  });

  it('two stores at the same price share one demand; ten stores do not sell ten times as much', async () => {
    const two = await market([
      { stock: 10_000, price: REFERENCE },
      { stock: 10_000, price: REFERENCE },
    ]);
    expect(two.demand).toBe(BASE_DEMAND);
    expect(two.units).toEqual([Math.floor(BASE_DEMAND / 2), Math.floor(BASE_DEMAND / 2)]);
    const ten = await market(Array.from({ length: 10 }, () => ({ stock: 10_000, price: REFERENCE })));
    expect(ten.total).toBeLessThanOrEqual(BASE_DEMAND);
    expect(ten.total).toBeGreaterThan(BASE_DEMAND - 10);
    expect(new Set(ten.units).size).toBe(1);
  });

  it('the cheaper store wins most shoppers, and a lower average price grows the demand (up to 2x)', async () => {
    const cheap = Math.round(REFERENCE * 0.9);
    const dear = Math.round(REFERENCE * 1.1);
    const { units, demand } = await market([
      { stock: 10_000, price: cheap },
      { stock: 10_000, price: dear },
    ]);
    const cheapWeight = (REFERENCE / cheap) ** 4;
    const dearWeight = (REFERENCE / dear) ** 4;
    const average = (cheapWeight * cheap + dearWeight * dear) / (cheapWeight + dearWeight);
    expect(demand).toBe(cityDemandRule.evaluate({ baseDemand: BASE_DEMAND, referenceCents: REFERENCE, averagePriceCents: average }));
    expect(units[0]).toBe(Math.floor((demand * cheapWeight) / (cheapWeight + dearWeight)));
    expect(units[0]! / units[1]!).toBeGreaterThan(2);
    const bargain = await market([{ stock: 10_000, price: Math.round(REFERENCE / 3) }]);
    expect(bargain.demand).toBe(2 * BASE_DEMAND);
  });

  it('nothing sells above 3x the reference price', async () => {
    const { units } = await market([{ stock: 100, price: 3 * REFERENCE + 1 }]);
    expect(units).toEqual([0]);
  });

  it('a store that runs out passes its shoppers on to the others, within their stock', async () => {
    const { units, total } = await market([
      { stock: 20, price: REFERENCE },
      { stock: 10_000, price: REFERENCE },
    ]);
    expect(units[0]).toBe(20);
    expect(total).toBe(BASE_DEMAND);
  });

  it('shoppers a sold-out store could not serve buy at a dearer store only as many as they would at its price', async () => {
    const dearer = Math.round(REFERENCE * 1.2);
    const { units, demand } = await market([
      { stock: 20, price: REFERENCE },
      { stock: 10_000, price: dearer },
    ]);
    // The first round by weight, as the turn computes it (the retail city's 10% bonus in both weights).
    const weights = [REFERENCE, dearer].map((price) => storeWeightRule.evaluate({ referenceCents: REFERENCE, retailCents: price, bonus: 10 }));
    const total = weights[0]! + weights[1]!;
    const average = (weights[0]! * REFERENCE + weights[1]! * dearer) / total;
    expect(demand).toBe(cityDemandRule.evaluate({ baseDemand: BASE_DEMAND, referenceCents: REFERENCE, averagePriceCents: average }));
    const dearerFirst = Math.floor((demand * weights[1]!) / total);
    const unserved = demand - 20 - dearerFirst;
    // The unserved shoppers were buying at the reference price: at 1.2x they buy 1/1.2^4 (48%) as many.
    const share = spilloverShareRule.evaluate({ unservedPriceCents: REFERENCE, referenceCents: REFERENCE, retailCents: dearer });
    expect(share).toBeCloseTo(1 / 1.2 ** 4, 6);
    expect(units[0]).toBe(20);
    expect(Math.abs(units[1]! - (dearerFirst + Math.floor(unserved * share)))).toBeLessThanOrEqual(1);
    expect(units[1]!).toBeLessThan(demand - 20);
  });

  it('a one-unit shelf at $0.01 hands no shoppers to a shelf at 2.9x the reference price (it sells what it sells alone, or less)', async () => {
    const dear = Math.round(REFERENCE * 2.9);
    const alone = await market([{ stock: 10_000, price: dear }]);
    // Alone at 2.9x the city buys (1/2.9)^4 of its demand at the reference price: a few units.
    expect(alone.units[0]).toBe(cityDemandRule.evaluate({ baseDemand: BASE_DEMAND, referenceCents: REFERENCE, averagePriceCents: dear }));
    const withDecoy = await market([
      { stock: 1, price: 1 },
      { stock: 10_000, price: dear },
    ]);
    // The decoy pulls the average price to about $0.01, so the city wants 2x its demand; it sells
    // its one unit, and the shoppers it could not serve buy almost nothing at 2.9x. (Before the
    // spillover rule the dear shelf sold its whole capacity: 2x the demand, $33,000 of it.)
    expect(withDecoy.demand).toBe(2 * BASE_DEMAND);
    expect(withDecoy.units[0]).toBe(1);
    expect(withDecoy.units[1]!).toBeLessThanOrEqual(alone.units[0]!);
  });

  it("another company's one-unit shelf at $0.01 does not stop a store at the reference price selling: it sells what it sells alone", async () => {
    const alone = await market([{ stock: 10_000, price: REFERENCE }]);
    expect(alone.units).toEqual([BASE_DEMAND]);
    const besideDecoy = await market([
      { stock: 1, price: 1 },
      { stock: 10_000, price: REFERENCE },
    ]);
    // The penny shelf takes nearly all the weight and sells its one unit. Its other shoppers were
    // measured against $0.01 and bought nothing at the reference price: the store sold 0, and a
    // newcomer who opened where the product page showed the shoppers unserved sold nothing for weeks.
    // They compare with what they expect to pay (R): the store sells the city's demand at R less the
    // decoy's one unit, and no more (a bargain that sold out draws no extra shoppers, so the 2x the
    // city wants at the decoy's average price is not passed on).
    expect(besideDecoy.units).toEqual([1, alone.units[0]! - 1]);
    expect(besideDecoy.demand).toBe(2 * BASE_DEMAND);
  });

  it('a store sells no more than its capacity (staff and equipment), valued at its shelf prices', async () => {
    // 1 employee, equipment level 1: efficiency 25%; the retail city's 10% bonus.
    const capacity = storeCapacityRule.evaluate({ efficiency: 25, productionRate: 100, bonus: 10 });
    for (const price of [REFERENCE, Math.round(REFERENCE * 0.9)]) {
      const { units, demand } = await market([{ stock: 10_000, price, employees: 1 }]);
      // The city wants more than the store can serve at this price...
      expect(demand * price).toBeGreaterThan(capacity);
      // ...so it sells what its capacity buys at its own price: a dearer shelf sells fewer units.
      expect(units[0]).toBe(Math.floor(capacity / price));
      expect(units[0]! * price).toBeLessThanOrEqual(capacity);
    }
  });
});
