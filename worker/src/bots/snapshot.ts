/**
 * Bots (owned by the bots engineer): what the bots read. `loadBotWorld` reads the small catalogue
 * tables once per turn (products, recipes, cities, research upgrades); `loadBotSnapshot` reads one
 * bot's own state with a handful of queries bounded by that bot's own rows (its buildings, stock,
 * shelves, influence, portfolio). Share valuations of every listed company are one set-based
 * statement per turn. Nothing here loops over the world's buildings.
 */
import { sql } from 'drizzle-orm';
import {
  isBuildingType,
  researchDiscountPercent,
  sumResearchEffects,
  type ResearchEffectValue,
} from '@marketcraft/shared';
import type { DbExecutor } from '@marketcraft/db';
import type { BotBuilding, BotShelf, BotSnapshot, BotWorld, CityDeal, ShareValuation, StoreCandidate, WorldRecipe } from './types.ts';

/** Goods a commodity trader looks for in its own cities. */
export const TRADER_CATEGORIES = ['Raw Materials', 'Agricultural'] as const;
/** A city deal: the city price is at most this share of the market's current price. */
export const CITY_DEAL_MAX_RATIO = 0.88;
/** Products shoppers buy, the ones a store may carry. */
export const CONSUMER_CATEGORIES = ['Food Products', 'Consumer Goods', 'Luxury Goods'] as const;

const n = (value: unknown): number => Number(value ?? 0);

