/**
 * A building's forecast for the next turn (GET /api/buildings/{id}): computed by the SAME query
 * builders the turn runs (buildings/productionPlan.ts, buildings/costsPlan.ts, retail/salesPlan.ts, research/researchPlan.ts), scoped to the building's company (production, costs)
 * or to its city (store sales: every competing store counts), so it is what the next turn does,
 * given no change in between (bots act at the end of a turn, so they do not change it either).
 * docs/economy.md, "True numbers".
 *
 * The "why" of each figure is the same rule explained with the same inputs (rule.explain); the
 * agreement test keeps the TypeScript and SQL sides of every rule equal.
 */
import { sql } from 'drizzle-orm';
import {
  EFFICIENCY_PER_EMPLOYEE,
  EFFICIENCY_PER_EQUIPMENT_LEVEL,
  FORECAST_PRODUCTION_RATES,
  MARKET_HALF_SPREAD_BP,
  MAX_EFFICIENCY,
  MAX_EQUIPMENT_LEVEL,
  bestProductionRate,
  centsToDollars,
  efficiencyRule,
  equipmentSpentRule,
  equipmentUpgradeCost,
  hireCost,
  inputNeededRule,
  operatingCostRule,
  outputBonusRule,
  plannedOutputRule,
  storeBonusRule,
  storeCapacityRule,
  storeRevenueRule,
  storeUnitsWhy,
  wagesRule,
  weekAtRate,
  wholesaleMarginBp,
  type BuildingDetailView,
  type BuildingForecast,
  type RateFacts,
} from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { bonusPairsValues, cityBonusSql, productionPlanSql } from '../buildings/productionPlan.ts';
import { buildingCostsSql } from '../buildings/costsPlan.ts';
import { buildingDetails } from '../buildings/buildings.ts';
import { storeSalesSql } from '../retail/salesPlan.ts';
import { researchEffect, researchJoins, researchSumsSql } from '../research/researchPlan.ts';
import { companyWorld } from '../clock/state.ts';
import { ruleSql } from '../../ruleSql.ts';

type RecipeNeeds = BuildingForecast['recipes'][number];
type EfficiencyImprovement = BuildingForecast['improvements'][number];
type OvertimeForecast = NonNullable<BuildingForecast['overtime']>;

type BuildingFacts = {
  city_id: number;
  recipe_id: number | null;
  type: string;
  invested_cents: number;
  is_store: boolean;
  employees: number;
  equipment_level: number;
  production_rate: number;
  output_quantity: number | null;
  output_product_name: string | null;
  output_price_cents: number | null;
  output_bonus: number;
  store_bonus: number;
  cost_reduction: number;
  material_reduction: number;
  type_cost_cents: number;
  company_buildings: number;
  week: number;
};

