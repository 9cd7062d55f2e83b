/**
 * What the stores sell this week, as ONE query builder: the turn runs it for every city
 * (worker/src/turn/sales.ts); a store's forecast runs it for the store's city (every competing
 * store included), so the forecast is what the next turn sells, given no change in between.
 * docs/economy.md, "Store sales"; the rules are in shared/src/rules/retail.ts.
 *
 * Per city and product, every active shelf with stock in a store of an active company is an offer:
 * 1. its weight (storeWeightRule: cheaper pulls more, the store bonus adds, nothing above 3x the
 *    reference price), the market's total weight and weight-averaged price;
 * 2. the units the city buys at that average price (cityDemandRule on baseDemandRule);
 * 3. each offer wants its share of them; a store's offers together stay within its capacity
 *    (storeCapacityRule, valued at the shelf prices: scaled down in proportion) and each within its
 *    stock;
 * 4. one redistribution round: what capped offers could not serve goes to the other offers of the
 *    market by weight (at most what the city buys at the open offers' average price, less what they
 *    sold: spilloverShoppersRule), each taking as many as those shoppers buy at its price
 *    (spilloverShareRule on the average price of the offers that could not serve them, at least the
 *    reference price), within their remaining stock and their store's remaining capacity;
 * 5. revenue = storeRevenueRule (price_bonus research).
 *
 * Rows: (store_product_id, building_id, company_id, city_id, country_id, product_id, stock, price_cents,
 * reference_cents, weight, share, demand, first_units (its own shoppers served), capacity_cents (its
 * store's), units (first_units + the shoppers other stores could not serve), revenue_cents).
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  cityDemandRule,
  efficiencyRule,
  spilloverShareRule,
  spilloverShoppersRule,
  storeBonusRule,
  storeCapacityRule,
  storeRevenueRule,
  storeWeightRule,
} from '@marketcraft/shared';
import { ruleSql } from '../../ruleSql.ts';
import { cityMarketsSql, demandShocksSql, shockedBaseDemandSql } from '../goods/prices.ts';
import { researchEffect, researchJoins } from '../research/researchPlan.ts';
import { bonusPairsValues, cityBonusSql } from '../buildings/productionPlan.ts';

/**
 * `sellingOnly`: leave out, before the second round, the offers that cannot sell a unit (none sold
 * to their own shoppers and too little weight for one of the shoppers passed on, whatever their
 * price: the spillover share is at most 1); the turn keeps only what sells. A forecast needs every
 * offer (the other stores' weights and prices).
 */