export async function loadBotWorld(tx: DbExecutor, week: number): Promise<BotWorld> {
  const productRows = await tx.execute<{ id: number; category: string; base_price_cents: number; current_price_cents: number }>(sql`
    select id, category, base_price_cents, current_price_cents from products order by id`);
  const recipeRows = await tx.execute<{ id: number; building_type: string; output_product_id: number; output_quantity: number; inputs: [number, number][] | null }>(sql`
    select r.id, lower(r.building_type) as building_type, r.output_product_id, r.output_quantity,
           (select json_agg(json_build_array(ri.product_id, ri.quantity) order by ri.product_id)
            from recipe_inputs ri where ri.recipe_id = r.id) as inputs
    from recipes r order by r.id`);
  const cityRows = await tx.execute<{ id: number; country_id: number; bonus_type: string; bonus_value: number }>(sql`
    select id, country_id, bonus_type, bonus_value from cities order by id`);
  const upgradeRows = await tx.execute<{
    id: number;
    tier: number;
    research_cost_cents: number;
    prerequisite_id: number | null;
    building_type: string | null;
    effects: Record<string, ResearchEffectValue>;
  }>(sql`select id, tier, research_cost_cents, prerequisite_id, building_type, effects from research_upgrades order by tier, id`);

  const products = new Map(
    productRows.map((row) => [
      n(row.id),
      { id: n(row.id), category: row.category, basePriceCents: n(row.base_price_cents), currentPriceCents: n(row.current_price_cents) },
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
  const cities = cityRows.map((row) => ({ id: n(row.id), countryId: n(row.country_id), bonusType: row.bonus_type, bonusValue: n(row.bonus_value) }));
  return {
    week,
    products,
    recipes,
    recipeByOutput,
    cities,
    citiesById: new Map(cities.map((city) => [city.id, city])),
    upgrades: upgradeRows.map((row) => ({
      id: n(row.id),
      tier: n(row.tier),
      costCents: n(row.research_cost_cents),
      prerequisiteId: row.prerequisite_id === null ? null : n(row.prerequisite_id),
      buildingType: row.building_type,
      effects: row.effects,
    })),
    valuations: null,
  };
}

/**
 * Every listed, active company's share price and book value per share (share_records.fundamental,
 * set by the last turn's stocks phase from valuationSql), read once per turn (the first time a
 * share-trading bot asks) into a temporary table. Shares are issued by the company on demand, so
 * `available` is the whole company (bots cap their holdings themselves).
 */
async function ensureShareValuations(tx: DbExecutor): Promise<void> {
  const [exists] = await tx.execute<{ found: boolean }>(sql`select to_regclass('pg_temp.bot_share_valuations') is not null as found`);
  if (exists?.found) return;
  await tx.execute(sql`
    create temp table bot_share_valuations on commit drop as
    select s.company_id, s.share_price_cents, s.total_shares, s.fundamental_cents as nw_per_share, s.total_shares as available
    from share_records s
    join companies c on c.id = s.company_id
    where s.is_listed and c.status = 'active' and s.total_shares > 0`);
  await tx.execute(sql`alter table bot_share_valuations add primary key (company_id)`);
}

/** Listed companies whose share price is below their net worth per share, most undervalued first (at most `limit`). */
export async function loadShareValuations(tx: DbExecutor, limit = 30): Promise<ShareValuation[]> {
  await ensureShareValuations(tx);
  const rows = await tx.execute<{ company_id: number; share_price_cents: number; total_shares: number; nw_per_share: number; available: number }>(sql`
    select company_id, share_price_cents, total_shares, nw_per_share, available
    from bot_share_valuations
    where share_price_cents > 0 and share_price_cents <= nw_per_share
    order by share_price_cents::numeric / nw_per_share, company_id
    limit ${limit}`);
  return rows.map((row) => ({
    companyId: n(row.company_id),
    sharePriceCents: n(row.share_price_cents),
    netWorthPerShareCents: n(row.nw_per_share),
    totalShares: n(row.total_shares),
    sharesAvailable: n(row.available),
  }));
}

/** Share price and net worth per share of the issuers a bot holds (for selling dear). */
export async function loadHoldingValuations(tx: DbExecutor, issuerIds: number[]): Promise<ShareValuation[]> {
  if (issuerIds.length === 0) return [];
  await ensureShareValuations(tx);
  const rows = await tx.execute<{ company_id: number; share_price_cents: number; total_shares: number; nw_per_share: number }>(sql`
    select company_id, share_price_cents, total_shares, nw_per_share
    from bot_share_valuations
    where company_id in (${sql.join(issuerIds.map((id) => sql`${id}`), sql`, `)})
    order by company_id`);
  return rows.map((row) => ({
    companyId: n(row.company_id),
    sharePriceCents: n(row.share_price_cents),
    netWorthPerShareCents: n(row.nw_per_share),
    totalShares: n(row.total_shares),
    sharesAvailable: 0,
  }));
}

export async function loadBotSnapshot(tx: DbExecutor, bot: { id: number; strategy: string }, options: { cityDeals: boolean }): Promise<BotSnapshot> {
  const companyId = bot.id;
  const [company] = await tx.execute<{ cash_cents: number }>(sql`select cash_cents from companies where id = ${companyId}`);
  const buildingRows = await tx.execute<{
    id: number;
    type: string;
    city_id: number;
    country_id: number;
    employees: number;
    equipment_level: number;
    production_rate: number;
    selected_recipe_id: number | null;
    selected_category: string | null;
  }>(sql`
    select b.id, b.type, b.city_id, c.country_id, b.employees, b.equipment_level, b.production_rate, b.selected_recipe_id, b.selected_category
    from buildings b join cities c on c.id = b.city_id
    where b.company_id = ${companyId} order by b.id`);
  const buildings: BotBuilding[] = [];
  for (const row of buildingRows) {
    if (!isBuildingType(row.type)) continue;
    buildings.push({
      id: n(row.id),
      type: row.type,
      cityId: n(row.city_id),
      countryId: n(row.country_id),
      employees: n(row.employees),
      equipmentLevel: n(row.equipment_level),
      productionRate: n(row.production_rate),
      selectedRecipeId: row.selected_recipe_id === null ? null : n(row.selected_recipe_id),
      selectedCategory: row.selected_category,
    });
  }
  const stockRows = await tx.execute<{ product_id: number; quantity: number; average_cost_cents: number }>(sql`
    select product_id, quantity, average_cost_cents from inventory_items
    where company_id = ${companyId} and quantity > 0 order by product_id`);
  const shelfRows = await tx.execute<{
    building_id: number;
    product_id: number;
    quantity: number;
    retail_price_cents: number;
    market_price_cents: number;
    is_active: boolean;
  }>(sql`
    select sp.building_id, sp.product_id, sp.quantity, sp.retail_price_cents,
           coalesce(cmd.market_price_cents, p.current_price_cents) as market_price_cents, sp.is_active
    from store_products sp
    join buildings b on b.id = sp.building_id
    join products p on p.id = sp.product_id
    left join city_market_data cmd on cmd.city_id = b.city_id and cmd.product_id = sp.product_id
    where b.company_id = ${companyId}
    order by sp.building_id, sp.product_id`);
  const shelves: BotShelf[] = shelfRows.map((row) => ({
    buildingId: n(row.building_id),
    productId: n(row.product_id),
    quantity: n(row.quantity),
    retailPriceCents: n(row.retail_price_cents),
    marketPriceCents: n(row.market_price_cents),
    isActive: row.is_active,
  }));

  // The three best-selling candidates in each store's city (its category, else any consumer category).
  let storeCandidates: StoreCandidate[] = [];
  if (buildings.some((building) => building.type === 'store')) {
    const rows = await tx.execute<{ building_id: number; product_id: number; market_price_cents: number; demand_level: number }>(sql`
      select building_id, product_id, market_price_cents, demand_level from (
        select b.id as building_id, cmd.product_id, cmd.market_price_cents, cmd.demand_level,
               row_number() over (partition by b.id order by cmd.demand_level desc, cmd.product_id) as rank
        from buildings b
        join city_market_data cmd on cmd.city_id = b.city_id
        join products p on p.id = cmd.product_id
        where b.company_id = ${companyId} and b.type = 'store'
          and (case when b.selected_category is not null then p.category = b.selected_category
                    else p.category in ('Food Products', 'Consumer Goods') end)
      ) ranked where rank <= 3 order by building_id, rank`);
    storeCandidates = rows.map((row) => ({
      buildingId: n(row.building_id),
      productId: n(row.product_id),
      marketPriceCents: n(row.market_price_cents),
      demandLevel: n(row.demand_level),
    }));
  }

  let cityDeals: CityDeal[] = [];
  if (options.cityDeals && buildings.some((building) => building.type !== 'store')) {
    const rows = await tx.execute<{ building_id: number; product_id: number; city_price_cents: number }>(sql`
      select distinct on (cmd.product_id) b.id as building_id, cmd.product_id, cmd.market_price_cents as city_price_cents
      from buildings b
      join city_market_data cmd on cmd.city_id = b.city_id
      join products p on p.id = cmd.product_id
      where b.company_id = ${companyId} and b.type <> 'store'
        and p.category in ('Raw Materials', 'Agricultural')
        and cmd.market_price_cents <= floor(p.current_price_cents * ${CITY_DEAL_MAX_RATIO}::numeric)
      order by cmd.product_id, cmd.market_price_cents, b.id`);
    cityDeals = rows
      .map((row) => ({ buildingId: n(row.building_id), productId: n(row.product_id), cityPriceCents: n(row.city_price_cents) }))
      .slice(0, 20);
  }

  const researchRows = await tx.execute<{ upgrade_id: number; building_type: string | null; effects: Record<string, ResearchEffectValue> }>(sql`
    select r.upgrade_id, u.building_type, u.effects from company_research r join research_upgrades u on u.id = r.upgrade_id
    where r.company_id = ${companyId} order by r.upgrade_id`);
  const influenceRows = await tx.execute<{ country_id: number; influence_points: number }>(sql`
    select country_id, influence_points from influence_records where company_id = ${companyId} order by country_id`);
  const portfolioRows = await tx.execute<{ issuer_company_id: number; shares_owned: number }>(sql`
    select issuer_company_id, shares_owned from portfolio_entries where holder_company_id = ${companyId} and shares_owned > 0 order by issuer_company_id`);

  return {
    id: companyId,
    strategy: bot.strategy,
    cashCents: n(company?.cash_cents),
    buildings,
    warehouse: new Map(
      stockRows.map((row) => [n(row.product_id), { productId: n(row.product_id), quantity: n(row.quantity), averageCostCents: n(row.average_cost_cents) }]),
    ),
    shelves,
    storeCandidates,
    cityDeals,
    researched: new Set(researchRows.map((row) => n(row.upgrade_id))),
    researchDiscountPercent: researchDiscountPercent(
      sumResearchEffects(researchRows.map((row) => ({ buildingType: row.building_type, effects: row.effects }))),
    ),
    influence: new Map(influenceRows.map((row) => [n(row.country_id), n(row.influence_points)])),
    portfolio: new Map(portfolioRows.map((row) => [n(row.issuer_company_id), n(row.shares_owned)])),
  };
}