export async function buildingForecast(db: DbExecutor, companyId: number, buildingId: number): Promise<BuildingForecast> {
  const worldId = await companyWorld(db, companyId);
  const companies = sql`(select ${companyId}::int as company_id)`;
  const research = researchSumsSql(worldId, companies);
  const [facts] = await db.execute<BuildingFacts>(sql`
    with bonus_pairs(building_type, bonus_type) as (values ${bonusPairsValues()})
    select b.city_id, b.type, b.type = 'store' as is_store,
           b.construction_cost_cents + ${ruleSql(equipmentSpentRule, { equipmentLevel: sql`b.equipment_level` })} as invested_cents,
           b.employees, b.equipment_level, b.production_rate,
           b.selected_recipe_id as recipe_id, r.output_quantity, p.name as output_product_name, wp.current_price_cents as output_price_cents,
           ${ruleSql(outputBonusRule, {
             cityBonus: cityBonusSql,
             productionBonus: researchEffect('production_bonus'),
             chainBonus: researchEffect('chain_bonus'),
           })} as output_bonus,
           ${ruleSql(storeBonusRule, { cityBonus: cityBonusSql, researchBonus: researchEffect('store_bonus') })} as store_bonus,
           ${researchEffect('cost_reduction')} as cost_reduction,
           ${researchEffect('material_reduction')} as material_reduction,
           bt.weekly_operating_cost_cents as type_cost_cents,
           (select count(*) from buildings b2 where b2.world_id = b.world_id and b2.company_id = b.company_id)::int as company_buildings,
           (select current_week from worlds where id = b.world_id) as week
    from buildings b
    join cities ci on ci.id = b.city_id
    join building_types bt on bt.type = b.type
    left join recipes r on r.id = b.selected_recipe_id
    left join products p on p.id = r.output_product_id
    left join world_products wp on wp.world_id = b.world_id and wp.product_id = r.output_product_id
    left join bonus_pairs bp on bp.building_type = b.type and bp.bonus_type = ci.bonus_type
    ${researchJoins(research)}
    where b.world_id = ${worldId} and b.id = ${buildingId} and b.company_id = ${companyId}`);
  if (!facts) throw new Error(`building ${buildingId} of company ${companyId} not found`);
  const n = (value: number | string | null) => Number(value ?? 0);

  const efficiencyInputs = { employees: n(facts.employees), equipmentLevel: n(facts.equipment_level) };
  const efficiency = efficiencyRule.explain(efficiencyInputs);
  const wages = wagesRule.explain({ employees: n(facts.employees), productionRate: n(facts.production_rate) });
  const operating = operatingCostRule.explain({
    typeCostCents: n(facts.type_cost_cents),
    costReduction: n(facts.cost_reduction),
    productionRate: n(facts.production_rate),
    companyBuildings: n(facts.company_buildings),
  });
  const [costs] = await db.execute<{ wages_cents: number; operating_cents: number }>(sql`
    select wages_cents, operating_cents from ${buildingCostsSql({ worldId, companies, research })} c where c.building_id = ${buildingId}`);
  const wagesCents = n(costs?.wages_cents ?? 0);
  const operatingCents = n(costs?.operating_cents ?? 0);

  const improvements = efficiencyImprovements(n(facts.employees), n(facts.equipment_level), (improvedEfficiency) =>
    facts.output_quantity === null
      ? null
      : plannedOutputRule.evaluate({
          outputQuantity: n(facts.output_quantity),
          productionRate: n(facts.production_rate),
          efficiency: improvedEfficiency,
          bonus: n(facts.output_bonus),
        }),
  );
  /** The week's totals, as the screens show them: units, costs, profit and what it earns on the investment. */
  const returns = (units: number, revenueCents: number, costsCents: number) => {
    const invested = n(facts.invested_cents);
    const profitCents = revenueCents - costsCents;
    return {
      units,
      costs: centsToDollars(costsCents),
      profit: centsToDollars(profitCents),
      roi_percent: invested > 0 ? Math.round((profitCents / invested) * 10_000) / 100 : null,
      payback_weeks: profitCents > 0 ? Math.ceil(invested / profitCents) : null,
    };
  };
  const base = {
    week: n(facts.week),
    efficiency,
    wages,
    operating_cost: operating,
    improvements,
  };

  if (facts.is_store) {
    const capacity = storeCapacityRule.explain({
      efficiency: efficiency.value,
      productionRate: n(facts.production_rate),
      bonus: n(facts.store_bonus),
    });
    const rows = await db.execute<{
      product_id: number;
      product_name: string;
      price_cents: number;
      reference_cents: number;
      share: number;
      demand: number;
      units: number;
      revenue_cents: number;
      price_bonus: number;
      stock: number;
      capacity_cents: number;
      first_units: number;
      other_stores: number;
      others_price_cents: number | null;
    }>(sql`
      select s.product_id, p.name as product_name, s.price_cents, s.reference_cents, s.share, s.demand, s.units, s.revenue_cents, s.price_bonus,
             s.stock, s.capacity_cents, s.first_units, s.offers - 1 as other_stores,
             (s.market_weighted_price - s.weight * s.price_cents) / nullif(s.market_weight - s.weight, 0) as others_price_cents
      from (
        select s.*, count(*) over market as offers, sum(s.weight) over market as market_weight, sum(s.weight * s.price_cents) over market as market_weighted_price
        from ${storeSalesSql({
          worldId,
          companies: sql`(select id as company_id from companies where world_id = ${worldId} and status = 'active')`,
          research: researchSumsSql(worldId, sql`(select id as company_id from companies where world_id = ${worldId} and status = 'active')`),
          cityIds: sql`(${n(facts.city_id)})`,
        })} s
        window market as (partition by s.product_id)
      ) s
      join products p on p.id = s.product_id
      where s.building_id = ${buildingId}
      order by p.name`);
    const sales = rows.map((row) => ({
      product_id: n(row.product_id),
      product_name: row.product_name,
      price: centsToDollars(n(row.price_cents)),
      reference_price: centsToDollars(n(row.reference_cents)),
      share: Math.round(n(row.share) * 10_000) / 10_000,
      city_demand: n(row.demand),
      units: n(row.units),
      revenue: centsToDollars(n(row.revenue_cents)),
      revenue_why: storeRevenueRule.explain({ units: n(row.units), retailCents: n(row.price_cents), priceBonus: n(row.price_bonus) }),
      units_why: storeUnitsWhy({
        cityDemand: n(row.demand),
        share: n(row.share),
        priceCents: n(row.price_cents),
        referenceCents: n(row.reference_cents),
        othersPriceCents: row.others_price_cents === null ? null : n(row.others_price_cents),
        otherStores: n(row.other_stores),
        stock: n(row.stock),
        capacityCents: n(row.capacity_cents),
        ownUnits: n(row.first_units),
        units: n(row.units),
      }),
    }));
    const revenueCents = rows.reduce((sum, row) => sum + n(row.revenue_cents), 0);
    return {
      ...base,
      planned_output: null,
      output_units: 0,
      output_product_name: null,
      limited_by: null,
      inputs: [],
      capacity,
      sales,
      revenue: centsToDollars(revenueCents),
      inputs_cost: 0,
      ...returns(
        rows.reduce((sum, row) => sum + n(row.units), 0),
        revenueCents,
        wagesCents + operatingCents,
      ),
      recipes: [],
      overtime: null,
    };
  }

  const plan = await db.execute<{
    product_id: number;
    product_name: string;
    category: string;
    role: string;
    planned: number;
    units: number;
    in_stock: number;
    price_cents: number;
  }>(sql`
    select pl.product_id, p.name as product_name, p.category, pl.role, pl.planned, pl.units, wp.current_price_cents as price_cents,
           coalesce((select i.quantity from inventory_items i where i.world_id = ${worldId} and i.company_id = ${companyId} and i.product_id = pl.product_id), 0) as in_stock
    from ${productionPlanSql({ worldId, companies, research })} pl
    join products p on p.id = pl.product_id
    join world_products wp on wp.world_id = ${worldId} and wp.product_id = pl.product_id
    where pl.building_id = ${buildingId}
    order by pl.role desc, p.name`);
  const output = plan.find((row) => row.role === 'output');
  const inputs = plan
    .filter((row) => row.role === 'input')
    .map((row) => ({
      product_id: n(row.product_id),
      product_name: row.product_name,
      needed: n(row.planned),
      used: n(row.units),
      in_stock: n(row.in_stock),
      priceCents: n(row.price_cents),
      marginBp: wholesaleMarginBp(row.category),
    }));
  const outputUnits = n(output?.units ?? 0);
  const plannedUnits = n(output?.planned ?? 0);
  const limiting = outputUnits < plannedUnits ? inputs.find((input) => input.used < input.needed) : undefined;
  const plannedOutput =
    facts.output_quantity === null
      ? null
      : plannedOutputRule.explain({
          outputQuantity: n(facts.output_quantity),
          productionRate: n(facts.production_rate),
          efficiency: efficiency.value,
          bonus: n(facts.output_bonus),
        });
  const revenueCents = Math.floor(withSpread(outputUnits * n(facts.output_price_cents), -1));
  // Inputs at the buy price: the spread, and the wholesale margin for consumer goods (butter for croissants).
  const inputsCostCents = Math.ceil(inputs.reduce((sum, input) => sum + withSpread(input.used * input.priceCents, 1, input.marginBp), 0));
  return {
    ...base,
    planned_output: plannedOutput,
    output_units: outputUnits,
    output_product_name: facts.output_product_name,
    limited_by: limiting?.product_name ?? null,
    inputs: inputs.map(({ priceCents: _price, marginBp: _margin, ...input }) => input),
    capacity: null,
    sales: [],
    revenue: centsToDollars(revenueCents),
    inputs_cost: centsToDollars(inputsCostCents),
    ...returns(outputUnits, revenueCents, inputsCostCents + wagesCents + operatingCents),
    recipes: await recipeNeeds(db, worldId, companyId, facts, efficiency.value),
    overtime: facts.recipe_id === null ? null : await overtimeForecast(db, worldId, facts, efficiency.value),
  };
}

