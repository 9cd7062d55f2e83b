/**
 * Two players of the exchange's weekly call auction (docs/exchange.md), both making and retailing
 * nothing, both through the players' own actions (placeExchangeOrders, marketTrade) and reading only
 * what a player sees (posted prices, its orders, its week results):
 *
 * - the exchange arbitrageur tries every round trip between the instant market and the auction,
 *   about $10,000 a trip, over a slice of the catalogue each week (every product in turn, plus the
 *   two furthest below base):
 *     instant buy now -> sell in this week's auction (an ask at a cent: it fills at the clearing price)
 *     auction buy (a bid at twice the posted price) -> instant sell next week
 *     auction buy -> sell in next week's auction
 *   Each trip's result (what the sale paid minus what the purchase cost, fees included) is counted
 *   from its fills in the week results.
 * - the player market maker quotes both sides of a few deep products every week, inside the market
 *   maker's spread and the bots' quotes: a bid 0.5% under the posted price and an ask 0.5% over it, about $20,000 a side,
 *   from an inventory bought once on the instant market (so it has something to offer). It earns the
 *   difference when both sides fill; it carries the inventory's price risk. Its result is its net worth.
 */
import { sql } from 'drizzle-orm';
import { act, getWeekReport } from '@marketcraft/db';
import { attempt, cashCents, warehouseUnits, type Strategy, type StrategyContext } from './common.ts';

const TRIP_VALUE_CENTS = 1_000_000;
/** It starts a trip only with this much cash left after it. */
const RESERVE_CENTS = 5_000_000;
const PRODUCTS_PER_WEEK = 6;

type Trip = 'instant -> auction same week' | 'auction -> instant next week' | 'auction -> auction next week';

async function postedPrices(ctx: StrategyContext, productIds: number[]): Promise<Map<number, number>> {
  const rows = await ctx.db.execute<{ product_id: number; price: number }>(sql`
    select product_id, current_price_cents as price from world_products where world_id = 1 and product_id in ${productIds}`);
  return new Map(rows.map((row) => [Number(row.product_id), Number(row.price)]));
}

/** Places one limit order for the coming auction; its id, or null when the game refused it. */
async function placeOrder(ctx: StrategyContext, productId: number, side: 'buy' | 'sell', quantity: number, limitCents: number): Promise<number | null> {
  const order = await attempt(ctx, `exchange ${side} order`, () =>
    act(ctx.db, 'placeExchangeOrders', {
      companyId: ctx.companyId,
      actingUserId: null,
      input: { product_id: productId, side, quantity, limit_price: Math.max(1, limitCents) / 100 },
    }),
  );
  return order?.id ?? null;
}

/** What each of the company's orders filled in a week's auction: units and money (a buy's cost with the fee; a sell's proceeds less it), by order id. */
async function fillsOf(ctx: StrategyContext, week: number): Promise<Map<number, { quantity: number; totalCents: number }>> {
  if (week < 1) return new Map();
  const report = await getWeekReport(ctx.db, ctx.companyId, week).catch(() => null);
  return new Map((report?.exchange_fills ?? []).map((fill) => [fill.order_id, { quantity: fill.quantity, totalCents: Math.round(fill.total * 100) }]));
}