export function storeSalesSql(options: { worldId: number; companies: SQL; research: SQL; cityIds?: SQL; sellingOnly?: boolean }): SQL {
  const storeBonus = ruleSql(storeBonusRule, { cityBonus: cityBonusSql, researchBonus: researchEffect('store_bonus') });
  return sql`(
    with bonus_pairs(building_type, bonus_type) as (values ${bonusPairsValues()}),
    offers as materialized (
      select sp.id as store_product_id, b.id as building_id, b.company_id, b.city_id, ci.country_id, sp.product_id,
             sp.quantity as stock, sp.retail_price_cents as price_cents, cmd.market_price_cents as reference_cents,
             -- An instructor's demand shock scales the city's shoppers while it lasts (docs/worlds.md).
             ${shockedBaseDemandSql} as base_demand,
             ${ruleSql(storeWeightRule, { referenceCents: sql`cmd.market_price_cents`, retailCents: sql`sp.retail_price_cents`, bonus: storeBonus })} as weight,
             ${ruleSql(storeCapacityRule, {
               efficiency: ruleSql(efficiencyRule, { employees: sql`b.employees`, equipmentLevel: sql`b.equipment_level` }),
               productionRate: sql`b.production_rate`,
               bonus: storeBonus,
             })} as capacity_cents,
             ${researchEffect('price_bonus')} as price_bonus
      from store_products sp
      join buildings b on b.world_id = sp.world_id and b.id = sp.building_id
      join ${options.companies} scope on scope.company_id = b.company_id
      join cities ci on ci.id = b.city_id
      join products p on p.id = sp.product_id
      join ${cityMarketsSql(options.worldId)} cmd on cmd.world_id = b.world_id and cmd.city_id = b.city_id and cmd.product_id = sp.product_id
      left join bonus_pairs bp on bp.building_type = b.type and bp.bonus_type = ci.bonus_type
      left join ${demandShocksSql(options.worldId)} ds on ds.product_id = sp.product_id
      ${researchJoins(options.research)}
      where sp.world_id = ${options.worldId}::int and sp.is_active and sp.quantity > 0 and b.type = 'store' ${options.cityIds ? sql`and b.city_id in ${options.cityIds}` : sql``}
    ), markets as (
      select city_id, product_id, sum(weight) as total_weight,
             ${ruleSql(cityDemandRule, {
               baseDemand: sql`max(base_demand)`,
               referenceCents: sql`max(reference_cents)`,
               averagePriceCents: sql`sum(weight * price_cents) / sum(weight)`,
             })} as demand
      from offers where weight > 0
      group by city_id, product_id
    ), wanted as materialized (
      select o.*, m.demand, o.weight / m.total_weight as share,
             floor(m.demand * o.weight / m.total_weight)::bigint as wanted
      from offers o join markets m on m.city_id = o.city_id and m.product_id = o.product_id
      where o.weight > 0
    ), first_round as materialized (
      -- Only an offer its own shoppers want sells in the first round: any other's first_units are 0
      -- and add nothing to its store's sums, so the store's window runs over these few narrow rows
      -- instead of sorting every offer of the world (docs/turn.md).
      select w.store_product_id, w.building_id, w.city_id, w.product_id, w.price_cents,
             least(w.stock, floor(w.wanted * least(1.0, w.capacity_cents::float8
               / nullif(sum(w.wanted * w.price_cents) over (partition by w.building_id), 0)::float8)))::bigint as first_units
      from wanted w where w.wanted > 0
    ), store_used as (
      select building_id, sum(first_units * price_cents) as used_cents from first_round group by building_id
    ), after_first as materialized (
      select w.*, coalesce(f.first_units, 0)::bigint as first_units,
             greatest(0, w.capacity_cents - coalesce(u.used_cents, 0)) as capacity_left
      from wanted w
      left join first_round f on f.store_product_id = w.store_product_id
      left join store_used u on u.building_id = w.building_id
    ), unmet as materialized (
      -- What each market's first round left unmet, one row per market, joined to its offers below.
      select f.city_id, f.product_id,
             -- Passed on: at most what the city buys when the offers that could not serve count at no
             -- less than the reference price, less what every offer sold (spilloverShoppersRule: a
             -- bargain that sold out draws no extra shoppers).
             ${ruleSql(spilloverShoppersRule, {
               unserved: sql`max(f.demand) - sum(f.first_units)`,
               demandAtReference: ruleSql(cityDemandRule, {
                 baseDemand: sql`max(f.base_demand)`,
                 referenceCents: sql`max(f.reference_cents)`,
                 averagePriceCents: sql`sum(f.weight * case when f.first_units < f.stock and f.capacity_left > 0 then f.price_cents
                   else greatest(f.price_cents, f.reference_cents) end) / sum(f.weight)`,
               }),
               sold: sql`sum(f.first_units)`,
             })} as unmet,
             max(f.reference_cents) as market_reference_cents,
             sum(f.weight) filter (where f.first_units < f.stock and f.capacity_left > 0) as open_weight,
             -- The price the unserved shoppers were paying: the offers' prices weighted by what each
             -- could not serve (only rounding left over: the market's average price).
             coalesce((sum((f.wanted - f.first_units) * f.price_cents))::float8 / nullif(sum(f.wanted - f.first_units), 0)::float8,
                      (sum(f.weight * f.price_cents) / sum(f.weight))::float8) as unserved_price
      from after_first f
      group by f.city_id, f.product_id
    ), second_round as materialized (
      select f.*, u.unmet, u.market_reference_cents, u.open_weight, u.unserved_price,
             case when f.first_units < f.stock and f.capacity_left > 0 and u.unmet > 0 and u.open_weight > 0
                  then least(f.stock - f.first_units, floor(u.unmet * f.weight / u.open_weight
                         * ${ruleSql(spilloverShareRule, { unservedPriceCents: sql`u.unserved_price`, referenceCents: sql`u.market_reference_cents`, retailCents: sql`f.price_cents` })}))::bigint
                  else 0 end as extra_wanted
      from after_first f join unmet u on u.city_id = f.city_id and u.product_id = f.product_id
      ${
        options.sellingOnly
          ? sql`where f.first_units > 0
                  or (f.first_units < f.stock and f.capacity_left > 0 and u.unmet > 0 and u.open_weight > 0 and u.unmet * f.weight / u.open_weight >= 1)`
          : sql``
      }
    ), store_extra as (
      -- A store's second-round sales within what its capacity has left: only the offers that want more count.
      select building_id, sum(extra_wanted * price_cents) as extra_cents from second_round where extra_wanted > 0 group by building_id
    ), sold as (
      select s.*,
             s.first_units + floor(s.extra_wanted * least(1.0, s.capacity_left::float8 / nullif(e.extra_cents, 0)::float8))::bigint as units
      from second_round s left join store_extra e on e.building_id = s.building_id
    )
    select store_product_id, building_id, company_id, city_id, country_id, product_id, stock, price_cents, reference_cents,
           weight, share, demand, first_units, capacity_cents, units, price_bonus,
           ${ruleSql(storeRevenueRule, { units: sql`units`, retailCents: sql`price_cents`, priceBonus: sql`price_bonus` })} as revenue_cents
    from sold
  )`;
}
