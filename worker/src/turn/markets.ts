/**
 * Phase 5, markets (docs/economy.md, nextProductPriceCents in shared/src/rules/prices.ts).
 * Product prices move with the week's net market buying (market_activity), revert 10% toward the
 * base price and stay within [0.25x, 4x] base; each city's market price follows its product by the
 * same ratio; demand levels recover 25% of the gap to their base (at least one point).
 */
import { sql } from 'drizzle-orm';
import {
  DEMAND_RECOVERY_RATE,
  MARKET_DEPTH_UNITS,
  MARKET_MAX_MOVE,
  MARKET_REVERSION_RATE,
  MAX_PRICE_FACTOR,
  MIN_PRICE_FACTOR,
} from '@marketcraft/shared';
import type { TurnContext } from './context.ts';

export async function runMarkets(ctx: TurnContext): Promise<void> {
  const { tx, week } = ctx;
  await tx.execute(sql`
    create temp table turn_prices on commit drop as
    with traded as (
      select p.id as product_id, p.base_price_cents, p.current_price_cents as old_cents,
             p.current_price_cents::numeric * (1 + greatest(-1, least(1,
               (coalesce(ma.units_bought, 0) - coalesce(ma.units_sold, 0))::numeric / ${MARKET_DEPTH_UNITS}::numeric)) * ${MARKET_MAX_MOVE}::numeric) as traded
      from products p
      left join market_activity ma on ma.product_id = p.id and ma.week = ${week}::int
    )
    select product_id, old_cents,
           least(floor(base_price_cents * ${MAX_PRICE_FACTOR}::numeric),
                 greatest(greatest(1, ceil(base_price_cents * ${MIN_PRICE_FACTOR}::numeric)),
                          round(traded + (base_price_cents - traded) * ${MARKET_REVERSION_RATE}::numeric)))::bigint as new_cents
    from traded`);
  await tx.execute(sql`
    update products p set current_price_cents = t.new_cents
    from turn_prices t where t.product_id = p.id and t.new_cents <> t.old_cents`);
  await tx.execute(sql`
    update city_market_data cmd
    set market_price_cents = greatest(1, round(cmd.market_price_cents::numeric * t.new_cents / t.old_cents))::bigint
    from turn_prices t where t.product_id = cmd.product_id and t.new_cents <> t.old_cents`);
  await tx.execute(sql`
    update city_market_data
    set demand_level = demand_level + sign(base_demand_level - demand_level)::int
        * least(abs(base_demand_level - demand_level), greatest(1, round(abs(base_demand_level - demand_level) * ${DEMAND_RECOVERY_RATE}::numeric)))::int
    where demand_level <> base_demand_level`);
}