/**
 * The week's profit of the building at 100/125/150/175/200% and the best rate (weekAtRate,
 * bestProductionRate: the turn's rules, every input bought at today's prices).
 */
async function overtimeForecast(db: DbExecutor, worldId: number, facts: BuildingFacts, efficiency: number): Promise<OvertimeForecast> {
  const n = (value: number | string | null) => Number(value ?? 0);
  const recipeInputs = await db.execute<{ quantity: number; price_cents: number; category: string }>(sql`
    select ri.quantity, wp.current_price_cents as price_cents, p.category
    from recipe_inputs ri
    join products p on p.id = ri.product_id
    join world_products wp on wp.world_id = ${worldId} and wp.product_id = ri.product_id
    where ri.recipe_id = ${n(facts.recipe_id)}`);
  const rateFacts: RateFacts = {
    outputQuantity: n(facts.output_quantity),
    efficiency,
    bonus: n(facts.output_bonus),
    outputPriceCents: n(facts.output_price_cents),
    inputs: recipeInputs.map((input) => ({ quantity: n(input.quantity), priceCents: n(input.price_cents), marginBp: wholesaleMarginBp(input.category) })),
    employees: n(facts.employees),
    typeCostCents: n(facts.type_cost_cents),
    costReduction: n(facts.cost_reduction),
    materialReduction: n(facts.material_reduction),
    companyBuildings: n(facts.company_buildings),
  };
  const best = bestProductionRate(rateFacts);
  return {
    rates: FORECAST_PRODUCTION_RATES.map((rate) => {
      const week = weekAtRate(rateFacts, rate);
      return {
        rate,
        output_units: week.units,
        revenue: centsToDollars(week.revenueCents),
        costs: centsToDollars(week.costsCents),
        profit: centsToDollars(week.profitCents),
      };
    }),
    best_rate: best.rate,
    best_profit: centsToDollars(best.profitCents),
  };
}

