/**
 * Phase 7, markets (docs/economy.md, "The market"). Every product's next posted price is
 * nextMarketPriceRule: this week's net flow (market_activity: every route that bought from or sold
 * to the world, bankruptcy sales included) moves it along its curve, it drifts 10% of the way back
 * toward its base price (in logs; toward the base moved by an instructor's price shock while one
 * lasts), and the world outside the game adds seeded noise (the turn's rng, drawn in product id order). Each city's reference price follows (referencePriceRule, computed where it is read: cityMarketsSql). Demand
 * levels drift back toward their base (after shocks) by 25% of the gap, at least one point.
 */
import { sql } from 'drizzle-orm';
import { DEMAND_RECOVERY_RATE, MARKET_NOISE_BP, nextMarketPriceRule, shockedPriceRule, type Rng } from '@marketcraft/shared';
import { activePriceShocksSql, ruleSql, worldProductsSql } from '@marketcraft/db';
import type { TurnContext } from './context.ts';
import { fillTurnTable } from './turnTables.ts';

/** Approximately normal noise with standard deviation `sd`: the sum of three uniforms, centred and scaled. */
function noise(rng: Rng, sd: number): number {
  return Math.round((rng() + rng() + rng() - 1.5) * 2 * sd);
}

export async function runMarkets(ctx: TurnContext): Promise<void> {
  const { tx, week, rng, worldId } = ctx;
  const productIds = (await tx.execute<{ id: number }>(sql`select id from products order by id`)).map((row) => Number(row.id));
  const noises = productIds.map(() => noise(rng, MARKET_NOISE_BP));
  // The price each product was posted at during the week now ending, before it moves (the market's
  // charts and sparklines, db/src/game/goods/marketHistory.ts; the current week's price is the product's own).
  await tx.execute(sql`
    insert into product_price_history (world_id, product_id, week, price_cents)
    select world_id, product_id, ${week}::int, current_price_cents from world_products where world_id = ${worldId}::int`);
  await fillTurnTable(
    tx,
    'turn_prices',
    sql`select p.id as product_id, p.current_price_cents as old_cents,
           ${ruleSql(nextMarketPriceRule, {
             price: sql`p.current_price_cents`,
             depth: sql`p.depth_units`,
             flow: sql`least(greatest(coalesce(ma.units_bought - ma.units_sold, 0), -10 * p.depth_units), 10 * p.depth_units)`,
             basePrice: sql`p.base_price_cents`,
             // An instructor's price shock (docs/worlds.md): while it lasts the price drifts toward
             // its base moved by the shock, so it stays shocked, and when it ends nothing jumps back.
             // No shock: a factor of 10,000 basis points, the base itself.
             targetPrice: ruleSql(shockedPriceRule, {
               price: sql`p.base_price_cents`,
               basePrice: sql`p.base_price_cents`,
               factorBp: sql`coalesce(s.factor_bp, 10000)`,
             }),
             noiseBp: sql`n.noise_bp`,
           })} as new_cents
    from ${worldProductsSql(worldId)} p
    join unnest(${`{${productIds.join(',')}}`}::int[], ${`{${noises.join(',')}}`}::int[]) as n(product_id, noise_bp) on n.product_id = p.id
    left join market_activity ma on ma.world_id = ${worldId}::int and ma.product_id = p.id and ma.week = ${week}::int
    left join (${activePriceShocksSql(worldId, week)}) s on s.product_id = p.id`,
  );
  await tx.execute(sql`
    update world_products p set current_price_cents = t.new_cents
    from turn_prices t where p.world_id = ${worldId}::int and t.product_id = p.product_id and t.new_cents <> t.old_cents`);
  // Each city's reference price follows the posted price by itself (cityMarketsSql): nothing to write.
  await tx.execute(sql`
    update city_market_data
    set demand_level = demand_level + sign(base_demand_level - demand_level)::int
        * least(abs(base_demand_level - demand_level), greatest(1, round(abs(base_demand_level - demand_level) * ${DEMAND_RECOVERY_RATE}::numeric)))::int
    where world_id = ${worldId}::int and demand_level <> base_demand_level`);
}
