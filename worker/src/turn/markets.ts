/**
 * Phase 7, markets (docs/economy.md, "The market"). Every product's next posted price is
 * nextMarketPriceRule: this week's net flow (market_activity: every route that bought from or sold
 * to the world, bankruptcy sales included) moves it along its curve, it drifts 10% of the way back
 * toward its base price (in logs), and the world outside the game adds seeded noise (the turn's rng,
 * drawn in product id order). Each city's reference price follows (referencePriceRule). Demand
 * levels drift back toward their base (after shocks) by 25% of the gap, at least one point.
 */
import { sql } from 'drizzle-orm';
import { DEMAND_RECOVERY_RATE, MARKET_NOISE_BP, nextMarketPriceRule, referencePriceRule, type Rng } from '@marketcraft/shared';
import { ruleSql, worldProductsSql } from '@marketcraft/db';
import type { TurnContext } from './context.ts';

/** Approximately normal noise with standard deviation `sd`: the sum of three uniforms, centred and scaled. */
function noise(rng: Rng, sd: number): number {
  return Math.round((rng() + rng() + rng() - 1.5) * 2 * sd);
}

export async function runMarkets(ctx: TurnContext): Promise<void> {
  const { tx, week, rng, worldId } = ctx;
  const productIds = (await tx.execute<{ id: number }>(sql`select id from products order by id`)).map((row) => Number(row.id));
  const noises = productIds.map(() => noise(rng, MARKET_NOISE_BP));
  // The price each product was posted at during the week now ending, before it moves (the market's
  // charts and sparklines, db/src/game/marketHistory.ts; the current week's price is the product's own).
  await tx.execute(sql`
    insert into product_price_history (world_id, product_id, week, price_cents)
    select world_id, product_id, ${week}::int, current_price_cents from world_products where world_id = ${worldId}::int`);
  // Instructors' price shocks (docs/worlds.md) are a factor over the market's own price: the price
  // posted during week W carries the factor of the shocks running in week W - 1 (a shock added in
  // week S is first posted after the turn of week S, last after the turn of its end week). The turn
  // takes the old factor off, moves that underlying price by the usual rule (trading, drift, noise,
  // bounds), and puts the new week's factor on. Multiplying the shocked price and dividing it back
  // later was lossy: the rule's bounds clamped the shocked price in between, so a -90% shock left
  // the price at 2.5x its base once it ended.
  await tx.execute(sql`
    create temp table turn_prices on commit drop as
    select p.id as product_id, p.current_price_cents as old_cents, coalesce(f.new_factor, 1) as new_factor,
           ${ruleSql(nextMarketPriceRule, {
             price: sql`greatest(1, round(p.current_price_cents / coalesce(f.old_factor, 1)))`,
             depth: sql`p.depth_units`,
             flow: sql`least(greatest(coalesce(ma.units_bought - ma.units_sold, 0), -10 * p.depth_units), 10 * p.depth_units)`,
             basePrice: sql`p.base_price_cents`,
             noiseBp: sql`n.noise_bp`,
           })} as new_cents
    from ${worldProductsSql(worldId)} p
    join unnest(${`{${productIds.join(',')}}`}::int[], ${`{${noises.join(',')}}`}::int[]) as n(product_id, noise_bp) on n.product_id = p.id
    left join market_activity ma on ma.world_id = ${worldId}::int and ma.product_id = p.id and ma.week = ${week}::int
    left join (
      select product_id,
             exp(sum(case when start_week <= ${week - 1}::int and ${week - 1}::int <= end_week then ln((100 + percent) / 100.0) else 0 end)) as old_factor,
             exp(sum(case when start_week <= ${week}::int and ${week}::int <= end_week then ln((100 + percent) / 100.0) else 0 end)) as new_factor
      from world_shocks
      where world_id = ${worldId}::int and kind = 'price' and start_week <= ${week}::int and end_week >= ${week - 1}::int
      group by product_id
    ) f on f.product_id = p.id`);
  await tx.execute(sql`update turn_prices set new_cents = greatest(1, round(new_cents * new_factor))::bigint where new_factor <> 1`);
  await tx.execute(sql`
    update world_products p set current_price_cents = t.new_cents
    from turn_prices t where p.world_id = ${worldId}::int and t.product_id = p.product_id and t.new_cents <> t.old_cents`);
  // Nested loops off for this statement: right after a world is created, the statistics of
  // city_market_data do not know its id yet (ANALYZE has not seen it), the planner expects one row
  // and nests a loop over the world's 15,200 rows for each of them (231 million comparisons: the
  // first turn of a new classroom world took 56-100 s here instead of 0.2 s). A hash join is right
  // whatever the statistics say.
  await tx.execute(sql`set local enable_nestloop = off`);
  await tx.execute(sql`
    update city_market_data cmd set market_price_cents = r.reference_cents
    from (
      select c.city_id, c.product_id,
             ${ruleSql(referencePriceRule, { marketPriceCents: sql`t.new_cents`, cityFactorBp: sql`c.price_factor_bp` })} as reference_cents
      from city_market_data c join turn_prices t on t.product_id = c.product_id
      where c.world_id = ${worldId}::int and t.new_cents <> t.old_cents
    ) r
    where cmd.world_id = ${worldId}::int and cmd.city_id = r.city_id and cmd.product_id = r.product_id and cmd.market_price_cents <> r.reference_cents`);
  await tx.execute(sql`set local enable_nestloop = on`);
  await tx.execute(sql`
    update city_market_data
    set demand_level = demand_level + sign(base_demand_level - demand_level)::int
        * least(abs(base_demand_level - demand_level), greatest(1, round(abs(base_demand_level - demand_level) * ${DEMAND_RECOVERY_RATE}::numeric)))::int
    where world_id = ${worldId}::int and demand_level <> base_demand_level`);
}
