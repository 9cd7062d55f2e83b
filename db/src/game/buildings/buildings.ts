/**
 * Buildings: their reads (list, detail, the view an action answers) and selling one (the building
 * actions are actions.ts). Plain functions over a DbExecutor with explicit ids (companyId first) so the API and the
 * worker's bots call the same code. Money is integer cents inside, dollars in the returned views.
 *
 * Lock order (to stay deadlock-free with the turn and the other operations): the company row first
 * (findOwnedBuilding with `lock`, as the turn locks every company before it touches their rows),
 * then the building row (`select ... for update of buildings`), then inventory rows.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import {
  BASE_POPULARITY,
  BUILDING_TYPES,
  EFFICIENCY_WARNING_THRESHOLD,
  GameError,
  POPULARITY_PER_OUTPUT_UNIT,
  buildingSaleRefund,
  centsToDollars,
  cityBonusApplies,
  efficiencyRule,
  isBuildingType,
  outputBonusRule,
  researchEffectPercent,
  researchOutputBonusPercent,
  effectsForBuildingType,
  equipmentSpentRule,
  type BuildingDetailView,
  type BuildingType,
  type BuildingTypeSpec,
  type BuildingView,
  type ProductCategory,
  type RecipeView,
  type SellBuildingResult,
} from '@marketcraft/shared';
import { buildings, cities, products, recipeInputs, recipes } from '../../schema/index.ts';
import type { DbExecutor } from '../../client.ts';
import { changeCash } from '../books/ledger.ts';
import { inTransaction } from '../action.ts';
import { companyResearchEffects } from '../research/research.ts';
import { productionPlanSql } from './productionPlan.ts';
import { researchSumsSql } from '../research/researchPlan.ts';

export const BUILDING_NOT_FOUND = 'Building Not Found';

/** The building columns operations need, read while holding (or not) the building's row lock. */
export interface OwnedBuilding {
  /** The company's world (the building's). */
  worldId: number;
  id: number;
  type: BuildingType;
  spec: BuildingTypeSpec;
  cityId: number;
  cityName: string;
  employees: number;
  equipmentLevel: number;
  constructionCostCents: number;
}

/**
 * The company's building `buildingId`, optionally locked `for update` (the lock serialises every
 * change to one building). Another company's building answers exactly like an unknown id.
 */
export async function findOwnedBuilding(db: DbExecutor, companyId: number, buildingId: number, options: { lock?: boolean } = {}): Promise<OwnedBuilding> {
  // The company's row before the building's, in the turn's order: a building locked first and the
  // company waited for during a turn that bankrupts the company (and deletes its buildings)
  // deadlocked with it (a 500, or the turn failed).
  if (options.lock) await db.execute(sql`select id from companies where id = ${companyId} for update`);
  const query = db
    .select({
      worldId: buildings.worldId,
      id: buildings.id,
      type: buildings.type,
      cityId: buildings.cityId,
      cityName: cities.name,
      employees: buildings.employees,
      equipmentLevel: buildings.equipmentLevel,
      constructionCostCents: buildings.constructionCostCents,
    })
    .from(buildings)
    .innerJoin(cities, eq(cities.id, buildings.cityId))
    .where(and(eq(buildings.id, buildingId), eq(buildings.companyId, companyId)));
  const [row] = options.lock ? await query.for('update', { of: buildings }) : await query;
  if (!row || !isBuildingType(row.type)) throw new GameError('NOT_FOUND', BUILDING_NOT_FOUND);
  return { ...row, type: row.type, spec: BUILDING_TYPES[row.type] };
}

// ---------------------------------------------------------------------------------------------
// Views

const buildingColumns = {
  worldId: buildings.worldId,
  id: buildings.id,
  type: buildings.type,
  cityId: buildings.cityId,
  cityName: cities.name,
  cityBonusType: cities.bonusType,
  cityBonusValue: cities.bonusValue,
  employees: buildings.employees,
  equipmentLevel: buildings.equipmentLevel,
  productionRate: buildings.productionRate,
  selectedRecipeId: buildings.selectedRecipeId,
  selectedCategory: buildings.selectedCategory,
  constructionCostCents: buildings.constructionCostCents,
  builtWeek: buildings.builtWeek,
  recipeOutputQuantity: recipes.outputQuantity,
};

type BuildingRow = {
  worldId: number;
  id: number;
  type: string;
  cityId: number;
  cityName: string;
  cityBonusType: string;
  cityBonusValue: number;
  employees: number;
  equipmentLevel: number;
  productionRate: number;
  selectedRecipeId: number | null;
  selectedCategory: ProductCategory | null;
  constructionCostCents: number;
  builtWeek: number;
  recipeOutputQuantity: number | null;
};

