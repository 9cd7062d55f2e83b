/**
 * The taught chain: what the Learning Base teaches a new player. A farm (Wheat) in an agricultural
 * city, a mill (Wheat Flour) in a milling city, a bakery (White Bread) in a baking city and a store
 * in a big retail city, each staffed to 100% efficiency (8 hires: 9 employees). Every week, between
 * turns, as a player would:
 * - buys on the market what its buildings need for next week and it does not make (milk, sugar),
 *   or makes too little of;
 * - sells surplus wheat and flour (beyond next week's needs) on the market;
 * - puts its own bread on every store's shelf at the city's reference price (a sensible price:
 *   what shoppers there expect), about 1.3x what the shelf sold last week; bread its shelves cannot
 *   take is sold on the market (a week's worth is kept back for the shelves);
 * - grows while it sells (profit last week, cash above a reserve): a new store in the next biggest
 *   city when its bread piles up unsold, else the next production step (a farm when it buys wheat,
 *   a mill when it buys flour, else a bakery making another bread, so each city's demand for each
 *   bread is served).
 */
import { sql } from 'drizzle-orm';
import { BUILDING_TYPES, HIRE_COST_PER_EMPLOYEE, dollarsToCents, type BuildingType } from '@marketcraft/shared';
import { buildingForecast, act, getProductDetail } from '@marketcraft/db';
import {
  attempt,
  cashCents,
  referencePriceCents,
  searchPriceLevel,
  shelf,
  storesOf,
  warehouseUnits,
  type PriceLevel,
  type Strategy,
  type StrategyContext,
} from './common.ts';

/** Units of each bread a shelf is stocked to at least (more when it sold more). */
const SHELF_MINIMUM = 150;
/** Hires that bring a new building from 1 employee to 100% efficiency at equipment level 1. */
const HIRES = 8;
/** Cash the chain keeps: it grows only above this plus the new building's cost. */
const RESERVE_CENTS = dollarsToCents(150_000);

/** Breads a new bakery makes, in order (each product has its own demand in every city). */
const BREADS = ['White Bread', 'Bagels', 'Baguettes', 'Whole Wheat Bread', 'Rye Bread', 'Donuts', 'Cookies', 'Croissants', 'Muffins'];
/** Where each building type goes: cities whose bonus fits, best first. */
const SITES: Record<string, string[]> = {
  farm: ['Wheatfield', 'Harvest Vale', 'Sunreach', 'Amber Plains', 'Palmshore'],
  mill: ['Millbrook', 'Grainport', 'Flourmill Junction'],
  bakery: ['Ovenstead', 'Crumbleton', 'Loafton'],
  // The biggest cities first (demand grows with population), retail-bonus ones first among equals.
  store: [
    'Port Aldor',
    'Hesperia City',
    'Dunmore Bay',
    'Estavia Prime',
    'Castellan City',
    'Galvor',
    'New Iskandar',
    'Brevik',
    'Crownhaven',
    'Rivermouth',
    'Spiceport',
    'Steelhaven',
  ],
};

interface OwnedBuilding {
  id: number;
  type: BuildingType;
  product: string | null;
  /** Employees hired beyond the first (HIRES: 100% efficiency). */
  hired: number;
}

/** A product trading under this share of its base price is glutted: a chain reading the market buys it rather than making it. */
const GLUTTED_SHARE = 0.9;

/** Cash a small chain keeps for next week's inputs, wages and upkeep when it hires. */
const INPUTS_FLOOR_CENTS = dollarsToCents(10_000);

/**
 * `reference`: the taught chain, shelves at the city's reference price. `forecast`: the same chain
 * with each store's price level searched with its forecast, as the reseller does (searchPriceLevel):
 * the making strategy a min-maxer would play, the yardstick of the per-dollar target.
 * `siteOffset` starts it further down each list of sites, so two chains do not start in the same cities.
 */
