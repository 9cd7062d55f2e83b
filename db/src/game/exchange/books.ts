/**
 * The published curves (docs/exchange.md, "The published curves"): this week's anonymous demand
 * and supply of a product (the players' orders aggregated by limit, cumulative), the market maker's
 * standing schedule apart, and the clearing if the auction ran now (clearAuction, the turn's own
 * rule); and the past clearings.
 */
import { sql } from 'drizzle-orm';
import { GameError, centsToDollars, type BookLevelView, type ExchangeAuctionView, type ExchangeBookView } from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { PRODUCT_NOT_FOUND } from '../goods/stock.ts';
import { auctionOrdersSql, clearAuction, cumulativeLevels, loadAuctionBooks, makerDemandAt, makerSupplyAt, type Level, type MakerCurve } from './auction.ts';

/** How many points of the maker's schedule are published on each side, and how far they reach (in depths). */
const MAKER_POINTS = 12;
const MAKER_REACH_DEPTHS = 1.2;

const view = (levels: readonly Level[]): BookLevelView[] => levels.map((level) => ({ price: centsToDollars(level.priceCents), quantity: level.quantity }));

/** The lowest price at which `units(p)` reaches `quantity` (units rises with p), by bisection over cents. */
function lowestPriceFor(units: (p: number) => number, quantity: number, high: number): number {
  let low = 1;
  let top = high;
  while (low < top) {
    const middle = Math.floor((low + top) / 2);
    if (units(middle) >= quantity) top = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * The maker's schedule as cumulative levels: at MAKER_POINTS quantities up to MAKER_REACH_DEPTHS
 * depths, the price at which it would sell (asks) or buy (bids) that many, from makerSupplyRule and
 * makerDemandRule (the turn's own schedule).
 */
function makerLevels(maker: MakerCurve): { bids: Level[]; asks: Level[] } {
  const step = Math.max(1, Math.round((maker.depth * MAKER_REACH_DEPTHS) / MAKER_POINTS));
  const high = maker.priceCents * 1_000;
  const asks: Level[] = [];
  const bids: Level[] = [];
  for (let point = 1; point <= MAKER_POINTS; point += 1) {
    const quantity = point * step;
    const askPrice = lowestPriceFor((p) => makerSupplyAt(maker, p), quantity, high);
    if (makerSupplyAt(maker, askPrice) >= quantity) asks.push({ priceCents: askPrice, quantity });
    // Demand falls with the price: the highest price at which it still buys `quantity`.
    const bidPrice = lowestPriceFor((p) => -makerDemandAt(maker, p), -(quantity - 1), high) - 1;
    if (bidPrice >= 1 && makerDemandAt(maker, bidPrice) >= quantity) bids.push({ priceCents: bidPrice, quantity });
  }
  return { bids, asks };
}

/**
 * The last answer of GET /exchange/books/{product_id} per database, world and product, with its
 * version: every player's exchange panel reads it (and a script may poll it), while it changes only
 * when an order of the product is placed or cancelled, an instant trade moves the maker's flow, or a
 * turn runs. Computing it reads the product's live orders and walks the maker's curve.
 */
const bookCache = new WeakMap<object, Map<string, { version: string; book: ExchangeBookView }>>();

/** GET /api/exchange/books/{product_id}: the book of the company's world now. */
export async function getExchangeBook(db: DbExecutor, companyId: number, productId: number): Promise<ExchangeBookView> {
  // The version, with what the answer needs to find the book: the week (the turn fills, expires and
  // reprices), the posted price, this week's flow of the maker (instant trades), and how many times
  // the product's orders were placed or cancelled (exchange_book_versions, raised in the same
  // transaction: one row read, where counting the live orders read every one of them).
  const [world] = await db.execute<{ world_id: number; current_week: number; name: string | null; version: string }>(sql`
    select c.world_id, w.current_week, p.name,
           w.current_week || ':' || wp.current_price_cents || ':' || coalesce(ma.units_bought - ma.units_sold, 0) || ':' || coalesce(v.version, 0) as version
    from companies c join worlds w on w.id = c.world_id
    left join world_products wp on wp.world_id = c.world_id and wp.product_id = ${productId}
    left join products p on p.id = wp.product_id
    left join market_activity ma on ma.world_id = c.world_id and ma.week = w.current_week and ma.product_id = ${productId}
    left join exchange_book_versions v on v.world_id = c.world_id and v.product_id = ${productId}
    where c.id = ${companyId}`);
  if (!world) throw new GameError('NOT_FOUND', 'No company found');
  if (world.name === null) throw new GameError('NOT_FOUND', PRODUCT_NOT_FOUND);
  const worldId = Number(world.world_id);
  const key = `${worldId}:${productId}`;
  let books = bookCache.get(db);
  const cached = books?.get(key);
  if (cached?.version === world.version) return cached.book;
  // Read after the version: an order in between makes the next version differ, so nothing stale is kept.
  const book = await readExchangeBook(db, worldId, productId, world.name, Number(world.current_week));
  if (!books) bookCache.set(db, (books = new Map()));
  books.set(key, { version: world.version, book });
  return book;
}

async function readExchangeBook(db: DbExecutor, worldId: number, productId: number, productName: string, week: number): Promise<ExchangeBookView> {
  const [book] = await loadAuctionBooks(db, worldId, {
    orders: auctionOrdersSql(worldId, sql`(select id as company_id from companies where world_id = ${worldId}::int and status = 'active')`, [productId]),
    productIds: [productId],
  });
  if (!book || !book.maker) throw new GameError('NOT_FOUND', PRODUCT_NOT_FOUND);
  const clearing = clearAuction(book);
  const maker = makerLevels(book.maker);
  return {
    product_id: productId,
    product_name: productName,
    week,
    posted_price: centsToDollars(book.maker.priceCents),
    bids: view(cumulativeLevels(book.bids, 'buy')),
    asks: view(cumulativeLevels(book.asks, 'sell')),
    maker: { bids: view(maker.bids), asks: view(maker.asks) },
    indicative_price: clearing.priceCents === null ? null : centsToDollars(clearing.priceCents),
    indicative_volume: clearing.volume,
  };
}

/** GET /api/exchange/auctions/{product_id}?weeks=N: the last N weeks' clearings of the product, oldest first. */
export async function listExchangeAuctions(db: DbExecutor, companyId: number, productId: number, weeks: number): Promise<ExchangeAuctionView[]> {
  const rows = await db.execute<{
    week: number;
    price_cents: number | null;
    volume: number;
    players_volume: number;
    maker_bought: number;
    maker_sold: number;
    /** [price_cents, quantity] pairs (migration 0045). */
    bids: [number, number][];
    asks: [number, number][];
  }>(sql`
    select a.week, a.price_cents, a.volume, a.players_volume, a.maker_bought, a.maker_sold, a.bids, a.asks
    from exchange_auctions a join companies c on c.id = ${companyId} and a.world_id = c.world_id join worlds w on w.id = c.world_id
    where a.product_id = ${productId} and a.week >= w.current_week - ${weeks}::int
    order by a.week`);
  const levels = (list: [number, number][]) =>
    list.map(([priceCents, quantity]) => ({ price: centsToDollars(Number(priceCents)), quantity: Number(quantity) }));
  return rows.map((row) => ({
    week: Number(row.week),
    price: row.price_cents === null ? null : centsToDollars(Number(row.price_cents)),
    volume: Number(row.volume),
    players_volume: Number(row.players_volume),
    maker_bought: Number(row.maker_bought),
    maker_sold: Number(row.maker_sold),
    bids: levels(row.bids),
    asks: levels(row.asks),
  }));
}