export function exchangeArbitrageurStrategy(): Strategy {
  let cursor = 0;
  const results: { trip: Trip; pnlCents: number }[] = [];
  /** Legs waiting for last week's auction: a sell whose goods were bought at `costCents`, or a buy to be sold on. */
  let pendingSells: { orderId: number; productId: number; quantity: number; costCents: number; trip: Trip }[] = [];
  let pendingBuys: { orderId: number; productId: number; then: 'instant' | 'auction' }[] = [];
  return {
    name: 'exchange arbitrageur',
    kind: 'trading',
    figures: () => {
      const total = results.reduce((sum, result) => sum + result.pnlCents, 0);
      return {
        'round trips': String(results.length),
        'round trips that paid': String(results.filter((result) => result.pnlCents > 0).length),
        'round trips P&L': `$${(total / 100).toFixed(0)}`,
      };
    },
    details: () => {
      const byTrip = new Map<string, { tried: number; paid: number; pnl: number }>();
      for (const result of results) {
        const entry = byTrip.get(result.trip) ?? { tried: 0, paid: 0, pnl: 0 };
        entry.tried += 1;
        entry.paid += result.pnlCents > 0 ? 1 : 0;
        entry.pnl += result.pnlCents;
        byTrip.set(result.trip, entry);
      }
      const money = (cents: number) => `${cents < 0 ? '-' : ''}$${Math.abs(cents / 100).toLocaleString('en-US', { maximumFractionDigits: 0 })}`;
      return [
        '| exchange arbitrageur round trip | tried | paid | result |',
        '| --- | --- | --- | --- |',
        ...[...byTrip].sort(([a], [b]) => a.localeCompare(b)).map(([trip, entry]) => `| ${trip} | ${entry.tried} | ${entry.paid} | ${money(entry.pnl)} |`),
      ].join('\n');
    },
    play: async (ctx, week) => {
      const { db, companyId, catalogue } = ctx;
      const fills = await fillsOf(ctx, week - 1);
      // Last week's sells: each trip's result, from what the sale paid (units the auction did not take came back: sold on the market now).
      for (const sell of pendingSells) {
        const fill = fills.get(sell.orderId);
        const unsold = sell.quantity - (fill?.quantity ?? 0);
        const rest =
          unsold > 0
            ? await attempt(ctx, 'exchange arbitrage sell', () =>
                act(db, 'marketTrade', { companyId, actingUserId: null, input: { product_id: sell.productId, quantity: unsold, action: 'sell' } }),
              )
            : null;
        results.push({ trip: sell.trip, pnlCents: (fill?.totalCents ?? 0) + Math.round((rest?.total ?? 0) * 100) - sell.costCents });
      }
      pendingSells = [];
      // Last week's buys: sold on, at once on the market or in this week's auction.
      const buys = pendingBuys;
      pendingBuys = [];
      for (const buy of buys) {
        const fill = fills.get(buy.orderId);
        if (!fill || fill.quantity === 0) continue;
        if (buy.then === 'instant') {
          const trade = await attempt(ctx, 'exchange arbitrage sell', () =>
            act(db, 'marketTrade', { companyId, actingUserId: null, input: { product_id: buy.productId, quantity: fill.quantity, action: 'sell' } }),
          );
          results.push({ trip: 'auction -> instant next week', pnlCents: Math.round((trade?.total ?? 0) * 100) - fill.totalCents });
        } else {
          const orderId = await placeOrder(ctx, buy.productId, 'sell', fill.quantity, 1);
          if (orderId !== null)
            pendingSells.push({ orderId, productId: buy.productId, quantity: fill.quantity, costCents: fill.totalCents, trip: 'auction -> auction next week' });
        }
      }

      const tempting = await db.execute<{ id: number }>(sql`
        select wp.product_id as id from world_products wp join products p on p.id = wp.product_id where wp.world_id = 1
        order by wp.current_price_cents::float8 / p.base_price_cents, wp.product_id limit 2`);
      const slice = catalogue.products.slice(cursor, cursor + PRODUCTS_PER_WEEK).map((product) => product.id);
      cursor = (cursor + PRODUCTS_PER_WEEK) % catalogue.products.length;
      const productIds = [...new Set([...tempting.map((row) => Number(row.id)), ...slice])];
      const prices = await postedPrices(ctx, productIds);
      for (const productId of productIds) {
        const price = prices.get(productId) ?? TRIP_VALUE_CENTS;
        const quantity = Math.max(1, Math.floor(TRIP_VALUE_CENTS / price));
        if ((await cashCents(db, companyId)) < RESERVE_CENTS + 4 * TRIP_VALUE_CENTS) break;
        // Instant buy now, sold in this week's auction.
        const bought = await attempt(ctx, 'exchange arbitrage buy', () =>
          act(db, 'marketTrade', { companyId, actingUserId: null, input: { product_id: productId, quantity, action: 'buy' } }),
        );
        if (bought) {
          const orderId = await placeOrder(ctx, productId, 'sell', quantity, 1);
          if (orderId !== null)
            pendingSells.push({ orderId, productId, quantity, costCents: Math.round(bought.total * 100), trip: 'instant -> auction same week' });
        }
        // Auction buys, sold on next week (on the market, or in that week's auction).
        for (const then of ['instant', 'auction'] as const) {
          const orderId = await placeOrder(ctx, productId, 'buy', quantity, 2 * price);
          if (orderId !== null) pendingBuys.push({ orderId, productId, then });
        }
      }
    },
  };
}

/** The deep products it quotes (the deepest: a quote there moves the price least). */
const QUOTED_PRODUCTS = 4;
const QUOTE_VALUE_CENTS = 2_000_000;
/** Its quotes: 0.5% either side of the posted price (the market maker's spread is 2.5%; the bots bid 1% over it and offer 1% under it). */
const QUOTE_OFFSET_BP = 50;

export function playerMarketMakerStrategy(): Strategy {
  let quoted: number[] = [];
  let quotes = 0;
  let filledUnits = 0;
  return {
    name: 'player market maker',
    kind: 'trading',
    figures: () => ({ 'quotes posted': String(quotes), 'units filled': String(filledUnits) }),
    play: async (ctx, week) => {
      const { db, companyId } = ctx;
      if (quoted.length === 0) {
        const deepest = await db.execute<{ id: number }>(sql`select id from products order by depth_units desc, id limit ${QUOTED_PRODUCTS}`);
        quoted = deepest.map((row) => Number(row.id));
        // An inventory to offer from: about two weeks of asks, bought once on the instant market.
        const prices = await postedPrices(ctx, quoted);
        for (const productId of quoted) {
          const quantity = Math.floor((2 * QUOTE_VALUE_CENTS) / (prices.get(productId) ?? QUOTE_VALUE_CENTS));
          if (quantity > 0)
            await attempt(ctx, 'market maker stock', () =>
              act(db, 'marketTrade', { companyId, actingUserId: null, input: { product_id: productId, quantity, action: 'buy' } }),
            );
        }
      }
      for (const fill of (await fillsOf(ctx, week - 1)).values()) filledUnits += fill.quantity;
      const prices = await postedPrices(ctx, quoted);
      for (const productId of quoted) {
        const price = prices.get(productId)!;
        const size = Math.max(1, Math.floor(QUOTE_VALUE_CENTS / price));
        const bid = Math.floor((price * (10_000 - QUOTE_OFFSET_BP)) / 10_000);
        const ask = Math.ceil((price * (10_000 + QUOTE_OFFSET_BP)) / 10_000);
        if ((await cashCents(db, companyId)) > RESERVE_CENTS + 2 * QUOTE_VALUE_CENTS && (await placeOrder(ctx, productId, 'buy', size, bid)) !== null)
          quotes += 1;
        const held = await warehouseUnits(db, companyId, productId);
        if (held > 0 && (await placeOrder(ctx, productId, 'sell', Math.min(size, held), ask)) !== null) quotes += 1;
      }
    },
  };
}