export function chainStrategy(options: {
  name: string;
  pricing: 'reference' | 'forecast';
  siteOffset?: number;
  /** Cash kept before growing (default $150,000); a chain started with $100,000 keeps less. */
  reserveCents?: number;
  /**
   * `list` (default): the first bakery makes White Bread and the stores go down the list of big
   * cities. `market`: how a player joining a running world reads the market (docs/economy.md, "A late
   * joiner"): its first bakery makes the bread whose recipe earns most at this week's exchange prices
   * (the product page's recipe and prices: output x price - inputs x price), and each new store goes
   * where that bread's product page shows the most shoppers no store served last week.
   */
  reading?: 'list' | 'market';
  /**
   * Build or buy (with `market`): at its founding it builds the farm and the mill only for a grain and
   * flour the exchange is not glutted with (under GLUTTED_SHARE of the base price); it buys the rest, and
   * its growth adds those steps when its purchases call for them (the taught chain built from the store back).
   */
  buildOrBuy?: boolean;
}): Strategy {
  const { name, pricing, siteOffset = 0, reserveCents = RESERVE_CENTS, reading = 'list', buildOrBuy = false } = options;
  /** The breads its bakeries make, in order (the first one chosen by the market when `reading` is `market`). */
  const breads = [...BREADS];
  /** What its mill makes and its farm grows: what its first bread is baked from (`market`), else the taught Wheat Flour and Wheat. */
  let flour = 'Wheat Flour';
  let grain = 'Wheat';
  const owned: OwnedBuilding[] = [];
  const priceLevels = new Map<number, PriceLevel>();
  let soldOnMarketLastWeek = 0;
  let finishedMadeLastWeek = 0;
  const boughtLastWeek = new Map<string, number>();
  let built = 0;
  /** Buildings it built at its founding (four, or fewer when it bought what the exchange is glutted with). */
  let foundedWith = 0;

  /**
   * The bread whose bakery recipe earns most a week at this week's exchange prices: first in its list;
   * then the chain behind it: its mill makes the flour that bread is baked from (the mill-made input it
   * uses most: Whole Wheat Flour for Whole Wheat Bread) and its farm grows that flour's grain.
   */
  async function chooseFirstBread(ctx: StrategyContext): Promise<void> {
    const rows = await ctx.db.execute<{ name: string; margin: number }>(sql`
      select p.name, r.output_quantity * wp.current_price_cents
               - coalesce((select sum(ri.quantity * iwp.current_price_cents) from recipe_inputs ri
                           join world_products iwp on iwp.world_id = wp.world_id and iwp.product_id = ri.product_id where ri.recipe_id = r.id), 0) as margin
      from recipes r join products p on p.id = r.output_product_id join world_products wp on wp.product_id = p.id
      where wp.world_id = (select world_id from companies where id = ${ctx.companyId})
        and r.building_type = 'bakery' and p.name in ${sql`(${sql.join(
          BREADS.map((bread) => sql`${bread}`),
          sql`, `,
        )})`}
      order by margin desc, p.name limit 1`);
    const best = rows[0]?.name;
    if (best) breads.splice(0, breads.length, best, ...BREADS.filter((bread) => bread !== best));
    flour = (await mainInputMadeBy(ctx, 'bakery', breads[0]!, 'mill')) ?? flour;
    grain = (await mainInputMadeBy(ctx, 'mill', flour, 'farm')) ?? grain;
  }

  /** The input of `product`'s `type` recipe that a `maker` building makes, the one it uses most of. */
  async function mainInputMadeBy(ctx: StrategyContext, type: BuildingType, product: string, maker: BuildingType): Promise<string | undefined> {
    const rows = await ctx.db.execute<{ name: string }>(sql`
      select p.name from recipe_inputs ri join products p on p.id = ri.product_id
      where ri.recipe_id = ${ctx.catalogue.recipeId(type, product)}
        and exists (select 1 from recipes m where m.building_type = ${maker} and m.output_product_id = ri.product_id)
      order by ri.quantity desc, p.name limit 1`);
    return rows[0]?.name;
  }

  /**
   * Whether the exchange is glutted with `product` (its price under GLUTTED_SHARE of its base): a player
   * reading the market buys it there rather than building the step that makes it (the product page shows
   * both prices). In week 1 every price is its base, so the chain builds all four steps, as taught.
   */
  async function glutted(ctx: StrategyContext, product: string): Promise<boolean> {
    const productId = ctx.catalogue.productId(product);
    const [row] = await ctx.db.execute<{ price: number }>(sql`
      select wp.current_price_cents as price from world_products wp
      where wp.product_id = ${productId} and wp.world_id = (select world_id from companies where id = ${ctx.companyId})`);
    const base = ctx.catalogue.products.find((item) => item.id === productId)!.basePriceCents;
    return Number(row?.price ?? base) < GLUTTED_SHARE * base;
  }

  /**
   * Where its next store goes, from its first bread's product page (Price in Each City): among the
   * cities (not yet one of its stores') whose unserved shoppers a week could take its bread, the one
   * where shoppers pay most; when none could, the one with the most unserved shoppers.
   */
  async function unservedCity(ctx: StrategyContext): Promise<number> {
    const detail = await getProductDetail(ctx.db, ctx.companyId, ctx.catalogue.productId(breads[0]!));
    const mine = new Set((await storesOf(ctx.db, ctx.companyId)).map((store) => store.cityId));
    const open = detail.cities.filter((city) => !mine.has(city.city_id));
    const room = open.filter((city) => city.unserved_demand >= Math.max(SHELF_MINIMUM, finishedMadeLastWeek));
    const best = room.length
      ? room.sort((a, b) => b.market_price - a.market_price || a.city_id - b.city_id)[0]
      : open.sort((a, b) => b.unserved_demand - a.unserved_demand || a.city_id - b.city_id)[0];
    if (!best) throw new Error('no city left for a store');
    return best.city_id;
  }

  /**
   * `BENCH_TRACE='<strategy name>|...'`: one line a week on stderr (cash, net worth, last week's profit,
   * staff, and per store and bread its price against the city's reference price, units sold and on the
   * shelf, the city's shoppers, stores and unserved shoppers): how to see what holds a chain back.
   */
  const tracing = (process.env.BENCH_TRACE ?? '').split('|').includes(name);
  async function trace(ctx: StrategyContext, week: number): Promise<void> {
    const [company] = await ctx.db.execute<{ seed: number; cash: number; worth: number | null; profit: number | null; staff: number }>(sql`
      select (select seed from worlds w where w.id = c.world_id) as seed, c.cash_cents as cash,
             (select net_worth_cents from financial_history f where f.company_id = c.id order by week desc limit 1) as worth,
             (select profit_cents from financial_history f where f.company_id = c.id order by week desc limit 1) as profit,
             (select coalesce(sum(employees), 0) from buildings b where b.company_id = c.id)::int as staff
      from companies c where c.id = ${ctx.companyId}`);
    const dollars = (cents: unknown) => `$${Math.round(Number(cents ?? 0) / 100)}`;
    const parts = [`cash ${dollars(company?.cash)}`, `worth ${dollars(company?.worth)}`, `profit ${dollars(company?.profit)}`, `staff ${company?.staff}`];
    for (const store of await storesOf(ctx.db, ctx.companyId)) {
      for (const bread of new Set(owned.filter((item) => item.type === 'bakery').map((item) => item.product!))) {
        const productId = ctx.catalogue.productId(bread);
        const current = await shelf(ctx.db, store.id, productId);
        const reference = await referencePriceCents(ctx.db, store.cityId, productId);
        const [price] = await ctx.db.execute<{ price: number }>(sql`
          select retail_price_cents as price from store_products where building_id = ${store.id} and product_id = ${productId}`);
        const city = (await getProductDetail(ctx.db, ctx.companyId, productId)).cities.find((row) => row.city_id === store.cityId);
        parts.push(
          `${bread}@${city?.city_name ?? store.cityId}: ${dollars(price?.price)} (R ${dollars(reference)}) sold ${current.soldLastTurn} shelf ${current.quantity}` +
            ` city ${city?.weekly_demand ?? '?'} shoppers ${city?.stores_selling ?? '?'} stores ${city?.sold_last_week ?? '?'} sold ${city?.unserved_demand ?? '?'} unserved`,
        );
      }
    }
    parts.push(`market-sold ${soldOnMarketLastWeek} of ${finishedMadeLastWeek}`);
    console.error(`[trace] seed ${company?.seed} ${name} week ${week}: ${parts.join('; ')}`);
  }

  async function build(ctx: StrategyContext, type: BuildingType, product: string | null): Promise<boolean> {
    const count = owned.filter((building) => building.type === type).length;
    const sites = SITES[type]!;
    const cityId = type === 'store' && reading === 'market' ? await unservedCity(ctx) : ctx.catalogue.cityId(sites[(count + siteOffset) % sites.length]!);
    const building = await attempt(ctx, `build ${type}`, () =>
      act(ctx.db, 'buildBuilding', { companyId: ctx.companyId, actingUserId: null, input: { type, city_id: cityId } }),
    );
    if (!building) return false;
    if (product)
      await attempt(ctx, 'select recipe', () =>
        act(ctx.db, 'selectRecipe', {
          companyId: ctx.companyId,
          actingUserId: null,
          input: { id: building.id, recipe_id: ctx.catalogue.recipeId(type, product) },
        }),
      );
    owned.push({ id: building.id, type, product, hired: 0 });
    built += 1;
    return true;
  }

  /** Staffs its buildings to 100% as far as cash allows (a chain started small hires as it earns), oldest first. */
  async function hire(ctx: StrategyContext, floorCents: number): Promise<void> {
    for (const building of owned) {
      const missing = HIRES - building.hired;
      if (missing <= 0) continue;
      const affordable = Math.min(missing, Math.floor(((await cashCents(ctx.db, ctx.companyId)) - floorCents) / dollarsToCents(HIRE_COST_PER_EMPLOYEE)));
      if (affordable <= 0) return;
      if (
        await attempt(ctx, 'hire', () =>
          act(ctx.db, 'hireEmployees', { companyId: ctx.companyId, actingUserId: null, input: { id: building.id, count: affordable } }),
        )
      )
        building.hired += affordable;
    }
  }

  async function lastWeekProfitCents(ctx: StrategyContext): Promise<number> {
    const [row] = await ctx.db.execute<{ profit_cents: number }>(sql`
      select profit_cents from financial_history where company_id = ${ctx.companyId} order by week desc limit 1`);
    return Number(row?.profit_cents ?? 0);
  }

  async function grow(ctx: StrategyContext): Promise<void> {
    if ((await lastWeekProfitCents(ctx)) <= 0) return;
    const unsoldShare = finishedMadeLastWeek > 0 ? soldOnMarketLastWeek / finishedMadeLastWeek : 0;
    let type: BuildingType;
    let product: string | null = null;
    if (unsoldShare > 0.3) type = 'store';
    else if ((boughtLastWeek.get(grain) ?? 0) > 300) [type, product] = ['farm', grain];
    else if ((boughtLastWeek.get(flour) ?? 0) > 150) [type, product] = ['mill', flour];
    else {
      const bakeries = owned.filter((building) => building.type === 'bakery').length;
      if (bakeries >= breads.length) return;
      [type, product] = ['bakery', breads[bakeries]!];
    }
    if (owned.some((building) => building.hired < HIRES)) return;
    const costCents = dollarsToCents(BUILDING_TYPES[type].constructionCost + HIRES * HIRE_COST_PER_EMPLOYEE);
    if ((await cashCents(ctx.db, ctx.companyId)) < reserveCents + costCents) return;
    if (await build(ctx, type, product)) await hire(ctx, INPUTS_FLOOR_CENTS);
  }

  return {
    name,
    kind: 'making',
    figures: () => ({
      buildings: String(owned.length),
      'built during the run': String(built - foundedWith),
      ...(reading === 'market' ? { 'first bread': breads[0]!, 'founded with': `${foundedWith} buildings (${[grain, flour].join(', ')})` } : {}),
      ...(pricing === 'forecast' ? { 'price levels': [...priceLevels.values()].map((level) => `${level.multiple.toFixed(2)}x`).join(' ') } : {}),
    }),
    play: async (ctx, week) => {
      if (tracing) await trace(ctx, week);
      if (owned.length === 0) {
        if (reading === 'market') await chooseFirstBread(ctx);
        // Reading the market, it builds the steps behind its bakery only for what the exchange is not
        // glutted with; it buys the rest, and its growth adds the mill and the farm when its purchases call for them.
        if (!buildOrBuy || !(await glutted(ctx, grain))) await build(ctx, 'farm', grain);
        if (!buildOrBuy || !(await glutted(ctx, flour))) await build(ctx, 'mill', flour);
        await build(ctx, 'bakery', breads[0]!);
        await build(ctx, 'store', null);
        await hire(ctx, INPUTS_FLOOR_CENTS);
        foundedWith = built;
      } else {
        // A chain that could not staff its buildings at the start hires from its profits first.
        await hire(ctx, reserveCents);
        await grow(ctx);
      }
      const { db, companyId, catalogue } = ctx;

      // Next week's needs of every production building (the forecast is the turn's own plan).
      const needs = new Map<number, number>();
      for (const building of owned.filter((item) => item.type !== 'store')) {
        const forecast = await buildingForecast(db, companyId, building.id);
        for (const input of forecast.inputs) needs.set(input.product_id, (needs.get(input.product_id) ?? 0) + input.needed);
      }
      boughtLastWeek.clear();
      for (const [productId, needed] of needs) {
        const missing = needed - (await warehouseUnits(db, companyId, productId));
        if (missing > 0) {
          const bought = await attempt(ctx, 'buy inputs', () =>
            act(db, 'marketTrade', { companyId, actingUserId: null, input: { product_id: productId, quantity: missing, action: 'buy' } }),
          );
          if (bought) boughtLastWeek.set(bought.product_name, missing);
        }
      }
      // Surplus intermediate goods (made by one step, beyond what the next step needs) go to the market.
      for (const productName of [grain, flour]) {
        const productId = catalogue.productId(productName);
        const surplus = (await warehouseUnits(db, companyId, productId)) - (needs.get(productId) ?? 0);
        if (surplus > 0)
          await attempt(ctx, 'sell surplus', () =>
            act(db, 'marketTrade', { companyId, actingUserId: null, input: { product_id: productId, quantity: surplus, action: 'sell' } }),
          );
      }

      // Finished bread onto the shelves at the reference price; what the shelves cannot take, to the market.
      const stores = await storesOf(db, companyId);
      soldOnMarketLastWeek = 0;
      finishedMadeLastWeek = 0;
      for (const bread of new Set(owned.filter((item) => item.type === 'bakery').map((item) => item.product!))) {
        const productId = catalogue.productId(bread);
        let available = await warehouseUnits(db, companyId, productId);
        finishedMadeLastWeek += available;
        for (const store of stores) {
          if (available <= 0) break;
          const current = await shelf(db, store.id, productId);
          const target = Math.max(SHELF_MINIMUM, Math.ceil(current.soldLastTurn * 1.3));
          const quantity = Math.min(available, target - current.quantity);
          if (quantity <= 0) continue;
          const level = priceLevels.get(store.id)?.multiple ?? 1;
          const price = Math.round((await referencePriceCents(db, store.cityId, productId)) * level);
          const moved = await attempt(ctx, 'shelve bread', () =>
            act(db, 'transferToStore', { companyId, actingUserId: null, input: { id: store.id, product_id: productId, quantity, retail_price: price / 100 } }),
          );
          if (moved) available -= quantity;
        }
        if (available > 0) {
          const sold = await attempt(ctx, 'sell bread on the market', () =>
            act(db, 'marketTrade', { companyId, actingUserId: null, input: { product_id: productId, quantity: available, action: 'sell' } }),
          );
          if (sold) soldOnMarketLastWeek += available;
        }
      }
      if (pricing === 'forecast') {
        for (const store of stores) {
          if (!priceLevels.has(store.id)) priceLevels.set(store.id, { multiple: 1, step: 1.1 });
          // Each store re-prices every other week (half of them each week).
          if ((week + store.id) % 2 === 0) await searchPriceLevel(ctx, store.id, priceLevels.get(store.id)!, { min: 0.8, max: 2.9 });
        }
      }
    },
  };
}
