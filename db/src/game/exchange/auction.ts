/**
 * The weekly call auction of one product (docs/exchange.md, "How the auction clears"): every live
 * order plus the market maker's standing schedule clear at ONE price.
 *
 * - Demand at a price p, D(p): the units of player bids with a limit at or above p, plus what the
 *   maker would buy at p (makerDemandRule). Supply S(p): player asks at or below p, plus what the
 *   maker would sell at p (makerSupplyRule). The volume at p is min(D(p), S(p)).
 * - The price maximises the volume. D falls and S rises with p, so the volume peaks where they
 *   cross: at p_hi, the lowest cent where S >= D, or at p_lo = p_hi - 1 (the volume is S(p) below
 *   the crossing, D(p) above it: no other price trades more). Ties: the least imbalance |D - S|,
 *   then the price nearest the posted price, then the lower one. When the sides balance (D = S)
 *   over a run of prices, the price nearest the posted price in that run.
 * - At that price every bid above it and every ask below it fills in full; the orders AT the price
 *   on the side with more units than the volume share what is left pro rata to their units (the
 *   maker's share rounded down, the players' rounded down and the units left over given one by one
 *   by the largest remainder, then the oldest order). The other side fills in full.
 *
 * This file holds the plain functions (the price, the shares), used by the turn's clearing
 * (worker/src/turn/exchange.ts) and by the published books' indicative price (books.ts), and the
 * read of the books (aggregated price levels) from the orders table.
 */
import { sql, type SQL } from 'drizzle-orm';
import { makerDemandRule, makerSupplyRule, wholesaleMarginBp } from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { liveOrdersSql } from './orders.ts';

/** Units wanted (bids) or offered (asks) at one limit price, cents. */
export interface Level {
  priceCents: number;
  quantity: number;
}

/** The maker's curve this week: posted price, depth, the week's flow so far, the wholesale margin. */
export interface MakerCurve {
  priceCents: number;
  depth: number;
  flow: number;
  marginBp: number;
}

export interface AuctionBook {
  productId: number;
  /** Player bids and asks: units at a limit price, in any order (several at one price add up). */
  bids: Level[];
  asks: Level[];
  /** Null: no maker (a test's players-only book). */
  maker: MakerCurve | null;
}

export interface Clearing {
  productId: number;
  /** Null when nothing trades. */
  priceCents: number | null;
  volume: number;
  /** Units the maker sells and buys at the price. */
  makerSold: number;
  makerBought: number;
  /**
   * The side rationed at the margin (its orders at exactly the price share `marginPlayers` units
   * pro rata), or null when both sides fill in full.
   */
  rationed: 'buy' | 'sell' | null;
  marginPlayers: number;
  demand: number;
  supply: number;
}

export function makerSupplyAt(maker: MakerCurve | null, priceCents: number): number {
  if (!maker || priceCents < 1) return 0;
  return makerSupplyRule.evaluate({ price: maker.priceCents, depth: maker.depth, flow: maker.flow, at: priceCents, marginBp: maker.marginBp });
}

export function makerDemandAt(maker: MakerCurve | null, priceCents: number): number {
  if (!maker || priceCents < 1) return 0;
  return makerDemandRule.evaluate({ price: maker.priceCents, depth: maker.depth, flow: maker.flow, at: priceCents });
}

