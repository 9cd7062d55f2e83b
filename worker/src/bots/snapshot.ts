/**
 * Bots (owned by the bots engineer): what the bots read, ONCE per turn for all of them. A fixed
 * number of set-based queries (SNAPSHOT_QUERIES), whatever the number of bots or buildings: the
 * catalogue and the exchange (products with this week's flow, recipes, cities, research upgrades),
 * every active bot's company row, buildings, warehouse, shelves, research, influence and portfolio,
 * the most undervalued listed companies' share prices and book values, and the shoppers of the
 * consumer goods bots make (in every city) or shelve (in their stores' cities). Bots see nothing a player cannot see.
 */
import { sql } from 'drizzle-orm';
import {
  baseDemandRule,
  isBuildingType,
  referencePriceRule,
  shockedDemandRule,
  researchDiscountPercent,
  researchEffectPercent,
  sumResearchEffects,
  type ResearchEffectValue,
} from '@marketcraft/shared';
import { demandShocksSql, isConsumerGoodSql, referencePriceSql, ruleSql, worldProductsSql, type DbExecutor } from '@marketcraft/db';
import type { BotBuilding, BotSnapshot, BotWorld, CityDemand, ShareValuation, WorldCity, WorldProduct, WorldRecipe } from './types.ts';

/** Listed companies a snapshot reads, most undervalued first (besides those bots hold). */
const VALUATIONS_READ = 50;

/** Statements one snapshot sends (the same for 1 bot or 1,000): 9 reads and 2 settings (nested loops off and back on). */
export const SNAPSHOT_QUERIES = 11;

const n = (value: unknown): number => Number(value ?? 0);

export function demandKey(cityId: number, productId: number): string {
  return `${cityId}:${productId}`;
}

export interface BotsSnapshot {
  world: BotWorld;
  bots: BotSnapshot[];
}

