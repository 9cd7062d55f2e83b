/**
 * The arbitrageur: makes and retails nothing; it tries to buy by one route and sell by another.
 * It owns the doors every route needs: a store in each of two cities in different countries (their
 * Trade Halls buy into the back room) and a mill with no recipe (its raw-material purchases land in
 * the warehouse); it hires nobody. Every week it tries, for a slice of the catalogue (every product
 * in turn, so all 304 are tried over a run, plus the two whose price is furthest below base: the
 * most tempting), every round trip:
 *   buy by   market trade | Trade Hall of store A | Trade Hall of store B | raw materials (mill)
 *   sell by  the market, the same week (at once) or the next week (after the turn moved prices)
 * with about $10,000 a trip. And a dip play: when the product furthest below its base is at most 85%
 * of it, about $50,000 of it bought on the market before anything else moves it, sold next week
 * (the price drifts back 10% of its gap a turn). Each trip's result (what the sale paid minus what the purchase cost)
 * is counted; its buildings' costs are not (they show in its net worth). It keeps $100,000 in
 * cash for those costs.
 */
import { sql } from 'drizzle-orm';
import { worldProductsSql, act } from '@marketcraft/db';
import { attempt, cashCents, type Strategy, type StrategyContext } from './common.ts';

const TRIP_VALUE_CENTS = 1_000_000;
/** It starts a trip only with this much cash left after it (its buildings' costs must be paid each week). */
const RESERVE_CENTS = 10_000_000;
/** The dip play: the product furthest below base, when at most this share of it, for about this much. */
const DIP_RATIO = 0.85;
const DIP_VALUE_CENTS = 5_000_000;
/** Products tried each week besides the two most tempting ones. */
const PRODUCTS_PER_WEEK = 7;

type Route = 'market' | 'trade hall A' | 'trade hall B' | 'raw materials' | 'market dip';
const ROUTES: Route[] = ['market', 'trade hall A', 'trade hall B', 'raw materials'];

interface Held {
  productId: number;
  quantity: number;
  costCents: number;
  route: Route;
}