/** Cumulative player curves: bids at or above p, asks at or below p. */
function playerCurves(book: Pick<AuctionBook, 'bids' | 'asks'>) {
  const bids = [...book.bids].sort((a, b) => b.priceCents - a.priceCents);
  const asks = [...book.asks].sort((a, b) => a.priceCents - b.priceCents);
  const bidTotals: number[] = [];
  const askTotals: number[] = [];
  bids.reduce((sum, level, index) => (bidTotals[index] = sum + level.quantity), 0);
  asks.reduce((sum, level, index) => (askTotals[index] = sum + level.quantity), 0);
  return {
    /** Units of bids with limit >= p. */
    demand(p: number): number {
      // The last index whose limit is >= p (bids sorted high to low).
      let low = 0;
      let high = bids.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (bids[middle]!.priceCents >= p) low = middle + 1;
        else high = middle;
      }
      return low === 0 ? 0 : bidTotals[low - 1]!;
    },
    /** Units of asks with limit <= p. */
    supply(p: number): number {
      let low = 0;
      let high = asks.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (asks[middle]!.priceCents <= p) low = middle + 1;
        else high = middle;
      }
      return low === 0 ? 0 : askTotals[low - 1]!;
    },
    /** Units at exactly p. */
    bidsAt: (p: number) => bids.filter((level) => level.priceCents === p).reduce((sum, level) => sum + level.quantity, 0),
    asksAt: (p: number) => asks.filter((level) => level.priceCents === p).reduce((sum, level) => sum + level.quantity, 0),
    highestLimit: Math.max(0, ...bids.map((level) => level.priceCents), ...asks.map((level) => level.priceCents)),
  };
}

/** The clearing of one product's auction (see the file's comment for the rule). */
export function clearAuction(book: AuctionBook): Clearing {
  const players = playerCurves(book);
  const demand = (p: number) => players.demand(p) + makerDemandAt(book.maker, p);
  const supply = (p: number) => players.supply(p) + makerSupplyAt(book.maker, p);
  // Above every limit and the maker's bid nobody buys: S >= D there.
  const posted = book.maker?.priceCents ?? 0;
  let high = Math.max(players.highestLimit, posted) + 1;
  let low = 1;
  // The lowest p in [1, high] with S(p) >= D(p) (S - D rises with p).
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (supply(middle) >= demand(middle)) high = middle;
    else low = middle + 1;
  }
  const above = low;
  const top = Math.max(players.highestLimit, posted) + 1;
  /** The prices next to `p` (towards `direction`) where demand and supply stay what they are at p: the same volume and imbalance. */
  const sameFrom = (p: number, direction: 1 | -1): number => {
    const d = demand(p);
    const s = supply(p);
    let near = p;
    let far = direction === 1 ? top : 1;
    // The last price from p towards `far` with the same D and S (both monotone: true on a run from p).
    while (near !== far) {
      const middle = direction === 1 ? Math.ceil((near + far) / 2) : Math.floor((near + far) / 2);
      if (demand(middle) === d && supply(middle) === s) near = middle;
      else far = middle - direction;
    }
    return near;
  };
  const candidates = [above, above - 1]
    .filter((p) => p >= 1)
    .map((p) => {
      const d = demand(p);
      const s = supply(p);
      // Balanced (D = S): every price of the run of prices with the same D and S trades the same
      // units in full on both sides, and the one nearest the posted price is taken. Unbalanced: the
      // crossing price itself, where the rationed side's orders at the price are its margin.
      const end = d === s ? sameFrom(p, p === above ? 1 : -1) : p;
      const [from, to] = p === above ? [p, end] : [end, p];
      const nearest = Math.min(Math.max(posted, from), to);
      return { p: nearest, d, s, volume: Math.min(d, s), imbalance: Math.abs(d - s), distance: Math.abs(nearest - posted) };
    })
    .sort((a, b) => b.volume - a.volume || a.imbalance - b.imbalance || a.distance - b.distance || a.p - b.p);
  const best = candidates[0]!;
  const nothing = {
    productId: book.productId,
    priceCents: null,
    volume: 0,
    makerSold: 0,
    makerBought: 0,
    rationed: null,
    marginPlayers: 0,
    demand: best.d,
    supply: best.s,
  };
  if (best.volume <= 0) return nothing;
  const p = best.p;
  const makerSupply = makerSupplyAt(book.maker, p);
  const makerDemand = makerDemandAt(book.maker, p);
  // Player volume with the maker on neither side cannot be: the maker alone never trades with itself.
  if (players.demand(p) === 0 && players.supply(p) === 0) return nothing;
  let makerSold = makerSupply;
  let makerBought = makerDemand;
  let rationed: Clearing['rationed'] = null;
  let marginPlayers = 0;
  if (best.d > best.volume) {
    // Buyers are rationed: bids above p fill in full, the units at p share the rest.
    rationed = 'buy';
    const better = players.demand(p + 1) + makerDemandAt(book.maker, p + 1);
    const left = best.volume - better;
    const makerAtMargin = makerDemand - makerDemandAt(book.maker, p + 1);
    const margin = players.bidsAt(p) + makerAtMargin;
    const makerShare = margin > 0 ? Math.floor((left * makerAtMargin) / margin) : 0;
    makerBought = makerDemandAt(book.maker, p + 1) + makerShare;
    marginPlayers = left - makerShare;
  } else if (best.s > best.volume) {
    rationed = 'sell';
    const better = players.supply(p - 1) + makerSupplyAt(book.maker, p - 1);
    const left = best.volume - better;
    const makerAtMargin = makerSupply - makerSupplyAt(book.maker, p - 1);
    const margin = players.asksAt(p) + makerAtMargin;
    const makerShare = margin > 0 ? Math.floor((left * makerAtMargin) / margin) : 0;
    makerSold = makerSupplyAt(book.maker, p - 1) + makerShare;
    marginPlayers = left - makerShare;
  }
  return { productId: book.productId, priceCents: p, volume: best.volume, makerSold, makerBought, rationed, marginPlayers, demand: best.d, supply: best.s };
}

