/**
 * The price to suggest when a product goes on a store's shelf (GET /api/buildings/{id}/shelf-price,
 * the Add to Store dialog): the price the store's forecast finds best (bestShelfPrice in
 * shared/src/rules/retail.ts, by the turn's own rules), searched against the city's market as the
 * next turn would see it (every other store's offer of the product from storeSalesSql, the city's
 * demand with this week's shock, the store's bonus and what its other shelves leave of its
 * capacity), beside the spec's 50% markup on the goods' average cost (a reference: in most cities
 * it is well above what shoppers expect, so a shelf at it sells little). docs/economy.md, "Store sales".
 */
import { sql } from 'drizzle-orm';
import {
  GameError,
  SUGGESTED_RETAIL_MARKUP,
  bestShelfPrice,
  centsToDollars,
  efficiencyRule,
  isConsumerGood,
  storeCapacityRule,
  storeSellsConsumerGoodsOnly,
  type ShelfOffer,
} from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { findOwnedBuilding } from '../buildings/buildings.ts';
import { PRODUCT_NOT_FOUND } from '../goods/stock.ts';
import { cityMarketsSql, demandShocksSql, shockedBaseDemandSql } from '../goods/prices.ts';
import { bonusPairsValues, cityBonusSql } from '../buildings/productionPlan.ts';
import { researchEffect, researchJoins, researchSumsSql } from '../research/researchPlan.ts';
import { storeSalesSql } from './salesPlan.ts';

export interface ShelfPriceAdvice {
  product_id: number;
  /** The price the store's forecast finds best: the most margin over the average cost next turn. */
  best_price: number;
  /** Units the shelf sells next turn at best_price (its own shoppers: within the units available and the store's capacity). */
  units: number;
  revenue: number;
  /** revenue - units x average_cost. */
  margin: number;
  /** The spec's suggestion: average_cost x 1.5 ('50% markup'). */
  markup_price: number;
  /** Average cost of a unit: the store's back room's if it holds the product, else the warehouse's. */
  average_cost: number;
  /** What shoppers in the store's city expect to pay. */
  reference_price: number;
  /** Units the store can put on the shelf: its back room plus the warehouse. */
  available: number;
}

export async function shelfPriceAdvice(db: DbExecutor, companyId: number, buildingId: number, productId: number): Promise<ShelfPriceAdvice> {
  const building = await findOwnedBuilding(db, companyId, buildingId);
  if (building.spec.category !== 'retail') throw new GameError('RULE_BROKEN', `Only stores have a shelf: this building is a ${building.spec.name}`);
  const worldId = building.worldId;
  const activeCompanies = sql`(select id as company_id from companies where world_id = ${worldId} and status = 'active')`;
  const own = sql`(select ${companyId}::int as company_id)`;
  const [row] = await db.execute<{
    name: string;
    category: string;
    reference_cents: number | null;
    base_demand: number | null;
    employees: number;
    equipment_level: number;
    production_rate: number;
    store_bonus: number;
    price_bonus: number;
    others: { weight: number; price_cents: number }[];
    other_shelves_cents: number;
    back_room: number | null;
    back_room_cents: number | null;
    warehouse: number | null;
    warehouse_cents: number | null;
  }>(sql`
    with bonus_pairs(building_type, bonus_type) as (values ${bonusPairsValues()}),
    sales as materialized (
      select building_id, product_id, weight, price_cents, units
      from ${storeSalesSql({ worldId, companies: activeCompanies, research: researchSumsSql(worldId, activeCompanies), cityIds: sql`(${building.cityId})` })} s
    )
    select p.name, p.category, cmd.market_price_cents as reference_cents, ${shockedBaseDemandSql} as base_demand,
           b.employees, b.equipment_level, b.production_rate,
           ${cityBonusSql} + ${researchEffect('store_bonus')} as store_bonus, ${researchEffect('price_bonus')} as price_bonus,
           (select coalesce(json_agg(json_build_object('weight', s.weight, 'price_cents', s.price_cents)), '[]'::json)
              from sales s where s.product_id = p.id and s.building_id <> b.id and s.weight > 0) as others,
           (select coalesce(sum(s.units * s.price_cents), 0) from sales s where s.building_id = b.id and s.product_id <> p.id) as other_shelves_cents,
           bi.quantity as back_room, bi.purchase_price_cents as back_room_cents,
           ii.quantity as warehouse, ii.average_cost_cents as warehouse_cents
    from buildings b
    join cities ci on ci.id = b.city_id
    join products p on p.id = ${productId}
    left join ${cityMarketsSql(worldId)} cmd on cmd.city_id = b.city_id and cmd.product_id = p.id
    left join ${demandShocksSql(worldId)} ds on ds.product_id = p.id
    left join bonus_pairs bp on bp.building_type = b.type and bp.bonus_type = ci.bonus_type
    left join building_inventory_items bi on bi.building_id = b.id and bi.product_id = p.id and bi.quantity > 0
    left join inventory_items ii on ii.world_id = b.world_id and ii.company_id = b.company_id and ii.product_id = p.id and ii.quantity > 0
    ${researchJoins(researchSumsSql(worldId, own))}
    where b.world_id = ${worldId} and b.id = ${building.id}`);
  if (!row || row.reference_cents === null) throw new GameError('NOT_FOUND', PRODUCT_NOT_FOUND);
  if (!isConsumerGood(row.category)) throw new GameError('RULE_BROKEN', storeSellsConsumerGoodsOnly(row.name, row.category));
  const n = (value: number | string | null) => Number(value ?? 0);

  const available = n(row.back_room) + n(row.warehouse);
  const averageCostCents = row.back_room !== null ? n(row.back_room_cents) : n(row.warehouse_cents);
  const storeBonus = n(row.store_bonus);
  const capacityCents = storeCapacityRule.evaluate({
    efficiency: efficiencyRule.evaluate({ employees: n(row.employees), equipmentLevel: n(row.equipment_level) }),
    productionRate: n(row.production_rate),
    bonus: storeBonus,
  });
  const others: ShelfOffer[] = row.others.map((offer) => ({ weight: Number(offer.weight), priceCents: Number(offer.price_cents) }));
  const best = bestShelfPrice({
    referenceCents: n(row.reference_cents),
    baseDemand: n(row.base_demand),
    others,
    storeBonus,
    priceBonus: n(row.price_bonus),
    capacityCents: capacityCents - n(row.other_shelves_cents),
    units: available,
    unitCostCents: averageCostCents,
  });
  return {
    product_id: productId,
    best_price: centsToDollars(best.priceCents),
    units: best.units,
    revenue: centsToDollars(best.revenueCents),
    margin: centsToDollars(best.marginCents),
    markup_price: centsToDollars(Math.round(averageCostCents * SUGGESTED_RETAIL_MARKUP)),
    average_cost: centsToDollars(averageCostCents),
    reference_price: centsToDollars(n(row.reference_cents)),
    available,
  };
}