/** Every active bot of one world, and that world's market, in a fixed number of statements. */
export async function loadBotsSnapshot(tx: DbExecutor, worldId: number, week: number): Promise<BotsSnapshot> {
  const botRows = await tx.execute<{ id: number; strategy: string | null; cash_cents: number }>(sql`
    select id, strategy, cash_cents from companies where world_id = ${worldId}::int and is_bot and status = 'active' order by id`);
  const productRows = await tx.execute<{
    id: number;
    name: string;
    category: string;
    base_price_cents: number;
    current_price_cents: number;
    depth_units: number;
    flow: number;
  }>(sql`
    select p.id, p.name, p.category, p.base_price_cents, p.current_price_cents, p.depth_units,
           coalesce(ma.units_bought - ma.units_sold, 0)::bigint as flow
    from ${worldProductsSql(worldId)} p
    left join market_activity ma on ma.world_id = p.world_id and ma.product_id = p.id and ma.week = (select current_week from worlds where id = ${worldId}::int)
    order by p.id`);
  // The rest of the catalogue (small, fixed tables) in one statement.
  const [catalogue] = await tx.execute<{
    recipes: { id: number; building_type: string; output_product_id: number; output_quantity: number; inputs: [number, number][] | null }[];
    cities: { id: number; country_id: number; population: number; bonus_type: string; bonus_value: number }[];
    upgrades: {
      id: number;
      tier: number;
      research_cost_cents: number;
      prerequisite_id: number | null;
      building_type: string | null;
      effects: Record<string, ResearchEffectValue>;
    }[];
  }>(sql`
    select
      (select coalesce(json_agg(r order by r.id), '[]') from (
         select r.id, lower(r.building_type) as building_type, r.output_product_id, r.output_quantity,
                (select json_agg(json_build_array(ri.product_id, ri.quantity) order by ri.product_id)
                 from recipe_inputs ri where ri.recipe_id = r.id) as inputs
         from recipes r) r) as recipes,
      (select coalesce(json_agg(c order by c.id), '[]') from (select id, country_id, population, bonus_type, bonus_value from cities) c) as cities,
      (select coalesce(json_agg(u order by u.tier, u.id), '[]') from (
         select id, tier, research_cost_cents, prerequisite_id, building_type, effects from research_upgrades) u) as upgrades`);
  const recipeRows = catalogue?.recipes ?? [];
  const cityRows = catalogue?.cities ?? [];
  const upgradeRows = catalogue?.upgrades ?? [];

  // The bots' ids, as read above, as one array parameter: `company_id = any(...)` is an index scan
  // whatever the join settings below (a subquery of them was a hash join over every building of a
  // 10,000-company world while nested loops are off).
  const botIds = sql`${`{${botRows.map((row) => n(row.id)).join(',')}}`}::int[]`;
  const buildingRows = await tx.execute<{
    id: number;
    company_id: number;
    type: string;
    city_id: number;
    country_id: number;
    employees: number;
    equipment_level: number;
    production_rate: number;
    selected_recipe_id: number | null;
    selected_category: string | null;
  }>(sql`
    select b.id, b.company_id, b.type, b.city_id, c.country_id, b.employees, b.equipment_level, b.production_rate,
           b.selected_recipe_id, b.selected_category
    from buildings b join cities c on c.id = b.city_id
    where b.world_id = ${worldId}::int and b.company_id = any(${botIds}) order by b.company_id, b.id`);
  // Their buildings' ids likewise, for the shelves (an index scan of the bots' shelves, not every shelf of the world).
  const botBuildingIds = sql`${`{${buildingRows.map((row) => n(row.id)).join(',')}}`}::int[]`;
  const stockRows = await tx.execute<{ company_id: number; product_id: number; quantity: number; average_cost_cents: number }>(sql`
    select company_id, product_id, quantity, average_cost_cents from inventory_items
    where world_id = ${worldId}::int and company_id = any(${botIds}) and quantity > 0 order by company_id, product_id`);
  // Nested loops off from here to the shoppers' read: the planner expects one row from each of that
  // read's CTEs (~1,000 pairs in the public world), looked every pair up in the city markets' index
  // and counted the stores selling again for each; hash joins are ~5x cheaper there, and ~2x for the
  // shelves (EXPLAIN ANALYZE; docs/bots.md, "Numbers"). The reads between are as cheap either way.
  await tx.execute(sql`set local enable_nestloop = off`);
  const shelfRows = await tx.execute<{
    company_id: number;
    building_id: number;
    product_id: number;
    quantity: number;
    retail_price_cents: number;
    reference_cents: number;
    units_sold_last_turn: number;
    is_active: boolean;
  }>(sql`
    select b.company_id, sp.building_id, sp.product_id, sp.quantity, sp.retail_price_cents,
           coalesce(case when cmd.world_id is not null then ${referencePriceSql(sql`p.current_price_cents`, sql`cmd.price_factor_bp`)} end,
                    round(p.current_price_cents * 1.3)) as reference_cents,
           sp.units_sold_last_turn, sp.is_active
    from store_products sp
    join buildings b on b.world_id = sp.world_id and b.id = sp.building_id
    join world_products p on p.world_id = sp.world_id and p.product_id = sp.product_id
    left join city_market_data cmd on cmd.world_id = sp.world_id and cmd.city_id = b.city_id and cmd.product_id = sp.product_id
    where sp.world_id = ${worldId}::int and sp.building_id = any(${botBuildingIds}) and b.id = any(${botBuildingIds})
    order by b.company_id, sp.building_id, sp.product_id`);
  // Research, influence and portfolios in one statement (small tables), tagged by kind.
  const holdingRows = await tx.execute<{
    kind: string;
    company_id: number;
    key: number;
    value: number;
    building_type: string | null;
    effects: Record<string, ResearchEffectValue> | null;
  }>(sql`
    select 'research' as kind, r.company_id, r.upgrade_id as key, 0::bigint as value, u.building_type, u.effects
    from company_research r join research_upgrades u on u.id = r.upgrade_id where r.world_id = ${worldId}::int and r.company_id = any(${botIds})
    union all
    select 'influence', company_id, country_id, influence_points, null, null from influence_records
    where world_id = ${worldId}::int and company_id = any(${botIds})
    union all
    select 'portfolio', holder_company_id, issuer_company_id, shares_owned, null, null from portfolio_entries
    where world_id = ${worldId}::int and holder_company_id = any(${botIds}) and shares_owned > 0
    order by 1, 2, 3`);
  // The most undervalued listed companies (what a share trader looks at first) and those bots hold.
  const valuationRows = await tx.execute<{ company_id: number; share_price_cents: number; total_shares: number; fundamental_cents: number }>(sql`
    with listed as (
      select s.company_id, s.share_price_cents, s.total_shares, s.fundamental_cents
      from share_records s
      -- bankrupt companies are delisted (is_listed false), so no join with companies is needed
      where s.world_id = ${worldId}::int and s.is_listed and s.total_shares > 0 and s.share_price_cents > 0 and s.fundamental_cents > 0
    )
    select * from (
      (select * from listed order by share_price_cents::numeric / fundamental_cents, company_id limit ${VALUATIONS_READ})
      union
      select * from listed where company_id in (
        select issuer_company_id from portfolio_entries where world_id = ${worldId}::int and holder_company_id = any(${botIds}) and shares_owned > 0)
    ) chosen
    order by share_price_cents::numeric / fundamental_cents, company_id`);
  // Shoppers of the consumer goods bots make, in every city (where to open a store), and of what
  // bots shelve, in their stores' cities; with the stores selling each there (every company's).
  // An instructor's demand shock counts as it does in the turn's sales (shockedDemandRule).
  const baseReference = ruleSql(referencePriceRule, { marketPriceCents: sql`p.base_price_cents`, cityFactorBp: sql`cmd.price_factor_bp` });
  const demandRows = await tx.execute<{ city_id: number; product_id: number; reference_cents: number; base_demand: number; stores: number }>(sql`
    with consumer as (
      select id from ${worldProductsSql(worldId)} wp where ${isConsumerGoodSql(sql`wp.category`)}
    ), pairs as (
      select c.id as city_id, made.product_id
      from (select distinct r.output_product_id as product_id
            from buildings b join recipes r on r.id = b.selected_recipe_id
            where b.world_id = ${worldId}::int and b.company_id = any(${botIds}) and r.output_product_id in (select id from consumer)) made
      cross join cities c
      union
      select b.city_id, sp.product_id from store_products sp join buildings b on b.world_id = sp.world_id and b.id = sp.building_id
      where sp.world_id = ${worldId}::int and sp.building_id = any(${botBuildingIds}) and b.id = any(${botBuildingIds}) and sp.product_id in (select id from consumer)
    ), selling as (
      -- every (city, product) with a store selling it, counted before the join with the pairs: a
      -- hash aggregate of the shelves (a join first sorted every shelf of a 10,000-company world)
      select b.city_id, sp.product_id, count(*)::int as stores
      from store_products sp join buildings b on b.world_id = sp.world_id and b.id = sp.building_id and b.type = 'store'
      where sp.world_id = ${worldId}::int and sp.is_active and sp.quantity > 0
      group by b.city_id, sp.product_id
    )
    select k.city_id, k.product_id, ${referencePriceSql(sql`p.current_price_cents`, sql`cmd.price_factor_bp`)} as reference_cents,
           ${ruleSql(shockedDemandRule, {
             baseDemand: ruleSql(baseDemandRule, { population: sql`ci.population`, demandLevel: sql`cmd.demand_level`, baseReferenceCents: baseReference }),
             shockPercent: sql`coalesce(ds.percent, 0)`,
           })} as base_demand,
           coalesce(s.stores, 0) as stores
    from pairs k
    join city_market_data cmd on cmd.world_id = ${worldId}::int and cmd.city_id = k.city_id and cmd.product_id = k.product_id
    join ${worldProductsSql(worldId)} p on p.id = k.product_id
    join cities ci on ci.id = k.city_id
    left join selling s on s.city_id = k.city_id and s.product_id = k.product_id
    left join ${demandShocksSql(worldId)} ds on ds.product_id = k.product_id
    order by k.city_id, k.product_id`);
  await tx.execute(sql`set local enable_nestloop = on`);

  const products = new Map<number, WorldProduct>(
    productRows.map((row) => [
      n(row.id),
      {
        id: n(row.id),
        name: row.name,
        category: row.category,
        basePriceCents: n(row.base_price_cents),
        currentPriceCents: n(row.current_price_cents),
        depthUnits: n(row.depth_units),
        flow: n(row.flow),
      },
    ]),
  );
  const recipes = new Map<number, WorldRecipe>();
  const recipeByOutput = new Map<number, WorldRecipe>();
  for (const row of recipeRows) {
    const recipe: WorldRecipe = {
      id: n(row.id),
      buildingType: row.building_type,
      outputProductId: n(row.output_product_id),
      outputQuantity: n(row.output_quantity),
      inputs: (row.inputs ?? []).map(([productId, quantity]) => ({ productId: n(productId), quantity: n(quantity) })),
    };
    recipes.set(recipe.id, recipe);
    if (!recipeByOutput.has(recipe.outputProductId)) recipeByOutput.set(recipe.outputProductId, recipe);
  }
  const cities: WorldCity[] = cityRows.map((row) => ({
    id: n(row.id),
    countryId: n(row.country_id),
    population: n(row.population),
    bonusType: row.bonus_type,
    bonusValue: n(row.bonus_value),
  }));
  const citiesById = new Map(cities.map((city) => [city.id, city]));
  const demand = new Map<string, CityDemand>();
  for (const row of demandRows) {
    demand.set(demandKey(n(row.city_id), n(row.product_id)), {
      cityId: n(row.city_id),
      productId: n(row.product_id),
      referenceCents: n(row.reference_cents),
      baseDemand: n(row.base_demand),
      storesSelling: n(row.stores),
    });
  }
  const valuations: ShareValuation[] = valuationRows.map((row) => ({
    companyId: n(row.company_id),
    sharePriceCents: n(row.share_price_cents),
    netWorthPerShareCents: n(row.fundamental_cents),
    totalShares: n(row.total_shares),
  }));
  const world: BotWorld = {
    week,
    products,
    recipes,
    recipeByOutput,
    cities,
    citiesById,
    upgrades: upgradeRows.map((row) => ({
      id: n(row.id),
      tier: n(row.tier),
      costCents: n(row.research_cost_cents),
      prerequisiteId: row.prerequisite_id === null ? null : n(row.prerequisite_id),
      buildingType: row.building_type,
      effects: row.effects,
    })),
    demand,
    valuations,
  };

  const snapshots = new Map<number, BotSnapshot>();
  const researchEffects = new Map<number, { buildingType: string | null; effects: Record<string, ResearchEffectValue> }[]>();
  for (const row of botRows) {
    const id = n(row.id);
    snapshots.set(id, {
      id,
      strategy: row.strategy ?? 'default',
      cashCents: n(row.cash_cents),
      buildings: [],
      warehouse: new Map(),
      shelves: [],
      researched: new Set(),
      researchDiscountPercent: 0,
      storeResearchBonus: 0,
      influence: new Map(),
      portfolio: new Map(),
    });
    researchEffects.set(id, []);
  }
  for (const row of buildingRows) {
    const bot = snapshots.get(n(row.company_id));
    if (!bot || !isBuildingType(row.type)) continue;
    const building: BotBuilding = {
      id: n(row.id),
      type: row.type,
      cityId: n(row.city_id),
      countryId: n(row.country_id),
      employees: n(row.employees),
      equipmentLevel: n(row.equipment_level),
      productionRate: n(row.production_rate),
      selectedRecipeId: row.selected_recipe_id === null ? null : n(row.selected_recipe_id),
      selectedCategory: row.selected_category,
    };
    bot.buildings.push(building);
  }
  for (const row of stockRows) {
    snapshots.get(n(row.company_id))?.warehouse.set(n(row.product_id), {
      productId: n(row.product_id),
      quantity: n(row.quantity),
      averageCostCents: n(row.average_cost_cents),
    });
  }
  for (const row of shelfRows) {
    snapshots.get(n(row.company_id))?.shelves.push({
      buildingId: n(row.building_id),
      productId: n(row.product_id),
      quantity: n(row.quantity),
      retailPriceCents: n(row.retail_price_cents),
      referenceCents: n(row.reference_cents),
      unitsSoldLastTurn: n(row.units_sold_last_turn),
      isActive: row.is_active,
    });
  }
  for (const row of holdingRows) {
    const bot = snapshots.get(n(row.company_id));
    if (!bot) continue;
    if (row.kind === 'research') {
      bot.researched.add(n(row.key));
      researchEffects.get(bot.id)?.push({ buildingType: row.building_type, effects: row.effects ?? {} });
    } else if (row.kind === 'influence') bot.influence.set(n(row.key), n(row.value));
    else bot.portfolio.set(n(row.key), n(row.value));
  }
  for (const bot of snapshots.values()) {
    const effects = sumResearchEffects(researchEffects.get(bot.id) ?? []);
    bot.researchDiscountPercent = researchDiscountPercent(effects);
    bot.storeResearchBonus = researchEffectPercent(effects, 'store', 'store_bonus');
  }
  return { world, bots: [...snapshots.values()] };
}