/**
 * Published curves: cumulative levels (bids high to low with the units wanted at that price or
 * more; asks low to high with the units offered at that price or less).
 */
export function cumulativeLevels(levels: readonly Level[], side: 'buy' | 'sell'): Level[] {
  const sorted = [...levels].sort((a, b) => (side === 'buy' ? b.priceCents - a.priceCents : a.priceCents - b.priceCents));
  const merged: Level[] = [];
  for (const level of sorted) {
    const last = merged[merged.length - 1];
    if (last && last.priceCents === level.priceCents) last.quantity += level.quantity;
    else merged.push({ priceCents: level.priceCents, quantity: (last?.quantity ?? 0) + level.quantity });
  }
  return merged;
}

/**
 * The orders that take part in a world's auction this week, as SQL (a relation of id, company_id,
 * product_id, side, remaining, limit_price_cents, and what the turn's fills start from:
 * filled_value_cents, fee_cents, escrow_cents): live orders of active companies, without the
 * smaller side of a company that has both buys and sells of one product (its own buy and sell
 * never meet; on equal sides its sells stay out). `companies`: the relation of the companies taking
 * part; `productIds`: only these products' orders (a published book reads one product's, through the
 * live orders' index, not the whole world's).
 */
export function auctionOrdersSql(worldId: number, companies: SQL, productIds?: readonly number[]): SQL {
  const onlyProducts = productIds ? sql`and o.product_id in ${productIds}` : sql``;
  // The company's units left on each side of the product beside each order (a window, not a join
  // of the orders with their sums: one sort instead of two hash tables of every order). Summed as
  // int (an order holds at most MAX_TRADE_QUANTITY units): a sum of ints is a bigint, where a sum
  // of bigints is a numeric, about a sixth of the statement's time over 100,000 orders.
  return sql`(
    with live as (
      select o.id, o.company_id, o.product_id, o.side, o.quantity - o.filled_quantity as remaining, o.limit_price_cents,
             o.filled_value_cents, o.fee_cents, o.escrow_cents,
             coalesce(sum((o.quantity - o.filled_quantity)::int) filter (where o.side = 'buy') over own, 0) as buys,
             coalesce(sum((o.quantity - o.filled_quantity)::int) filter (where o.side = 'sell') over own, 0) as sells
      from exchange_orders o
      where o.world_id = ${worldId}::int and ${liveOrdersSql(sql`(select current_week from worlds where id = ${worldId}::int)`)} ${onlyProducts} and o.company_id in (select company_id from ${companies} cs)
      window own as (partition by o.company_id, o.product_id)
    )
    select id, company_id, product_id, side, remaining, limit_price_cents, filled_value_cents, fee_cents, escrow_cents from live
    where buys = 0 or sells = 0 or (side = 'buy' and buys >= sells) or (side = 'sell' and sells > buys)
  )`;
}

