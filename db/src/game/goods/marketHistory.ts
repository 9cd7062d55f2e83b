/**
 * The market as a table and a product page (GET /market/products, GET /market/products/{id}) and
 * the stock exchange's table (GET /stocks/overview): prices, this week's change, a sparkline of the
 * recent weeks, what the player holds, and for a product its price history, its price in each city
 * and the recipes one step each way.
 *
 * Prices per week: product_price_history holds the price each product was posted at during a week
 * (the turn of week N records week N's before moving it, worker/src/turn/markets.ts); the current
 * week's price is the product's current price. Share prices come from
 * stock_price_history, as GET /stocks/history.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  BUILDING_TYPES,
  GameError,
  SPARKLINE_WEEKS,
  centsToDollars,
  isBuildingType,
  priceChangePercent,
  type StockOverviewPage,
  type StockOverviewSort,
  type ProductCategory,
  type BuildingType,
  type MarketProductView,
  type ProductDetailView,
  type RecipeStepView,
  type StockOverview,
  type StockOverviewView,
} from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { companyWorld, currentWeek } from '../clock/state.ts';
import { PRODUCT_NOT_FOUND } from './stock.ts';
import { cityMarketsSql, unitBuyCentsSql, unitSellCentsSql, worldProductsSql } from './prices.ts';
import { countListedCompanies, getPortfolio } from '../shares/stocks.ts';
import { companyFilterSql, pageSql } from '../companies/lists.ts';
import { demandShocksSql, shockedBaseDemandSql } from '../retail/salesPlan.ts';

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

/**
 * The order of the overview's table: the column, then name, then id (stable across pages). "change"
 * is the last two recorded prices' change (as change_percent reports it); companies with fewer than
 * two recorded prices have none and come last either way.
 */
function overviewOrderKeySql(sort: StockOverviewSort): SQL {
  switch (sort) {
    case 'company_name':
      return sql`c.name`;
    case 'share_price':
      return sql`s.share_price_cents`;
    case 'market_cap':
      return sql`s.share_price_cents::bigint * s.total_shares`;
    case 'change_percent':
      return sql`case when last2.prices[2] > 0 then (last2.prices[1] - last2.prices[2])::numeric / last2.prices[2]
                      when last2.prices[2] is not null then 0 end`;
  }
}

/** GET /stocks/overview: a page of the listed companies with price, change, sparkline, market value and your position's gain; your portfolio's totals. */
export async function listStockOverview(db: DbExecutor, companyId: number, page: StockOverviewPage): Promise<StockOverview> {
  const worldId = await companyWorld(db, companyId);
  const direction = sql.raw(page.order === 'desc' ? 'desc' : 'asc');
  const rows = await db.execute<{
    company_id: number;
    company_name: string;
    is_bot: boolean;
    share_price_cents: number;
    total_shares: number;
    history: Array<{ week: number; price_cents: number }> | null;
  }>(sql`
    select p.company_id, p.company_name, p.is_bot, p.share_price_cents, p.total_shares,
           (select json_agg(json_build_object('week', recent.week, 'price_cents', recent.price_cents) order by recent.week)
              from (select week, price_cents from stock_price_history h where h.world_id = ${worldId} and h.company_id = p.company_id order by week desc limit ${SPARKLINE_WEEKS}) recent) as history
    from (
      select c.id as company_id, c.name as company_name, c.is_bot, s.share_price_cents, s.total_shares, ${overviewOrderKeySql(page.sort)} as sort_key
      from share_records s join companies c on c.world_id = s.world_id and c.id = s.company_id
      left join lateral (
        select array_agg(price_cents order by week desc) as prices
        from (select week, price_cents from stock_price_history h where h.world_id = s.world_id and h.company_id = s.company_id order by week desc limit 2) two
      ) last2 on true
      where s.world_id = ${worldId} and s.is_listed and c.status = 'active' and ${companyFilterSql('c', page)}
      order by sort_key ${direction} nulls last, c.name, c.id
      ${pageSql(page)}
    ) p
    order by p.sort_key ${direction} nulls last, p.company_name, p.company_id`);
  // The position's value is the portfolio's own (GET /api/portfolio): one definition of what shares are worth.
  const portfolio = await getPortfolio(db, companyId);
  const positions = new Map(portfolio.map((entry) => [entry.company_id, entry]));
  const companies = rows.map((row): StockOverviewView => {
    const priceCents = Number(row.share_price_cents);
    const history = (row.history ?? []).map((point) => Number(point.price_cents));
    const previous = history.length >= 2 ? history[history.length - 2]! : null;
    const latest = history.length >= 1 ? history[history.length - 1]! : null;
    const entry = positions.get(Number(row.company_id));
    let position: StockOverviewView['position'] = null;
    if (entry) {
      const costCents = Math.round(entry.average_price * 100) * entry.shares_owned;
      const gainCents = Math.round(entry.value * 100) - costCents;
      position = {
        shares_owned: entry.shares_owned,
        average_price: entry.average_price,
        value: entry.value,
        cost: centsToDollars(costCents),
        gain: centsToDollars(gainCents),
        gain_percent: costCents > 0 ? Math.round((gainCents / costCents) * 10_000) / 100 : null,
      };
    }
    return {
      company_id: Number(row.company_id),
      company_name: row.company_name,
      is_bot: row.is_bot,
      is_you: Number(row.company_id) === companyId,
      share_price: centsToDollars(priceCents),
      total_shares: Number(row.total_shares),
      market_cap: centsToDollars(priceCents * Number(row.total_shares)),
      change_percent: previous !== null && latest !== null ? priceChangePercent(latest, previous) : null,
      // Each turn records the price it set, so the last recorded price is the current one (until trades move it).
      sparkline: history.length > 0 ? history.map((cents) => centsToDollars(cents)) : [centsToDollars(priceCents)],
      position,
    };
  });
  // Totals over every position, listed or not (a delisted company's shares are still held).
  const valueCents = portfolio.reduce((sum, entry) => sum + Math.round(entry.value * 100), 0);
  const costCents = portfolio.reduce((sum, entry) => sum + Math.round(entry.average_price * 100) * entry.shares_owned, 0);
  return {
    companies,
    total: await countListedCompanies(db, worldId, page),
    limit: page.limit,
    offset: page.offset,
    portfolio: {
      shares: portfolio.reduce((sum, entry) => sum + entry.shares_owned, 0),
      value: centsToDollars(valueCents),
      cost: centsToDollars(costCents),
      gain: centsToDollars(valueCents - costCents),
    },
  };
}