/**
 * What each recipe of the building's type would need for one turn at the building's settings (the
 * turn's rules: plannedOutputRule, inputNeededRule with the company's material_reduction), next to
 * the warehouse stock. The building alone: when several buildings share an input the turn serves the
 * oldest first (the building's own recipe's figures above account for that).
 */
async function recipeNeeds(db: DbExecutor, worldId: number, companyId: number, facts: BuildingFacts, efficiency: number): Promise<RecipeNeeds[]> {
  const rows = await db.execute<{
    recipe_id: number;
    output_quantity: number;
    product_id: number | null;
    product_name: string | null;
    quantity: number | null;
    in_stock: number;
  }>(sql`
    select r.id as recipe_id, r.output_quantity, ri.product_id, p.name as product_name, ri.quantity,
           coalesce(i.quantity, 0) as in_stock
    from recipes r
    left join recipe_inputs ri on ri.recipe_id = r.id
    left join products p on p.id = ri.product_id
    left join inventory_items i on i.world_id = ${worldId} and i.company_id = ${companyId} and i.product_id = ri.product_id
    where lower(r.building_type) = lower(${facts.type})
    order by r.id, p.name`);
  const byRecipe = new Map<number, RecipeNeeds>();
  const n = (value: number | string | null) => Number(value ?? 0);
  for (const row of rows) {
    const recipeId = n(row.recipe_id);
    let needs = byRecipe.get(recipeId);
    if (!needs) {
      const planned = plannedOutputRule.evaluate({
        outputQuantity: n(row.output_quantity),
        productionRate: n(facts.production_rate),
        efficiency,
        bonus: n(facts.output_bonus),
      });
      needs = { recipe_id: recipeId, planned_output: planned, inputs: [], ready: true };
      byRecipe.set(recipeId, needs);
    }
    if (row.product_id === null) continue;
    const needed = inputNeededRule.evaluate({
      units: needs.planned_output,
      inputQuantity: n(row.quantity),
      outputQuantity: n(row.output_quantity),
      materialReduction: n(facts.material_reduction),
    });
    needs.inputs.push({ product_id: n(row.product_id), product_name: row.product_name ?? '', needed, in_stock: n(row.in_stock) });
    if (n(row.in_stock) < needed) needs.ready = false;
  }
  return [...byRecipe.values()];
}

