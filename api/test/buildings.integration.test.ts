import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILDING_TYPES, plannedOutputRule } from '@marketcraft/shared';
import { and, asc, eq, sql } from 'drizzle-orm';
import { buildingTypes, buildings, inventoryItems, ledgerMismatches, recipes, researchUpgrades, transactions, type Database } from '@marketcraft/db';
import { startTestApp, type TestApp } from './helpers/testApp.ts';
import { cashCentsOf, createProductionWorld, expectLedgerBalanced, type ProductionWorld } from './helpers/productionFixtures.ts';

describe('buildings API', () => {
  let app: TestApp;
  let db: Database;
  let world: ProductionWorld;
  beforeAll(async () => {
    app = await startTestApp();
    db = app.database.db;
    world = await createProductionWorld(db);
  });
  afterAll(async () => {
    expect(await ledgerMismatches(db)).toEqual([]);
    await app.close();
  });

  async function build(token: string, type: string, cityId = world.city.id) {
    const response = await app.api('POST', '/buildings', { token, body: { type, city_id: cityId } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as { id: number; [key: string]: unknown };
  }

  it('builds a farm: pays $20,000, ledgers it, selects the first farm recipe, answers the building', async () => {
    const player = await app.createPlayer({ cash: 100_000 });
    const response = await app.api('POST', '/buildings', { token: player.token, body: { type: 'farm', city_id: world.city.id } });
    expect(response.status).toBe(200);
    const [firstFarmRecipe] = await db
      .select({ id: recipes.id })
      .from(recipes)
      .where(sql`lower(${recipes.buildingType}) = 'farm'`)
      .orderBy(asc(recipes.id))
      .limit(1);
    expect(response.body).toMatchObject({
      type: 'farm',
      name: 'Farm',
      category: 'extraction',
      city_id: world.city.id,
      city_name: world.city.name,
      employees: 1,
      equipment_level: 1,
      production_rate: 100,
      selected_recipe_id: firstFarmRecipe!.id,
      selected_category: null,
      efficiency: 25,
      built_week: 1,
    });
    expect(typeof response.body.id).toBe('number');
    expect(typeof response.body.effective_output).toBe('number');
    expect(await cashCentsOf(db, player.companyId)).toBe(8_000_000);
    const ledger = await db
      .select({ type: transactions.type, reason: transactions.reason, amount: transactions.amountCents, description: transactions.description })
      .from(transactions)
      .where(eq(transactions.companyId, player.companyId));
    expect(ledger).toEqual([{ type: 'building', reason: 'build', amount: -2_000_000, description: `Built a Farm in ${world.city.name}` }]);

    const list = await app.api('GET', '/buildings', { token: player.token });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toEqual(response.body);
    await expectLedgerBalanced(db, player.companyId);
  });

  it("shows one building with its city bonus, capacity, operating cost, popularity, recipe and the next turn's forecast", async () => {
    const player = await app.createPlayer({ cash: 100_000 });
    const mill = await build(player.token, 'mill');
    await app.api('PUT', `/buildings/${mill.id}/select-recipe`, { token: player.token, body: { recipe_id: world.millRecipeId } });
    const farm = await build(player.token, 'farm');
    const millDetail = await app.api('GET', `/buildings/${mill.id}`, { token: player.token });
    expect(millDetail.status).toBe(200);
    // Mill in an agricultural city: the bonus does not fit. 1 employee, level 1: efficiency 25%.
    expect(millDetail.body).toMatchObject({
      id: mill.id,
      type: 'mill',
      name: 'Mill',
      city_bonus_type: 'agricultural',
      city_bonus_value: 15,
      city_bonus_applies: false,
      base_capacity: BUILDING_TYPES.mill.baseCapacity,
      weekly_operating_cost: BUILDING_TYPES.mill.weeklyOperatingCost,
      total_bonus: 0,
      efficiency: 25,
      overall_efficiency: 25,
      efficiency_warning: true,
      // round(50 x 100/100 x 25/100 x 100/100) = 13 (12.5 rounds half up): what the turn plans...
      effective_output: 13,
      bonused_output: 13,
      popularity: 250 + 13 * 2,
      // ...and makes nothing without wheat in the warehouse.
      next_turn_output: 0,
      invested: 25_000,
      sale_refund: 12_500,
      is_store: false,
      recipe: {
        id: world.millRecipeId,
        building_type: 'mill',
        output_product_id: world.flour.id,
        output_product_name: world.flour.name,
        output_quantity: 50,
        inputs: [{ product_id: world.wheat.id, product_name: world.wheat.name, quantity: 100 }],
      },
    });
    expect(millDetail.body.forecast).toMatchObject({
      output_units: 0,
      output_product_name: world.flour.name,
      limited_by: world.wheat.name,
      inputs: [{ product_id: world.wheat.id, product_name: world.wheat.name, needed: 26, used: 0, in_stock: 0 }],
      capacity: null,
      sales: [],
      revenue: 0,
      inputs_cost: 0,
      wages: { value: 100, unit: 'dollars' },
    });
    expect(millDetail.body.forecast.planned_output).toMatchObject({ value: 13, unit: 'units' });
    expect(millDetail.body.forecast.planned_output.terms.map((term: { name: string; value: number }) => [term.name, term.value])).toEqual([
      ['output_quantity', 50],
      ['production_rate', 100],
      ['efficiency', 25],
      ['bonus', 0],
    ]);
    // Two buildings: +2% overhead of size on each one's operating cost.
    expect(millDetail.body.forecast.operating_cost.value).toBe(Math.round(BUILDING_TYPES.mill.weeklyOperatingCost * 1.02 * 100) / 100);
    expect(millDetail.body.forecast.profit).toBe(-(100 + millDetail.body.forecast.operating_cost.value));
    // With 30 wheat in stock the forecast makes what they allow: 15 flour... limited to the planned 13.
    await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.wheat.id, quantity: 30, action: 'buy' } });
    const stocked = await app.api('GET', `/buildings/${mill.id}`, { token: player.token });
    expect(stocked.body).toMatchObject({ next_turn_output: 13 });
    expect(stocked.body.forecast).toMatchObject({ output_units: 13, limited_by: null, inputs: [{ needed: 26, used: 26, in_stock: 30 }] });
    const farmDetail = await app.api('GET', `/buildings/${farm.id}`, { token: player.token });
    // Farm in an agricultural city: +15% fits; it starts on its type's first recipe.
    const farmOutput = plannedOutputRule.evaluate({ outputQuantity: farmDetail.body.recipe.output_quantity, productionRate: 100, efficiency: 25, bonus: 15 });
    expect(farmDetail.body).toMatchObject({
      city_bonus_applies: true,
      total_bonus: 15,
      effective_output: farmOutput,
      next_turn_output: farmOutput,
      bonused_output: farmOutput,
      popularity: 250 + 2 * farmOutput,
    });
  });

  it("counts the company's research in the detail figures: production + chain bonus for every type or this type", async () => {
    const player = await app.createPlayer({ cash: 1_000_000 });
    const farm = await build(player.token, 'farm');
    const mill = await build(player.token, 'mill');
    const tag = Math.random().toString(36).slice(2, 8);
    const upgrade = async (name: string, buildingType: string | null, effects: Record<string, number | string>) => {
      const [row] = await db
        .insert(researchUpgrades)
        .values({ name: `${name} ${tag}`, description: 'Test upgrade.', category: 'productivity', tier: 1, researchCostCents: 100_000, buildingType, effects })
        .returning({ id: researchUpgrades.id });
      return row!.id;
    };
    const everyType = await upgrade('Lean', null, { production_bonus: 10, cost_reduction: 15 });
    const farmOnly = await upgrade('Precision Farming', 'farm', { production_bonus: 25 });
    const chain = await upgrade('Supply Chain', null, { chain_bonus: 5, unlock_feature: 'bulk_buy' });
    const stores = await upgrade('Retail', null, { store_bonus: 30, price_bonus: 10 });
    const millChain = await upgrade('Mill Chain', 'mill', { chain_bonus: 20 }); // not researched: does not count
    for (const id of [everyType, farmOnly, chain, stores]) {
      expect((await app.api('POST', '/research/purchase', { token: player.token, body: { upgrade_id: id } })).status).toBe(200);
    }
    expect(millChain).toBeGreaterThan(0);
    await app.api('PUT', `/buildings/${mill.id}/select-recipe`, { token: player.token, body: { recipe_id: world.millRecipeId } });

    // Farm in an agricultural city: +15% city, +10 +25 +5 research = 55%.
    const farmDetail = await app.api('GET', `/buildings/${farm.id}`, { token: player.token });
    const planned = (bonus: number) =>
      plannedOutputRule.evaluate({ outputQuantity: farmDetail.body.recipe.output_quantity, productionRate: 100, efficiency: 25, bonus });
    expect(farmDetail.body).toMatchObject({
      city_bonus_applies: true,
      research_bonus: 40,
      total_bonus: 55,
      effective_output: planned(55),
      bonused_output: planned(55),
      overall_efficiency: 25,
      efficiency_warning: true,
      popularity: 250 + planned(55) * 2,
    });
    // The forecast's cost reduction (15%) comes from the same research.
    expect(farmDetail.body.forecast.operating_cost.terms.find((term: { name: string }) => term.name === 'cost_reduction').value).toBe(15);
    // Mill: the city bonus does not fit; only the research for every type counts (10 + 5): round(50 x 25% x 115%) = 14.
    const millDetail = await app.api('GET', `/buildings/${mill.id}`, { token: player.token });
    expect(millDetail.body).toMatchObject({ city_bonus_applies: false, research_bonus: 15, total_bonus: 15, effective_output: 14 });

    // Research is the company's own: another player's farm in the same city has none.
    const other = await app.createPlayer({ cash: 100_000 });
    const otherFarm = await build(other.token, 'farm');
    expect((await app.api('GET', `/buildings/${otherFarm.id}`, { token: other.token })).body).toMatchObject({
      research_bonus: 0,
      total_bonus: 15,
      effective_output: planned(15),
    });
    await expectLedgerBalanced(db, player.companyId);
  });

  it('refuses bad build input (400), unknown cities (404), strangers (401) and overdrafts (409)', async () => {
    const player = await app.createPlayer({ cash: 10_000 });
    for (const body of [
      { type: 'castle', city_id: world.city.id },
      { type: 'farm', city_id: 'abc' },
      { type: 'farm', city_id: 1.5 },
      { type: 'farm', city_id: -1 },
      { type: 'farm' },
      { city_id: world.city.id },
      {},
    ]) {
      const response = await app.api('POST', '/buildings', { token: player.token, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(typeof response.body.error).toBe('string');
    }
    expect((await app.api('POST', '/buildings', { token: player.token, body: 'not json' })).status).toBe(400);
    const unknownCity = await app.api('POST', '/buildings', { token: player.token, body: { type: 'farm', city_id: 999_999 } });
    expect(unknownCity).toMatchObject({ status: 404, body: { error: 'City not found' } });
    expect((await app.api('POST', '/buildings', { body: { type: 'farm', city_id: world.city.id } })).status).toBe(401);
    expect((await app.api('GET', '/buildings')).status).toBe(401);
    const tooExpensive = await app.api('POST', '/buildings', { token: player.token, body: { type: 'refinery', city_id: world.city.id } });
    expect(tooExpensive).toMatchObject({ status: 409, body: { error: 'Not enough cash: this costs $60,000.00 and you have $10,000.00' } });
    expect(await cashCentsOf(db, player.companyId)).toBe(1_000_000);
    const list = await app.api('GET', '/buildings', { token: player.token });
    expect(list.body).toEqual([]);
    await expectLedgerBalanced(db, player.companyId);
  });

  it('hires employees at $5,000 each and validates the count (1-10)', async () => {
    const player = await app.createPlayer({ cash: 100_000 });
    const farm = await build(player.token, 'farm');
    const hired = await app.api('POST', `/buildings/${farm.id}/hire-employees`, { token: player.token, body: { count: 3 } });
    expect(hired.status).toBe(200);
    expect(hired.body).toMatchObject({ id: farm.id, employees: 4, efficiency: 55 });
    expect(await cashCentsOf(db, player.companyId)).toBe(10_000_000 - 2_000_000 - 1_500_000);
    for (const count of [0, 11, 2.5, -1, 'abc', null]) {
      const response = await app.api('POST', `/buildings/${farm.id}/hire-employees`, { token: player.token, body: { count } });
      expect(response.status, String(count)).toBe(400);
      expect(response.body.error).toContain('Please enter a number between 1 and 10');
    }
    expect((await app.api('POST', `/buildings/${farm.id}/hire-employees`, { token: player.token, body: {} })).status).toBe(400);
    expect((await app.api('POST', `/buildings/abc/hire-employees`, { token: player.token, body: { count: 1 } })).status).toBe(400);
    const unknown = await app.api('POST', `/buildings/999999/hire-employees`, { token: player.token, body: { count: 1 } });
    expect(unknown).toMatchObject({ status: 404, body: { error: 'Building Not Found' } });
    // $63,500 left: 10 more employees ($50,000) fit, then 3 ($15,000) do not.
    expect((await app.api('POST', `/buildings/${farm.id}/hire-employees`, { token: player.token, body: { count: 10 } })).status).toBe(200);
    const broke = await app.api('POST', `/buildings/${farm.id}/hire-employees`, { token: player.token, body: { count: 4 } });
    expect(broke).toMatchObject({ status: 409, body: { error: 'Not enough cash: this costs $20,000.00 and you have $15,000.00' } });
    expect((await app.api('GET', `/buildings/${farm.id}`, { token: player.token })).body.employees).toBe(14);
    await expectLedgerBalanced(db, player.companyId);
  }, 60_000);

  it('upgrades equipment by the ladder sum, only upward, at most level 5', async () => {
    const player = await app.createPlayer({ cash: 300_000 });
    const farm = await build(player.token, 'farm');
    const up = await app.api('POST', `/buildings/${farm.id}/upgrade-equipment`, { token: player.token, body: { target_level: 3 } });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ equipment_level: 3, efficiency: 55 });
    expect(await cashCentsOf(db, player.companyId)).toBe(30_000_000 - 2_000_000 - 3_500_000);
    const same = await app.api('POST', `/buildings/${farm.id}/upgrade-equipment`, { token: player.token, body: { target_level: 3 } });
    expect(same).toMatchObject({ status: 422, body: { error: 'Equipment is at level 3: choose a level from 4 to 5' } });
    const down = await app.api('POST', `/buildings/${farm.id}/upgrade-equipment`, { token: player.token, body: { target_level: 2 } });
    expect(down.status).toBe(422);
    for (const target_level of [6, 0, 2.5, 'top']) {
      const response = await app.api('POST', `/buildings/${farm.id}/upgrade-equipment`, { token: player.token, body: { target_level } });
      expect(response.status, String(target_level)).toBe(400);
    }
    const top = await app.api('POST', `/buildings/${farm.id}/upgrade-equipment`, { token: player.token, body: { target_level: 5 } });
    expect(top.body).toMatchObject({ equipment_level: 5 });
    expect(await cashCentsOf(db, player.companyId)).toBe(30_000_000 - 2_000_000 - 3_500_000 - 15_000_000);
    const beyond = await app.api('POST', `/buildings/${farm.id}/upgrade-equipment`, { token: player.token, body: { target_level: 5 } });
    expect(beyond).toMatchObject({ status: 422, body: { error: 'Equipment is already at the highest level (5)' } });
    const ledger = await db
      .select({ reason: transactions.reason, amount: transactions.amountCents })
      .from(transactions)
      .where(and(eq(transactions.companyId, player.companyId), eq(transactions.reason, 'equipment')))
      .orderBy(asc(transactions.id));
    expect(ledger).toEqual([
      { reason: 'equipment', amount: -3_500_000 },
      { reason: 'equipment', amount: -15_000_000 },
    ]);
    await expectLedgerBalanced(db, player.companyId);
  });

  it('sets the production rate (10-200) without charging', async () => {
    const player = await app.createPlayer({ cash: 100_000 });
    const farm = await build(player.token, 'farm');
    const response = await app.api('PUT', `/buildings/${farm.id}/production-rate`, { token: player.token, body: { new_rate: 150 } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ production_rate: 150 });
    for (const new_rate of [5, 9, 201, 100.5, 'fast']) {
      const bad = await app.api('PUT', `/buildings/${farm.id}/production-rate`, { token: player.token, body: { new_rate } });
      expect(bad.status, String(new_rate)).toBe(400);
      expect(bad.body.error).toContain('Production rate must be between 10 and 200');
    }
    for (const new_rate of [10, 200]) {
      expect((await app.api('PUT', `/buildings/${farm.id}/production-rate`, { token: player.token, body: { new_rate } })).status).toBe(200);
    }
    expect(await cashCentsOf(db, player.companyId)).toBe(8_000_000);
  });

  it("shows the week's profit at 100-200% and the best rate in the forecast: above 150% tired crews make nothing more", async () => {
    const player = await app.createPlayer({ cash: 200_000 });
    const farm = await build(player.token, 'farm');
    await app.api('POST', `/buildings/${farm.id}/hire-employees`, { token: player.token, body: { count: 8 } });
    await app.api('PUT', `/buildings/${farm.id}/production-rate`, { token: player.token, body: { new_rate: 200 } });
    const detail = await app.api('GET', `/buildings/${farm.id}`, { token: player.token });
    const overtime = detail.body.forecast.overtime;
    expect(overtime.rates.map((row: { rate: number }) => row.rate)).toEqual([100, 125, 150, 175, 200]);
    const [at100, at125, at150, at175, at200] = overtime.rates;
    // 125% makes 118.75% of the output, 150% and more 125%.
    expect(at125.output_units).toBe(Math.round(at100.output_units * 1.1875));
    expect([at150.output_units, at175.output_units]).toEqual([at200.output_units, at200.output_units]);
    expect(at200.output_units).toBe(Math.round(at100.output_units * 1.25));
    // The building runs at 200: the forecast's own figures are that row's.
    expect(detail.body.forecast).toMatchObject({ output_units: at200.output_units, profit: at200.profit });
    expect(at200.profit).toBeLessThan(at150.profit);
    expect(overtime.best_rate).toBeGreaterThan(100);
    expect(overtime.best_rate).toBeLessThan(150);
    expect(overtime.best_profit).toBeGreaterThan(at125.profit - 0.01);
    // A store has no overtime table.
    const store = await build(player.token, 'store');
    expect((await app.api('GET', `/buildings/${store.id}`, { token: player.token })).body.forecast.overtime).toBeNull();
  });

  it('selects a recipe of the building type only, and a category for stores only', async () => {
    const player = await app.createPlayer({ cash: 200_000 });
    const mill = await build(player.token, 'mill');
    const store = await build(player.token, 'store');
    const ok = await app.api('PUT', `/buildings/${mill.id}/select-recipe`, { token: player.token, body: { recipe_id: world.millRecipeId } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ selected_recipe_id: world.millRecipeId, effective_output: 13 });
    const wrong = await app.api('PUT', `/buildings/${mill.id}/select-recipe`, { token: player.token, body: { recipe_id: world.bakeryRecipeId } });
    expect(wrong).toMatchObject({ status: 422, body: { error: 'This recipe is made in a Bakery, not in a Mill' } });
    // Case-insensitive: a recipe whose building type is written 'MILL' fits a mill.
    await db
      .insert(buildingTypes)
      .values({ type: 'MILL', name: 'Mill', category: 'processing', constructionCostCents: 1, baseCapacity: 1, weeklyOperatingCostCents: 0 })
      .onConflictDoNothing();
    const [upper] = await db
      .insert(recipes)
      .values({ buildingType: 'MILL', outputProductId: world.flour.id, outputQuantity: 10 })
      .returning({ id: recipes.id });
    expect((await app.api('PUT', `/buildings/${mill.id}/select-recipe`, { token: player.token, body: { recipe_id: upper!.id } })).status).toBe(200);
    const missing = await app.api('PUT', `/buildings/${mill.id}/select-recipe`, { token: player.token, body: { recipe_id: 999_999 } });
    expect(missing).toMatchObject({ status: 404, body: { error: 'Recipe not found' } });
    expect((await app.api('PUT', `/buildings/${mill.id}/select-recipe`, { token: player.token, body: { recipe_id: 'x' } })).status).toBe(400);
    const storeRecipe = await app.api('PUT', `/buildings/${store.id}/select-recipe`, { token: player.token, body: { recipe_id: world.millRecipeId } });
    expect(storeRecipe.status).toBe(422);

    const category = await app.api('PUT', `/buildings/${store.id}/select-category`, { token: player.token, body: { category: 'Food Products' } });
    expect(category.status).toBe(200);
    expect(category.body).toMatchObject({ selected_category: 'Food Products', category: 'retail' });
    const badCategory = await app.api('PUT', `/buildings/${store.id}/select-category`, { token: player.token, body: { category: 'Weapons' } });
    expect(badCategory.status).toBe(400);
    const millCategory = await app.api('PUT', `/buildings/${mill.id}/select-category`, { token: player.token, body: { category: 'Food Products' } });
    expect(millCategory).toMatchObject({ status: 422, body: { error: 'Only stores choose a product category: this building is a Mill' } });
  });

  it("never shows or changes another player's building: 404 Building Not Found everywhere", async () => {
    const owner = await app.createPlayer({ cash: 100_000 });
    const stranger = await app.createPlayer({ cash: 100_000 });
    const store = await build(owner.token, 'store');
    const calls: Array<[string, string, unknown]> = [
      ['GET', `/buildings/${store.id}`, undefined],
      ['GET', `/buildings/${store.id}/inventory`, undefined],
      ['POST', `/buildings/${store.id}/hire-employees`, { count: 1 }],
      ['POST', `/buildings/${store.id}/upgrade-equipment`, { target_level: 2 }],
      ['PUT', `/buildings/${store.id}/production-rate`, { new_rate: 50 }],
      ['PUT', `/buildings/${store.id}/select-recipe`, { recipe_id: world.millRecipeId }],
      ['PUT', `/buildings/${store.id}/select-category`, { category: 'Food Products' }],
      ['POST', `/buildings/${store.id}/inventory/purchase`, { product_id: world.bread.id, quantity: 1 }],
      ['POST', `/buildings/${store.id}/inventory/transfer-to-store`, { product_id: world.bread.id, quantity: 1, retail_price: 5 }],
      ['POST', `/buildings/${store.id}/sell`, undefined],
      ['GET', `/stores/${store.id}/products`, undefined],
      ['PUT', `/stores/${store.id}/products/${world.bread.id}`, { retail_price: 5 }],
      ['PATCH', `/stores/${store.id}/products/${world.bread.id}/toggle`, { is_active: false }],
      ['DELETE', `/stores/${store.id}/products/${world.bread.id}`, undefined],
    ];
    for (const [method, path, body] of calls) {
      const response = await app.api(method, path, { token: stranger.token, body });
      expect(response, `${method} ${path}`).toMatchObject({ status: 404, body: { error: 'Building Not Found' } });
    }
    expect((await app.api('GET', '/buildings', { token: stranger.token })).body).toEqual([]);
    const own = await app.api('GET', `/buildings/${store.id}`, { token: owner.token });
    expect(own.body).toMatchObject({ employees: 1, equipment_level: 1, production_rate: 100, selected_category: null });
    expect(await cashCentsOf(db, stranger.companyId)).toBe(10_000_000);
  });

  it('sells a building: 50% of construction plus equipment back, stock to the warehouse, building gone', async () => {
    const player = await app.createPlayer({ cash: 200_000 });
    const farm = await build(player.token, 'farm');
    await app.api('POST', `/buildings/${farm.id}/upgrade-equipment`, { token: player.token, body: { target_level: 3 } });
    const before = await cashCentsOf(db, player.companyId);
    const sold = await app.api('POST', `/buildings/${farm.id}/sell`, { token: player.token });
    expect(sold.status).toBe(200);
    // (20,000 + 10,000 + 25,000) x 50% = 27,500
    expect(sold.body).toMatchObject({ id: farm.id, type: 'farm', refund: 27_500, units_moved_to_warehouse: 0 });
    expect(await cashCentsOf(db, player.companyId)).toBe(before + 2_750_000);
    expect((await app.api('GET', `/buildings/${farm.id}`, { token: player.token })).status).toBe(404);
    expect((await app.api('POST', `/buildings/${farm.id}/sell`, { token: player.token })).status).toBe(404);

    // A store with stock on the shelf and in the back room: all of it lands in the warehouse.
    const store = await build(player.token, 'store');
    const bought = await app.api('POST', `/buildings/${store.id}/inventory/purchase`, {
      token: player.token,
      body: { product_id: world.bread.id, quantity: 30 },
    });
    const shelf = await app.api('POST', `/buildings/${store.id}/inventory/transfer-to-store`, {
      token: player.token,
      body: { product_id: world.bread.id, quantity: 12, retail_price: 7 },
    });
    expect(shelf.status).toBe(200);
    const storeSold = await app.api('POST', `/buildings/${store.id}/sell`, { token: player.token });
    expect(storeSold.body).toMatchObject({ refund: 7_500, units_moved_to_warehouse: 30 });
    const [held] = await db
      .select({ quantity: inventoryItems.quantity, average: inventoryItems.averageCostCents })
      .from(inventoryItems)
      .where(and(eq(inventoryItems.companyId, player.companyId), eq(inventoryItems.productId, world.bread.id)));
    expect(held).toEqual({ quantity: 30, average: Math.round(bought.body.purchase_price * 100) });
    const inventory = await app.api('GET', '/inventory', { token: player.token });
    expect(inventory.body).toEqual([expect.objectContaining({ product_id: world.bread.id, quantity: 30, average_cost: bought.body.purchase_price })]);
    expect(await db.select({ id: buildings.id }).from(buildings).where(eq(buildings.companyId, player.companyId))).toEqual([]);
    await expectLedgerBalanced(db, player.companyId);
  });

  it('parallel builds cannot overdraw: with $50,000 exactly two $20,000 farms get built', async () => {
    const player = await app.createPlayer({ cash: 50_000 });
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => app.api('POST', '/buildings', { token: player.token, body: { type: 'farm', city_id: world.city.id } })),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(2);
    expect(statuses.filter((status) => status === 409)).toHaveLength(10);
    expect(await cashCentsOf(db, player.companyId)).toBe(1_000_000);
    const built = await db.select({ id: buildings.id }).from(buildings).where(eq(buildings.companyId, player.companyId));
    expect(built).toHaveLength(2);
    await expectLedgerBalanced(db, player.companyId);
  });

  it('parallel hires and upgrades on one building charge once per success', async () => {
    const player = await app.createPlayer({ cash: 60_000 });
    const farm = await build(player.token, 'farm');
    // $40,000 left: 20 parallel upgrades to level 2 -> exactly one succeeds ($10,000).
    const upgrades = await Promise.all(
      Array.from({ length: 20 }, () => app.api('POST', `/buildings/${farm.id}/upgrade-equipment`, { token: player.token, body: { target_level: 2 } })),
    );
    expect(upgrades.filter((response) => response.status === 200)).toHaveLength(1);
    expect(upgrades.filter((response) => response.status === 422)).toHaveLength(19);
    // $30,000 left: 10 parallel hires of 1 ($5,000) -> exactly six succeed.
    const hires = await Promise.all(
      Array.from({ length: 10 }, () => app.api('POST', `/buildings/${farm.id}/hire-employees`, { token: player.token, body: { count: 1 } })),
    );
    expect(hires.filter((response) => response.status === 200)).toHaveLength(6);
    const detail = await app.api('GET', `/buildings/${farm.id}`, { token: player.token });
    expect(detail.body).toMatchObject({ employees: 7, equipment_level: 2 });
    expect(await cashCentsOf(db, player.companyId)).toBe(0);
    await expectLedgerBalanced(db, player.companyId);
  });
  it('a building sold while the turn bankrupts its company: 404, no deadlock, no refund', async () => {
    const player = await app.createPlayer({ cash: 30_000 });
    const farm = await build(player.token, 'farm');
    // The turn's locks, in its order (worker/src/turn): every active company of the world, then the
    // bankrupt companies' buildings deleted. Held open until the sale waits.
    let companiesLocked!: () => void;
    const locked = new Promise<void>((resolve) => (companiesLocked = resolve));
    let saleWaits!: () => void;
    const waiting = new Promise<void>((resolve) => (saleWaits = resolve));
    const turn = db.transaction(async (tx) => {
      await tx.execute(sql`select id from companies where world_id = 1 and status = 'active' order by id for update`);
      companiesLocked();
      await waiting;
      await tx.execute(sql`delete from buildings where world_id = 1 and company_id = ${player.companyId}`);
    });
    await locked;
    const sale = app.api('POST', `/buildings/${farm.id}/sell`, { token: player.token });
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const [row] = await db.execute<{ n: number }>(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      );
      if (Number(row?.n ?? 0) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    saleWaits();
    // Before, the sale held the building's row while it waited for the company: the turn's delete
    // then waited for the sale, and PostgreSQL failed one of the two (a 500, or the turn).
    await turn;
    const answer = await sale;
    expect(answer).toMatchObject({ status: 404, body: { error: 'Building Not Found' } });
    expect(await cashCentsOf(db, player.companyId)).toBe(1_000_000);
    await expectLedgerBalanced(db, player.companyId);
  });
});
