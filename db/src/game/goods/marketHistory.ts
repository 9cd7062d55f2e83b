/**
 * The market as a table and a product page (GET /market/products, GET /market/products/{id}):
 * prices, this week's change, a sparkline of the recent weeks, what the player holds, and for a
 * product its price history, its price in each city and the recipes one step each way.
 *
 * Prices per week: product_price_history holds the price each product was posted at during a week
 * (the turn of week N records week N's before moving it, worker/src/turn/markets.ts); the current
 * week's price is the product's current price.
 */
import { sql } from 'drizzle-orm';
import {
  BUILDING_TYPES,
  GameError,
  SPARKLINE_WEEKS,
  centsToDollars,
  isBuildingType,
  priceChangePercent,
  type ProductCategory,
  type BuildingType,
  type MarketProductView,
  type ProductDetailView,
  type RecipeStepView,
} from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { companyWorld, currentWeek } from '../clock/state.ts';
import { PRODUCT_NOT_FOUND } from './stock.ts';
import { cityMarketsSql, demandShocksSql, shockedBaseDemandSql, unitBuyCentsSql, unitSellCentsSql, worldProductsSql } from './prices.ts';

/** Weeks a product's or a company's history chart shows. */
const PRICE_HISTORY_WEEKS = 52;

const typeName = (type: string) => (isBuildingType(type) ? BUILDING_TYPES[type].name : type);

/** GET /market/products: every product with its prices, this week's change, its sparkline and your holding. */
export async function listMarketProducts(db: DbExecutor, companyId: number): Promise<MarketProductView[]> {
  const worldId = await companyWorld(db, companyId);
  const week = await currentWeek(db, worldId);
  const rows = await db.execute<{
    id: number;
    name: string;
    category: ProductCategory;
    subcategory: string;
    current_price_cents: number;
    base_price_cents: number;
    buy_cents: number;
    sell_cents: number;
    previous_cents: number | null;
    history: Array<{ week: number; price_cents: number }> | null;
    held: number | null;
  }>(sql`
    select p.id, p.name, p.category, p.subcategory, p.current_price_cents, p.base_price_cents,
           ${unitBuyCentsSql} as buy_cents, ${unitSellCentsSql} as sell_cents,
           (select h.price_cents from product_price_history h where h.world_id = p.world_id and h.product_id = p.id and h.week = ${week - 1}) as previous_cents,
           (select json_agg(json_build_object('week', h.week, 'price_cents', h.price_cents) order by h.week)
              from product_price_history h
              where h.world_id = p.world_id and h.product_id = p.id and h.week > ${week - SPARKLINE_WEEKS} and h.week < ${week}) as history,
           i.quantity as held
    from ${worldProductsSql(worldId, { weekFlow: true })} p
    left join inventory_items i on i.world_id = p.world_id and i.product_id = p.id and i.company_id = ${companyId}
    order by p.name`);
  return rows.map((row) => {
    const currentCents = Number(row.current_price_cents);
    const previous = row.previous_cents === null ? null : Number(row.previous_cents);
    return {
      id: Number(row.id),
      name: row.name,
      category: row.category,
      subcategory: row.subcategory,
      buy_price: centsToDollars(Number(row.buy_cents)),
      sell_price: centsToDollars(Number(row.sell_cents)),
      current_price: centsToDollars(currentCents),
      base_price: centsToDollars(Number(row.base_price_cents)),
      change_percent: previous === null ? null : priceChangePercent(currentCents, previous),
      sparkline: [...(row.history ?? []).map((point) => centsToDollars(Number(point.price_cents))), centsToDollars(currentCents)],
      held: Number(row.held ?? 0),
    };
  });
}

