/**
 * The reseller: makes nothing. It opens stores in the biggest retail cities (staffed to 100%),
 * buys finished goods (food, consumer and luxury goods) through each store's Trade Hall (the
 * exchange, into the back room) and shelves them. Each store carries
 * the products whose reference price there is highest over the market price (the best margins a
 * player can read off the city's price list), restocked to about 1.3x what sold last week when under 70% of that. Each
 * store's price level is searched week by week with its forecast (searchPriceLevel: the margin a
 * min-maxer would chase). It grows (another store) while it earns, like the chain.
 */
import { sql } from 'drizzle-orm';
import { BUILDING_TYPES, MAX_STORE_PRODUCTS, dollarsToCents } from '@marketcraft/shared';
import { cityMarketsSql, isConsumerGoodSql, worldProductsSql, act } from '@marketcraft/db';
import { attempt, cashCents, searchPriceLevel, shelf, type PriceLevel, type Strategy, type StrategyContext } from './common.ts';

const HIRES = 8;
const RESERVE_CENTS = dollarsToCents(150_000);
/** Products one store carries: as many as the game lets a store sell at once. */
const PRODUCTS_PER_STORE = MAX_STORE_PRODUCTS;
/** Units shelved of a product the first time (its sales then set the restocking). */
const FIRST_STOCK_VALUE_CENTS = dollarsToCents(6_000);
/** The biggest cities, retail-bonus ones first among the biggest (demand grows with population). */
const CITIES = [
  'Hesperia City',
  'Port Aldor',
  'Dunmore Bay',
  'Estavia Prime',
  'Castellan City',
  'Galvor',
  'New Iskandar',
  'Brevik',
  'Rivermouth',
  'Crownhaven',
  'Spiceport',
  'Steelhaven',
  'Gearford',
  'Silkport',
  'Fenwick',
  'Sugarcoast',
  'Forgehollow',
  'Rosedale',
  'Grainport',
  'Coral Harbor',
];

interface Store {
  id: number;
  /** The decoy store beside it (ResellerOptions.decoy). */
  decoyId?: number;
  cityId: number;
  /** Its shelves' price level (x the city's reference price), searched with the store's forecast. */
  price: PriceLevel;
  products: { productId: number; referenceCents: number; marketCents: number }[];
}

/** Products with units on a store's shelves (a store sells at most MAX_STORE_PRODUCTS at once). */
async function productsOnShelves(db: StrategyContext['db'], storeId: number): Promise<number> {
  const [row] = await db.execute<{ n: number }>(sql`select count(*)::int as n from store_products where building_id = ${storeId} and quantity > 0`);
  return Number(row?.n ?? 0);
}

/**
 * How the reseller chooses its 6 products in a city:
 * - `margin`: the finished goods (food, consumer and luxury goods) with the highest reference price
 *   over the market price (the best margins on the city's price list);
 * - `demand`: the finished goods shoppers there want most: the biggest weekly demand in dollars at
 *   the reference price (the city's demand level x the price over its base). The economy audit's
 *   careful reseller (1.68x the best maker per dollar before the wholesale margin); it starts its
 *   shelves at 1.6x the reference price (full stores).
 * Stores sell consumer goods only (docs/economy.md, "Store sales"): both pick among them.
 */
export interface ResellerOptions {
  name: string;
  pick: 'margin' | 'demand';
  /** Start this many places down the list of cities (two resellers do not open side by side). */
  siteOffset?: number;
  /** The first price level (x the reference price) its stores' price search starts from. */
  startMultiple?: number;
  /**
   * The decoy play (a min-maxer's probe of the shoppers' rule): beside each store, a second store in
   * the same city (no hires) carries one unit of each of its products at $0.01, restocked every
   * week: the cheap shelf pulls the city's average price down (so the city buys up to 2x its
   * demand) and runs out at once, and the shoppers it could not serve go to the real store.
   */
  decoy?: boolean;
}

