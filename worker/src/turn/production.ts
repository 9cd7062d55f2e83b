/**
 * Phase 2, production (docs/economy.md). Every non-store building of an active company with a
 * selected recipe plans round(output_quantity x rate/100 x efficiency/100 x (100 + bonus)/100)
 * units, where efficiency = min(100, employees x 10 + equipment_level x 15) and bonus = the city's
 * bonus_value when its bonus type fits the building type + production_bonus + chain_bonus research.
 * Inputs come from the company warehouse (reduced by material_reduction, capped at 50%). When a
 * company's buildings compete for an input, buildings are served in id order, each taking what it
 * needs for its planned output while stock lasts; output is limited by the scarcest input. Inputs
 * are consumed, output is added to the warehouse at the product's current price as unit cost, and
 * each producing company gets one 'production' ledger row of amount 0 describing what it made.
 */
import { sql } from 'drizzle-orm';
import { BUILDING_BONUS_PAIRS, MAX_REDUCTION_PERCENT } from '@marketcraft/shared';
import type { TurnContext } from './context.ts';
import { researchEffect, researchJoins } from './research.ts';

export function bonusPairsValues() {
  return sql.join(
    BUILDING_BONUS_PAIRS.map(([buildingType, bonusType]) => sql`(${buildingType}::text, ${bonusType}::text)`),
    sql`, `,
  );
}

export async function runProduction(ctx: TurnContext): Promise<void> {
  const { tx } = ctx;
  await tx.execute(sql`
    create temp table turn_output on commit drop as
    with bonus_pairs(building_type, bonus_type) as (values ${bonusPairsValues()})
    select b.id as building_id, b.company_id, r.id as recipe_id, r.output_product_id, r.output_quantity,
      least(${MAX_REDUCTION_PERCENT}::int, greatest(0, ${researchEffect('material_reduction')}))::bigint as material_reduction,
      -- integer rounding half up: round(output x rate x efficiency x (100 + bonus) / 1,000,000)
      (r.output_quantity::bigint * b.production_rate * least(100, b.employees * 10 + b.equipment_level * 15)
        * greatest(0, 100 + case when bp.building_type is null then 0 else ci.bonus_value end
                          + ${researchEffect('production_bonus')} + ${researchEffect('chain_bonus')}) + 500000) / 1000000 as planned
    from buildings b
    join turn_companies tc on tc.company_id = b.company_id
    join recipes r on r.id = b.selected_recipe_id
    join cities ci on ci.id = b.city_id
    left join bonus_pairs bp on bp.building_type = b.type and bp.bonus_type = ci.bonus_type
    ${researchJoins}
    where b.type <> 'store'`);

  // Per company and product, in one statement: what each building needs of each input for its
  // planned output; what stock is left for it after the company's buildings with a smaller id took
  // theirs (allocated); its output, limited by the scarcest input (made); then the units made and
  // the inputs consumed for them (moves), summed.
  await tx.execute(sql`
    create temp table turn_stock_delta on commit drop as
    with needs as (
      select o.building_id, o.company_id, ri.product_id, ri.quantity as input_quantity, o.output_quantity,
             o.material_reduction, o.planned,
             -- integer ceiling division: ceil(planned x quantity x (100 - reduction) / (output_quantity x 100))
             (o.planned * ri.quantity * (100 - o.material_reduction) + o.output_quantity * 100 - 1) / (o.output_quantity * 100) as need
      from turn_output o
      join recipe_inputs ri on ri.recipe_id = o.recipe_id
      where o.planned > 0
    ), allocated as materialized (
      select n.*, least(n.need, greatest(0, coalesce(i.quantity, 0)
               - ((sum(n.need) over (partition by n.company_id, n.product_id order by n.building_id))::bigint - n.need)))::bigint as allocated
      from needs n
      left join inventory_items i on i.company_id = n.company_id and i.product_id = n.product_id
    ), made as materialized (
      select o.building_id, o.company_id, o.output_product_id, least(o.planned, coalesce(lim.max_units, o.planned)) as actual
      from turn_output o
      left join (
        select building_id,
               min(case when allocated >= need then planned
                        -- integer division: what the allocated units allow, rounded down
                        else allocated * output_quantity * 100 / (input_quantity * (100 - material_reduction))
                   end) as max_units
        from allocated group by building_id
      ) lim on lim.building_id = o.building_id
      where o.planned > 0
    ), moves as (
      select company_id, output_product_id as product_id, actual as produced, 0::bigint as consumed
      from made where actual > 0
      union all
      select a.company_id, a.product_id, 0::bigint,
             least(a.allocated, (m.actual * a.input_quantity * (100 - a.material_reduction) + a.output_quantity * 100 - 1) / (a.output_quantity * 100))
      from allocated a join made m on m.building_id = a.building_id
      where m.actual > 0
    )
    select company_id, product_id, sum(produced)::bigint as produced, sum(consumed)::bigint as consumed
    from moves
    group by company_id, product_id
    having sum(produced) > 0 or sum(consumed) > 0`);

  // One pass over the warehouse rows that exist (consumption always hits existing rows), then new rows.
  await tx.execute(sql`
    update inventory_items inv
    set quantity = inv.quantity - d.consumed + d.produced,
        average_cost_cents = case when d.produced > 0
          then coalesce(round(((inv.quantity - d.consumed) * inv.average_cost_cents + d.produced * p.current_price_cents)::numeric
                              / nullif(inv.quantity - d.consumed + d.produced, 0)), inv.average_cost_cents)
          else inv.average_cost_cents end
    from turn_stock_delta d join products p on p.id = d.product_id
    where inv.company_id = d.company_id and inv.product_id = d.product_id`);
  await tx.execute(sql`
    insert into inventory_items (company_id, product_id, quantity, average_cost_cents)
    select d.company_id, d.product_id, d.produced, p.current_price_cents
    from turn_stock_delta d join products p on p.id = d.product_id
    where d.produced > 0
      and not exists (select 1 from inventory_items i where i.company_id = d.company_id and i.product_id = d.product_id)`);

  await tx.execute(sql`
    insert into turn_cash (company_id, type, reason, amount_cents, description)
    select company_id, 'production', 'production', 0,
           'Produced ' || string_agg(units || ' ' || name, ', ' order by name)
    from (
      select d.company_id, p.name, d.produced as units
      from turn_stock_delta d join products p on p.id = d.product_id
      where d.produced > 0
    ) made
    group by company_id`);
}