/**
 * The books of a world's products with orders (or of the given products) as SQL: a relation of one
 * row per product with the maker's curve (product_id, category, current_price_cents, depth_units,
 * flow) and the players' orders of each side as text, `bids` and `asks`: each order's limit and
 * units left, "price_cents,units,price_cents,units,..." in no order ('' when a side has none).
 * `orders`: the relation of the orders taking part (auctionOrdersSql, or the turn's table of them).
 *
 * Why text of every order rather than levels: a busy week has ~100,000 orders over 304 products;
 * one text per product and side is read with one JSON.parse, and sorting and summing them is cheaper
 * in the worker (clearAuction, cumulativeLevels) than in SQL (docs/benchmarks.md).
 */
export function auctionBooksSql(worldId: number, orders: SQL, productIds?: readonly number[]): SQL {
  const onlyProducts = productIds ? sql`and o.product_id in ${productIds}` : sql``;
  return sql`(
    with sides as (
      select o.product_id, o.side, string_agg(o.limit_price_cents || ',' || o.remaining, ',') as orders
      from ${orders} o
      where true ${onlyProducts}
      group by o.product_id, o.side
    )
    select p.id as product_id, p.category, wp.current_price_cents, p.depth_units,
           coalesce(ma.units_bought - ma.units_sold, 0)::bigint as flow,
           coalesce(b.orders, '') as bids, coalesce(a.orders, '') as asks
    from products p join world_products wp on wp.product_id = p.id and wp.world_id = ${worldId}::int
    left join market_activity ma on ma.world_id = ${worldId}::int and ma.product_id = p.id
      and ma.week = (select current_week from worlds where id = ${worldId}::int)
    left join sides b on b.product_id = p.id and b.side = 'buy'
    left join sides a on a.product_id = p.id and a.side = 'sell'
    where ${productIds ? sql`p.id in ${productIds}` : sql`p.id in (select product_id from sides)`}
  )`;
}

/** A row of auctionBooksSql. */
export type AuctionBookRow = {
  product_id: number;
  category: string;
  current_price_cents: number;
  depth_units: number;
  flow: number;
  bids: string;
  asks: string;
};

/** The orders of one side ("price_cents,units,..."), as levels (one per order). */
function levelsOf(orders: string): Level[] {
  const numbers = JSON.parse(`[${orders}]`) as number[];
  const levels: Level[] = [];
  for (let index = 0; index < numbers.length; index += 2) levels.push({ priceCents: numbers[index]!, quantity: numbers[index + 1]! });
  return levels;
}

/** The book of a row of auctionBooksSql. */
export function auctionBookOf(row: AuctionBookRow): AuctionBook {
  return {
    productId: Number(row.product_id),
    bids: levelsOf(row.bids),
    asks: levelsOf(row.asks),
    maker: {
      priceCents: Number(row.current_price_cents),
      depth: Number(row.depth_units),
      flow: Number(row.flow),
      marginBp: wholesaleMarginBp(row.category),
    },
  };
}

/**
 * The books of a world's products with orders (or of the given products), with the maker's curve
 * (auctionBooksSql), by product id.
 */
export async function loadAuctionBooks(db: DbExecutor, worldId: number, options: { orders: SQL; productIds?: number[] }): Promise<AuctionBook[]> {
  if (options.productIds?.length === 0) return [];
  const rows = await db.execute<AuctionBookRow>(sql`select * from ${auctionBooksSql(worldId, options.orders, options.productIds)} b order by product_id`);
  return rows.map(auctionBookOf);
}