export function arbitrageurStrategy(): Strategy {
  let doors: { storeA: number; storeB: number; mill: number } | null = null;
  let cursor = 0;
  let held: Held[] = [];
  const results: { route: string; pnlCents: number }[] = [];

  /** Buys by a route; the goods end in the warehouse (Trade Hall goods are moved out of the back room). Returns the cost. */
  async function buy(ctx: StrategyContext, route: Route, productId: number, quantity: number): Promise<number | null> {
    const { db, companyId } = ctx;
    if (route === 'market' || route === 'market dip') {
      const trade = await attempt(ctx, 'arbitrage buy', () =>
        act(db, 'marketTrade', { companyId, actingUserId: null, input: { product_id: productId, quantity, action: 'buy' } }),
      );
      return trade ? Math.round(trade.total * 100) : null;
    }
    const buildingId = route === 'trade hall A' ? doors!.storeA : route === 'trade hall B' ? doors!.storeB : doors!.mill;
    const purchase = await attempt(ctx, 'arbitrage buy', () =>
      act(db, 'purchaseForBuilding', { companyId, actingUserId: null, input: { id: buildingId, product_id: productId, quantity } }),
    );
    if (!purchase) return null;
    if (route !== 'raw materials') {
      await attempt(ctx, 'arbitrage move', () =>
        act(db, 'moveGoods', { companyId, actingUserId: null, input: { building_id: buildingId, product_id: productId, quantity, direction: 'to_warehouse' } }),
      );
    }
    return Math.round(purchase.total_cost * 100);
  }

  async function sell(ctx: StrategyContext, productId: number, quantity: number): Promise<number | null> {
    const trade = await attempt(ctx, 'arbitrage sell', () =>
      act(ctx.db, 'marketTrade', { companyId: ctx.companyId, actingUserId: null, input: { product_id: productId, quantity, action: 'sell' } }),
    );
    return trade ? Math.round(trade.total * 100) : null;
  }

  return {
    name: 'arbitrageur',
    kind: 'trading',
    figures: () => {
      const paid = results.filter((result) => result.pnlCents > 0).length;
      const total = results.reduce((sum, result) => sum + result.pnlCents, 0);
      const best = results.reduce((max, result) => Math.max(max, result.pnlCents), Number.NEGATIVE_INFINITY);
      return {
        'round trips': String(results.length),
        'round trips that paid': String(paid),
        'round trips P&L': `$${(total / 100).toFixed(0)}`,
        'best round trip': results.length ? `$${(best / 100).toFixed(2)}` : '-',
      };
    },
    details: () => {
      const byRoute = new Map<string, { tried: number; paid: number; pnl: number; best: number }>();
      for (const result of results) {
        const entry = byRoute.get(result.route) ?? { tried: 0, paid: 0, pnl: 0, best: Number.NEGATIVE_INFINITY };
        entry.tried += 1;
        entry.paid += result.pnlCents > 0 ? 1 : 0;
        entry.pnl += result.pnlCents;
        entry.best = Math.max(entry.best, result.pnlCents);
        byRoute.set(result.route, entry);
      }
      const money = (cents: number) => `${cents < 0 ? '-' : ''}$${Math.abs(cents / 100).toLocaleString('en-US', { maximumFractionDigits: 0 })}`;
      return [
        '| arbitrageur round trip | tried | paid | result | best trip |',
        '| --- | --- | --- | --- | --- |',
        ...[...byRoute]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([route, entry]) => `| ${route} | ${entry.tried} | ${entry.paid} | ${money(entry.pnl)} | ${money(entry.best)} |`),
      ].join('\n');
    },
    play: async (ctx) => {
      const { db, companyId, catalogue } = ctx;
      if (!doors) {
        const storeA = await act(db, 'buildBuilding', { companyId, actingUserId: null, input: { type: 'store', city_id: catalogue.cityId('Port Aldor') } });
        const storeB = await act(db, 'buildBuilding', { companyId, actingUserId: null, input: { type: 'store', city_id: catalogue.cityId('Hesperia City') } });
        const mill = await act(db, 'buildBuilding', { companyId, actingUserId: null, input: { type: 'mill', city_id: catalogue.cityId('Millbrook') } });
        doors = { storeA: storeA.id, storeB: storeB.id, mill: mill.id };
      }
      // Last week's purchases, sold after the turn moved the prices.
      for (const position of held) {
        const proceeds = await sell(ctx, position.productId, position.quantity);
        if (proceeds !== null) results.push({ route: `${position.route} -> market next week`, pnlCents: proceeds - position.costCents });
      }
      held = [];

      const tempting = await db.execute<{ id: number; ratio: number; price: number }>(sql`
        select id, current_price_cents::float8 / base_price_cents as ratio, current_price_cents as price
        from ${worldProductsSql(1)} p order by current_price_cents::float8 / base_price_cents, id limit 2`);
      // The dip: the product furthest below its base, bought big when it is at most 85% of base
      // (its price drifts back 10% of the gap a turn), before anything else moves it, sold next week.
      const dip = tempting[0];
      if (dip && Number(dip.ratio) <= DIP_RATIO && (await cashCents(db, companyId)) >= RESERVE_CENTS + 2 * DIP_VALUE_CENTS) {
        const quantity = Math.max(1, Math.floor(DIP_VALUE_CENTS / Number(dip.price)));
        const cost = await buy(ctx, 'market', Number(dip.id), quantity);
        if (cost !== null) held.push({ productId: Number(dip.id), quantity, costCents: cost, route: 'market dip' });
      }
      const slice = catalogue.products.slice(cursor, cursor + PRODUCTS_PER_WEEK).map((product) => product.id);
      cursor = (cursor + PRODUCTS_PER_WEEK) % catalogue.products.length;
      for (const productId of new Set([...tempting.map((row) => Number(row.id)), ...slice])) {
        const [price] = await db.execute<{ price: number }>(
          sql`select current_price_cents as price from world_products where world_id = 1 and product_id = ${productId}`,
        );
        const quantity = Math.max(1, Math.floor(TRIP_VALUE_CENTS / Number(price?.price ?? TRIP_VALUE_CENTS)));
        for (const route of ROUTES) {
          if ((await cashCents(db, companyId)) < RESERVE_CENTS + 2 * TRIP_VALUE_CENTS) break;
          // The same week: buy, then sell at once.
          const cost = await buy(ctx, route, productId, quantity);
          if (cost !== null) {
            const proceeds = await sell(ctx, productId, quantity);
            if (proceeds !== null) results.push({ route: `${route} -> market same week`, pnlCents: proceeds - cost });
          }
          // Across the turn: buy now, sell next week.
          const heldCost = await buy(ctx, route, productId, quantity);
          if (heldCost !== null) held.push({ productId, quantity, costCents: heldCost, route });
        }
      }
    },
  };
}