/** The next equipment level and the hires that bring efficiency to 100% (the spec's efficiency rule). */
function efficiencyImprovements(employees: number, equipmentLevel: number, outputAt: (efficiency: number) => number | null): EfficiencyImprovement[] {
  const steps: EfficiencyImprovement[] = [];
  if (equipmentLevel < MAX_EQUIPMENT_LEVEL) {
    const next = equipmentLevel + 1;
    const efficiency = efficiencyRule.evaluate({ employees, equipmentLevel: next });
    steps.push({
      kind: 'equipment',
      label: `Upgrade equipment to level ${next}`,
      cost: equipmentUpgradeCost(equipmentLevel, next),
      efficiency,
      planned_output: outputAt(efficiency),
    });
  }
  const missing = Math.max(0, Math.ceil((MAX_EFFICIENCY - equipmentLevel * EFFICIENCY_PER_EQUIPMENT_LEVEL) / EFFICIENCY_PER_EMPLOYEE) - employees);
  if (missing > 0) {
    const efficiency = efficiencyRule.evaluate({ employees: employees + missing, equipmentLevel });
    steps.push({
      kind: 'hire',
      label: `Hire ${missing} ${missing === 1 ? 'employee' : 'employees'}`,
      cost: hireCost(missing),
      efficiency,
      planned_output: outputAt(efficiency),
    });
  }
  return steps;
}

/** Cents at the market's sell (-1) or buy (+1) price: the posted price less or plus the half-spread (a purchase also plus its wholesale margin, basis points). */
function withSpread(cents: number, side: 1 | -1, marginBp = 0): number {
  return (cents * (10_000 + side * MARKET_HALF_SPREAD_BP + (side === 1 ? marginBp : 0))) / 10_000;
}

/**
 * GET /api/buildings/{id}: the building page, its details and its forecast. The forecast has its own
 * folder above buildings and retail because it reads both domains' plans (a store's forecast is its
 * city's sales plan).
 */
export async function getBuilding(db: DbExecutor, companyId: number, buildingId: number): Promise<BuildingDetailView> {
  const details = await buildingDetails(db, companyId, buildingId);
  return { ...details, forecast: await buildingForecast(db, companyId, buildingId) };
}