export function resellerStrategy(options: ResellerOptions = { name: 'reseller', pick: 'margin' }): Strategy {
  const stores: Store[] = [];

  /** The city's 6 products to carry (ResellerOptions.pick). */
  async function bestProducts(ctx: StrategyContext, cityId: number): Promise<Store['products']> {
    const order =
      options.pick === 'demand'
        ? sql`cmd.demand_level::float8 * p.current_price_cents / p.base_price_cents desc`
        : sql`cmd.market_price_cents::float8 / p.current_price_cents desc`;
    const rows = await ctx.db.execute<{ product_id: number; reference_cents: number; market_cents: number }>(sql`
      select cmd.product_id, cmd.market_price_cents as reference_cents, p.current_price_cents as market_cents
      from ${cityMarketsSql(1)} cmd join ${worldProductsSql(1)} p on p.id = cmd.product_id
      where cmd.world_id = 1 and cmd.city_id = ${cityId} and ${isConsumerGoodSql(sql`p.category`)}
      order by ${order}, p.id
      limit ${PRODUCTS_PER_STORE}`);
    return rows.map((row) => ({ productId: Number(row.product_id), referenceCents: Number(row.reference_cents), marketCents: Number(row.market_cents) }));
  }

  async function openStore(ctx: StrategyContext): Promise<void> {
    const cityId = ctx.catalogue.cityId(CITIES[(stores.length + (options.siteOffset ?? 0)) % CITIES.length]!);
    const building = await attempt(ctx, 'build store', () =>
      act(ctx.db, 'buildBuilding', { companyId: ctx.companyId, actingUserId: null, input: { type: 'store', city_id: cityId } }),
    );
    if (!building) return;
    await attempt(ctx, 'hire', () => act(ctx.db, 'hireEmployees', { companyId: ctx.companyId, actingUserId: null, input: { id: building.id, count: HIRES } }));
    let decoyId: number | undefined;
    if (options.decoy)
      decoyId = (
        await attempt(ctx, 'build decoy store', () =>
          act(ctx.db, 'buildBuilding', { companyId: ctx.companyId, actingUserId: null, input: { type: 'store', city_id: cityId } }),
        )
      )?.id;
    stores.push({ id: building.id, decoyId, cityId, price: { multiple: options.startMultiple ?? 1, step: 1.1 }, products: await bestProducts(ctx, cityId) });
  }

  return {
    name: options.name,
    kind: 'retail',
    figures: () => ({
      stores: String(stores.length),
      'price levels': stores.map((store) => `${store.price.multiple.toFixed(2)}x`).join(' '),
    }),
    play: async (ctx, week) => {
      const { db, companyId } = ctx;
      if (stores.length === 0) await openStore(ctx);
      else {
        const [last] = await db.execute<{ profit_cents: number }>(sql`
          select profit_cents from financial_history where company_id = ${companyId} order by week desc limit 1`);
        const costCents = dollarsToCents(BUILDING_TYPES.store.constructionCost * (options.decoy ? 2 : 1) + HIRES * 5_000);
        if (Number(last?.profit_cents ?? 0) > 0 && stores.length < CITIES.length && (await cashCents(db, companyId)) >= RESERVE_CENTS + costCents) {
          await openStore(ctx);
        }
      }
      for (const store of stores) {
        // The price list is read again every 5 weeks (prices drift). A store sells at most
        // MAX_STORE_PRODUCTS products at once: products still on its shelves stay until they sell
        // out (still restocked while chosen), the best others take the free places.
        if (week % 5 === 0) {
          const best = await bestProducts(ctx, store.cityId);
          const onShelf: Store['products'] = [];
          for (const product of store.products) if ((await shelf(db, store.id, product.productId)).quantity > 0) onShelf.push(product);
          const kept = onShelf.filter((product) => best.some((candidate) => candidate.productId === product.productId));
          const places = MAX_STORE_PRODUCTS - onShelf.length;
          const joining = best.filter((candidate) => !onShelf.some((product) => product.productId === candidate.productId)).slice(0, Math.max(0, places));
          store.products = [...kept, ...joining];
        }
        for (const product of store.products) {
          const current = await shelf(db, store.id, product.productId);
          const target = current.soldLastTurn > 0 ? Math.ceil(current.soldLastTurn * 1.3) : Math.ceil(FIRST_STOCK_VALUE_CENTS / product.referenceCents);
          // Topped up when under 70% of the target (fewer, larger orders, as a player would).
          if (current.quantity >= target * 0.7) continue;
          // A product not on the shelves needs a free place (as the store page shows): bought only then.
          if (current.quantity === 0 && (await productsOnShelves(db, store.id)) >= MAX_STORE_PRODUCTS) continue;
          const quantity = target - current.quantity;
          const bought = await attempt(ctx, 'Trade Hall purchase', () =>
            act(db, 'purchaseForBuilding', { companyId, actingUserId: null, input: { id: store.id, product_id: product.productId, quantity } }),
          );
          if (!bought) continue;
          const retailPriceCents = Math.round(product.referenceCents * store.price.multiple);
          await attempt(ctx, 'shelve', () =>
            act(db, 'transferToStore', {
              companyId,
              actingUserId: null,
              input: { id: store.id, product_id: product.productId, quantity, retail_price: retailPriceCents / 100 },
            }),
          );
        }
        if (store.decoyId !== undefined) {
          for (const product of store.products) {
            if ((await shelf(db, store.decoyId, product.productId)).quantity > 0) continue;
            if (
              !(await attempt(ctx, 'decoy purchase', () =>
                act(db, 'purchaseForBuilding', { companyId, actingUserId: null, input: { id: store.decoyId!, product_id: product.productId, quantity: 1 } }),
              ))
            )
              continue;
            await attempt(ctx, 'decoy shelve', () =>
              act(db, 'transferToStore', {
                companyId,
                actingUserId: null,
                input: { id: store.decoyId!, product_id: product.productId, quantity: 1, retail_price: 1 / 100 },
              }),
            );
          }
        }
        // Each store re-prices every other week (half of them each week).
        if ((week + store.id) % 2 === 0) await searchPriceLevel(ctx, store.id, store.price, { min: 0.8, max: 2.9 });
      }
    },
  };
}