async function recipeSteps(db: DbExecutor, where: ReturnType<typeof sql>): Promise<RecipeStepView[]> {
  const rows = await db.execute<{
    recipe_id: number;
    building_type: BuildingType; // a foreign key to building_types
    output_product_id: number;
    output_product_name: string;
    output_quantity: number;
    inputs: Array<{ product_id: number; product_name: string; quantity: number }> | null;
  }>(sql`
    select r.id as recipe_id, r.building_type, r.output_product_id, p.name as output_product_name, r.output_quantity,
           (select json_agg(json_build_object('product_id', ri.product_id, 'product_name', ip.name, 'quantity', ri.quantity) order by ip.name)
              from recipe_inputs ri join products ip on ip.id = ri.product_id where ri.recipe_id = r.id) as inputs
    from recipes r join products p on p.id = r.output_product_id
    where ${where}
    order by r.building_type, p.name, r.id`);
  return rows.map((row) => ({
    recipe_id: Number(row.recipe_id),
    building_type: row.building_type,
    building_name: typeName(row.building_type),
    output_product_id: Number(row.output_product_id),
    output_product_name: row.output_product_name,
    output_quantity: Number(row.output_quantity),
    inputs: (row.inputs ?? []).map((input) => ({ product_id: Number(input.product_id), product_name: input.product_name, quantity: Number(input.quantity) })),
  }));
}

/** GET /market/products/{id}: one product's prices, history, city prices and recipes one step each way. */
export async function getProductDetail(db: DbExecutor, companyId: number, productId: number): Promise<ProductDetailView> {
  const product = (await listMarketProducts(db, companyId)).find((candidate) => candidate.id === productId);
  if (!product) throw new GameError('NOT_FOUND', PRODUCT_NOT_FOUND);
  const worldId = await companyWorld(db, companyId);
  const week = await currentWeek(db, worldId);
  const history = await db.execute<{ week: number; price_cents: number }>(sql`
    select week, price_cents from product_price_history
    where world_id = ${worldId} and product_id = ${productId} and week > ${week - PRICE_HISTORY_WEEKS} and week < ${week}
    order by week`);
  // The same demand the turn's shoppers' split starts from (salesPlan: baseDemandRule with the week's
  // shock; aliases ci, cmd, p, ds), beside the stores that sell the product in each city now.
  const cities = await db.execute<{
    city_id: number;
    city_name: string;
    country_name: string;
    market_price_cents: number;
    demand_level: number;
    weekly_demand: number;
    stores_selling: number;
    sold_last_week: number;
  }>(sql`
    select ci.id as city_id, ci.name as city_name, co.name as country_name, cmd.market_price_cents, cmd.demand_level,
           floor(${shockedBaseDemandSql})::int as weekly_demand,
           coalesce(shelves.stores, 0)::int as stores_selling, coalesce(shelves.sold, 0)::int as sold_last_week
    from ${cityMarketsSql(worldId)} cmd join cities ci on ci.id = cmd.city_id join countries co on co.id = ci.country_id
    join products p on p.id = cmd.product_id
    left join ${demandShocksSql(worldId)} ds on ds.product_id = cmd.product_id
    left join (
      select b.city_id, count(distinct b.id) filter (where sp.quantity > 0) as stores, sum(sp.units_sold_last_turn) as sold
      from store_products sp join buildings b on b.world_id = sp.world_id and b.id = sp.building_id
      join companies owner on owner.id = b.company_id
      where sp.world_id = ${worldId} and sp.product_id = ${productId} and sp.is_active and b.type = 'store' and owner.status = 'active'
      group by b.city_id
    ) shelves on shelves.city_id = ci.id
    where cmd.product_id = ${productId}
    order by cmd.market_price_cents desc, ci.name`);
  const { sparkline: _sparkline, ...rest } = product;
  return {
    ...rest,
    history: [...history.map((row) => ({ week: Number(row.week), price: centsToDollars(Number(row.price_cents)) })), { week, price: product.current_price }],
    cities: cities.map((row) => ({
      city_id: Number(row.city_id),
      city_name: row.city_name,
      country_name: row.country_name,
      market_price: centsToDollars(Number(row.market_price_cents)),
      demand_level: Number(row.demand_level),
      weekly_demand: Number(row.weekly_demand),
      stores_selling: Number(row.stores_selling),
      sold_last_week: Number(row.sold_last_week),
      unserved_demand: Math.max(0, Number(row.weekly_demand) - Number(row.sold_last_week)),
    })),
    made_by: await recipeSteps(db, sql`r.output_product_id = ${productId}`),
    used_by: await recipeSteps(db, sql`exists (select 1 from recipe_inputs x where x.recipe_id = r.id and x.product_id = ${productId})`),
  };
}