function toBuildingView(row: BuildingRow, output: ReadonlyMap<number, { planned: number; made: number }>): BuildingView {
  const type = (isBuildingType(row.type) ? row.type : 'store') as BuildingType;
  const spec = BUILDING_TYPES[type];
  const efficiency = efficiencyRule.evaluate({ employees: row.employees, equipmentLevel: row.equipmentLevel });
  const planned = output.get(row.id);
  return {
    id: row.id,
    type,
    name: spec.name,
    category: spec.category,
    city_id: row.cityId,
    city_name: row.cityName,
    employees: row.employees,
    equipment_level: row.equipmentLevel,
    production_rate: row.productionRate,
    selected_recipe_id: row.selectedRecipeId,
    selected_category: row.selectedCategory,
    efficiency,
    effective_output: planned?.planned ?? 0,
    next_turn_output: planned?.made ?? 0,
    built_week: row.builtWeek,
  };
}

function selectBuildings(db: DbExecutor) {
  return db
    .select(buildingColumns)
    .from(buildings)
    .innerJoin(cities, eq(cities.id, buildings.cityId))
    .leftJoin(recipes, eq(recipes.id, buildings.selectedRecipeId));
}

/**
 * Planned and made output of the company's production buildings, by the turn's own query
 * (productionPlanSql), keyed by building id.
 */
async function plannedOutputs(
  db: DbExecutor,
  worldId: number,
  companyId: number,
  buildingId?: number,
): Promise<Map<number, { planned: number; made: number }>> {
  const companies = sql`(select ${companyId}::int as company_id)`;
  const rows = await db.execute<{ building_id: number; planned: number; units: number }>(sql`
    select building_id, planned, units from ${productionPlanSql({ worldId, companies, research: researchSumsSql(worldId, companies) })} plan
    where role = 'output' ${buildingId === undefined ? sql`` : sql`and building_id = ${buildingId}`}`);
  return new Map(rows.map((row) => [Number(row.building_id), { planned: Number(row.planned), made: Number(row.units) }]));
}

/** GET /buildings: the company's buildings, oldest first. */
export async function listBuildings(db: DbExecutor, companyId: number): Promise<BuildingView[]> {
  const rows = await selectBuildings(db).where(eq(buildings.companyId, companyId)).orderBy(asc(buildings.id));
  const withRecipe = rows.find((row) => row.selectedRecipeId !== null);
  const output = withRecipe ? await plannedOutputs(db, withRecipe.worldId, companyId) : new Map();
  return rows.map((row) => toBuildingView(row, output));
}

