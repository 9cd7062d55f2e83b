/**
 * Phase 3, store sales (docs/economy.md). Each active store product with stock sells
 * min(stock, floor(base x demand/50 x priceFactor x (1 + bonus/100))) units to consumers, where
 * base = the store type's base capacity (units per product per week), priceFactor =
 * min(2, (market / retail)^2) and 0 above 3x the city market price, and bonus = the city's bonus
 * when its type is retail + store_bonus research. Revenue = units x retail x (100 + price_bonus)/100,
 * rounded to the cent, credited as one 'sale' ledger row per company. Shelves are decremented,
 * units_sold_last_turn set, and each city's demand for a product drops one point per 20 units sold.
 */
import { sql } from 'drizzle-orm';
import {
  SALES_MAX_PRICE_MULTIPLE,
  SALES_NEUTRAL_DEMAND,
  SALES_PRICE_ELASTICITY,
  SALES_UNITS_PER_DEMAND_POINT,
} from '@marketcraft/shared';
import type { TurnContext } from './context.ts';
import { researchEffect, researchJoins } from './research.ts';
import { bonusPairsValues } from './production.ts';

export async function runSales(ctx: TurnContext): Promise<void> {
  const { tx } = ctx;
  await tx.execute(sql`
    create temp table turn_sales on commit drop as
    with bonus_pairs(building_type, bonus_type) as (values ${bonusPairsValues()}),
    priced as (
      select sp.id as store_product_id, b.company_id, b.city_id, ci.country_id, sp.product_id, sp.quantity,
             sp.retail_price_cents, coalesce(cmd.market_price_cents, p.current_price_cents) as market_cents,
             coalesce(cmd.demand_level, ${SALES_NEUTRAL_DEMAND}::int) as demand_level,
             bt.base_capacity,
             case when bp.building_type is null then 0 else ci.bonus_value end + ${researchEffect('store_bonus')} as bonus,
             ${researchEffect('price_bonus')} as price_bonus
      from store_products sp
      join buildings b on b.id = sp.building_id
      join turn_companies tc on tc.company_id = b.company_id
      join building_types bt on bt.type = b.type
      join cities ci on ci.id = b.city_id
      join products p on p.id = sp.product_id
      left join city_market_data cmd on cmd.city_id = b.city_id and cmd.product_id = sp.product_id
      left join bonus_pairs bp on bp.building_type = b.type and bp.bonus_type = ci.bonus_type
      ${researchJoins}
      where sp.is_active and sp.quantity > 0 and b.type = 'store'
    ), sold as (
      select priced.*,
        -- double precision: numeric power() is slow over every shelf, and the result is floored anyway.
        least(quantity, greatest(0, floor(
          base_capacity * (greatest(demand_level, 0)::float8 / ${SALES_NEUTRAL_DEMAND}::float8)
          * case when retail_price_cents > ${SALES_MAX_PRICE_MULTIPLE}::float8 * market_cents then 0
                 else least(2, (market_cents::float8 / retail_price_cents) ^ ${SALES_PRICE_ELASTICITY}::float8) end
          * greatest(0, 1 + bonus::float8 / 100) + 0.000000001)))::bigint as units
      from priced
    )
    select *, round(units::numeric * retail_price_cents * greatest(0, 100 + price_bonus) / 100)::bigint as revenue_cents
    from sold where units > 0`);

  // One update per shelf row that changes: sold this week, or sold last week and not this week (reset to 0).
  await tx.execute(sql`
    update store_products sp set quantity = sp.quantity - c.units, units_sold_last_turn = c.units
    from (
      select store_product_id, units from turn_sales
      union all
      select sp0.id, 0::bigint from store_products sp0
      where sp0.units_sold_last_turn <> 0 and not exists (select 1 from turn_sales s where s.store_product_id = sp0.id)
    ) c
    where c.store_product_id = sp.id`);

  await tx.execute(sql`
    insert into turn_cash (company_id, type, reason, amount_cents, description)
    select company_id, 'sale', 'store_sales', sum(revenue_cents)::bigint,
           'Store sales: ' || sum(units)::bigint || ' units from ' || count(*) || case count(*) when 1 then ' shelf' else ' shelves' end
    from turn_sales group by company_id having sum(revenue_cents) > 0`);

  await tx.execute(sql`
    insert into turn_pnl (company_id, country_id, revenue_cents)
    select company_id, country_id, sum(revenue_cents)::bigint from turn_sales group by company_id, country_id`);

  await tx.execute(sql`
    update city_market_data cmd
    set demand_level = greatest(0, cmd.demand_level - ceil(s.units::numeric / ${SALES_UNITS_PER_DEMAND_POINT}::numeric)::int)
    from (select city_id, product_id, sum(units)::bigint as units from turn_sales group by 1, 2) s
    where cmd.city_id = s.city_id and cmd.product_id = s.product_id`);
}