/** Recipes with their inputs, optionally only those of one building type (case-insensitive) or ids. */
export async function loadRecipes(db: DbExecutor, filter: { buildingType?: string; recipeId?: number } = {}): Promise<RecipeView[]> {
  const conditions = [];
  if (filter.buildingType) conditions.push(sql`lower(${recipes.buildingType}) = lower(${filter.buildingType})`);
  if (filter.recipeId !== undefined) conditions.push(eq(recipes.id, filter.recipeId));
  const recipeRows = await db
    .select({
      id: recipes.id,
      buildingType: recipes.buildingType,
      outputProductId: recipes.outputProductId,
      outputProductName: products.name,
      outputQuantity: recipes.outputQuantity,
    })
    .from(recipes)
    .innerJoin(products, eq(products.id, recipes.outputProductId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(asc(recipes.id));
  if (!recipeRows.length) return [];
  const inputRows = await db
    .select({ recipeId: recipeInputs.recipeId, productId: recipeInputs.productId, productName: products.name, quantity: recipeInputs.quantity })
    .from(recipeInputs)
    .innerJoin(products, eq(products.id, recipeInputs.productId))
    .innerJoin(recipes, eq(recipes.id, recipeInputs.recipeId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(asc(recipeInputs.recipeId), asc(recipeInputs.productId));
  const inputsByRecipe = new Map<number, RecipeView['inputs']>();
  for (const input of inputRows) {
    const list = inputsByRecipe.get(input.recipeId) ?? [];
    list.push({ product_id: input.productId, product_name: input.productName, quantity: input.quantity });
    inputsByRecipe.set(input.recipeId, list);
  }
  return recipeRows.map((recipe) => ({
    id: recipe.id,
    // Every recipe's type is a building type (a foreign key to building_types).
    building_type: recipe.buildingType as BuildingType,
    output_product_id: recipe.outputProductId,
    output_product_name: recipe.outputProductName,
    output_quantity: recipe.outputQuantity,
    inputs: inputsByRecipe.get(recipe.id) ?? [],
  }));
}

/**
 * The building page's details (GET /buildings/{id}, which adds the forecast: forecast/forecast.ts):
 * one building with its city bonus, research bonus, costs, popularity and recipe. The detail figures (spec section 9) count the company's research as the turn does
 * (docs/economy.md): total bonus = fitting city bonus + research bonus (outputBonusRule).
 */
export async function buildingDetails(db: DbExecutor, companyId: number, buildingId: number): Promise<Omit<BuildingDetailView, 'forecast'>> {
  const [row] = await selectBuildings(db).where(and(eq(buildings.id, buildingId), eq(buildings.companyId, companyId)));
  if (!row) throw new GameError('NOT_FOUND', BUILDING_NOT_FOUND);
  const view = toBuildingView(row, row.selectedRecipeId === null ? new Map() : await plannedOutputs(db, row.worldId, companyId, buildingId));
  const spec = BUILDING_TYPES[view.type];
  const bonusApplies = cityBonusApplies(view.type, row.cityBonusType);
  const research = await companyResearchEffects(db, companyId);
  const researchBonus = researchOutputBonusPercent(research, row.type);
  const totalBonus = outputBonusRule.evaluate({
    cityBonus: bonusApplies ? row.cityBonusValue : 0,
    productionBonus: researchEffectPercent(research, row.type, 'production_bonus'),
    chainBonus: researchEffectPercent(research, row.type, 'chain_bonus'),
  });
  const investedCents = row.constructionCostCents + equipmentSpentRule.evaluate({ equipmentLevel: row.equipmentLevel });
  const [recipe] = row.selectedRecipeId === null ? [] : await loadRecipes(db, { recipeId: row.selectedRecipeId });
  return {
    ...view,
    city_bonus_type: row.cityBonusType,
    city_bonus_value: row.cityBonusValue,
    city_bonus_applies: bonusApplies,
    base_capacity: spec.baseCapacity,
    weekly_operating_cost: spec.weeklyOperatingCost,
    research_bonus: researchBonus,
    research_effects: effectsForBuildingType(research, row.type),
    total_bonus: totalBonus,
    bonused_output: view.effective_output,
    overall_efficiency: view.efficiency,
    efficiency_warning: view.efficiency < EFFICIENCY_WARNING_THRESHOLD,
    popularity: BASE_POPULARITY + view.effective_output * POPULARITY_PER_OUTPUT_UNIT,
    invested: centsToDollars(investedCents),
    sale_refund: centsToDollars(buildingSaleRefund(investedCents)),
    is_store: spec.category === 'retail',
    recipe: recipe ?? null,
  };
}

/** A building of the company as the building actions answer it (GET /buildings lists the same view). */
export async function buildingView(db: DbExecutor, companyId: number, buildingId: number): Promise<BuildingView> {
  const [row] = await selectBuildings(db).where(and(eq(buildings.id, buildingId), eq(buildings.companyId, companyId)));
  if (!row) throw new GameError('NOT_FOUND', BUILDING_NOT_FOUND);
  return toBuildingView(row, row.selectedRecipeId === null ? new Map() : await plannedOutputs(db, row.worldId, companyId, buildingId));
}

// ---------------------------------------------------------------------------------------------
// Changes

/**
 * POST /buildings/{id}/sell: refunds BUILDING_SALE_REFUND_RATE of construction + equipment
 * spending (ledger: building/sell_building), moves the store's shelf and back-room stock into the
 * company warehouse (weighted average cost), deletes the building. One transaction.
 */
export async function sellOneBuilding(db: DbExecutor, companyId: number, buildingId: number): Promise<SellBuildingResult> {
  return inTransaction(db, async (tx) => {
    const building = await findOwnedBuilding(tx, companyId, buildingId, { lock: true });
    const investedCents = building.constructionCostCents + equipmentSpentRule.evaluate({ equipmentLevel: building.equipmentLevel });
    const refundCents = buildingSaleRefund(investedCents);
    const cashCents = await changeCash(tx, {
      companyId,
      amountCents: refundCents,
      type: 'building',
      reason: 'sell_building',
      description: `Sold the ${building.spec.name} in ${building.cityName}`,
      ref: { buildingId: building.id },
    });
    const [stock] = await tx.execute<{ units: number }>(sql`
      select (coalesce((select sum(quantity) from store_products where world_id = ${building.worldId} and building_id = ${building.id}), 0)
            + coalesce((select sum(quantity) from building_inventory_items where world_id = ${building.worldId} and building_id = ${building.id}), 0))::bigint as units`);
    await tx.execute(sql`
      insert into inventory_items (world_id, company_id, product_id, quantity, average_cost_cents)
      select ${building.worldId}::int, ${companyId}::int, product_id, sum(quantity), round(sum(quantity * unit_cents)::numeric / sum(quantity))
      from (
        select product_id, quantity, cost_price_cents as unit_cents from store_products where world_id = ${building.worldId} and building_id = ${building.id} and quantity > 0
        union all
        select product_id, quantity, purchase_price_cents from building_inventory_items where world_id = ${building.worldId} and building_id = ${building.id} and quantity > 0
      ) stock
      group by product_id
      order by product_id
      on conflict (world_id, company_id, product_id) do update set
        average_cost_cents = round((inventory_items.quantity * inventory_items.average_cost_cents + excluded.quantity * excluded.average_cost_cents)::numeric
                                   / (inventory_items.quantity + excluded.quantity)),
        quantity = inventory_items.quantity + excluded.quantity`);
    await tx.delete(buildings).where(and(eq(buildings.worldId, building.worldId), eq(buildings.id, building.id)));
    return {
      id: building.id,
      type: building.type,
      name: building.spec.name,
      city_name: building.cityName,
      refund: centsToDollars(refundCents),
      units_moved_to_warehouse: Number(stock?.units ?? 0),
      cash: centsToDollars(cashCents),
    };
  });
}
