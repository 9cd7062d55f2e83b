/**
 * What production does this week, as ONE query builder: the turn runs it for every active company
 * (worker/src/turn/production.ts) and the building page's forecast runs it for one company
 * (db/src/game/forecast/forecast.ts), so the forecast is what the next turn makes, given no change in
 * between (docs/economy.md, "Production").
 *
 * Every non-store building with a recipe plans `plannedOutputRule` units (efficiency, rate, and
 * outputBonusRule: the fitting city bonus + production_bonus + chain_bonus research). Its inputs come from the company
 * warehouse: each needs `inputNeededRule` units (material_reduction research). When the company's
 * buildings compete for an input they are served in building id order, each taking what it needs
 * while stock lasts; a building makes what its scarcest input allows (`outputFromInputRule`) and
 * uses only the inputs for what it made.
 *
 * Rows: (building_id, company_id, building_type, city_id, product_id, role, planned, units) where
 * role 'output' has the planned and made units of the building's output, role 'input' the units
 * needed (planned) and consumed (units) of one input. The building's type and city ride along for
 * the week reports (worker/src/turn/report.ts), which would otherwise join every building again.
 */
import { sql, type SQL } from 'drizzle-orm';
import { BUILDING_BONUS_PAIRS, efficiencyRule, inputNeededRule, outputBonusRule, outputFromInputRule, plannedOutputRule } from '@marketcraft/shared';
import { ruleSql } from '../../ruleSql.ts';
import { researchEffect, researchJoins } from '../research/researchPlan.ts';

/** (building_type, bonus_type) pairs whose city bonus applies, as a VALUES list. */
export function bonusPairsValues(): SQL {
  return sql.join(
    BUILDING_BONUS_PAIRS.map(([buildingType, bonusType]) => sql`(${buildingType}::text, ${bonusType}::text)`),
    sql`, `,
  );
}

/** The city bonus of building `b` in city `ci` (0 unless its bonus type fits), given a left join `bp` on bonus_pairs. */
export const cityBonusSql = sql`case when bp.building_type is null then 0 else ci.bonus_value end`;

/** `companies`: a subquery of company_id, all of world `worldId`. */
export function productionPlanSql(options: { worldId: number; companies: SQL; research: SQL }): SQL {
  const materialReduction = researchEffect('material_reduction');
  return sql`(
    with bonus_pairs(building_type, bonus_type) as (values ${bonusPairsValues()}),
    plan as materialized (
      select b.id as building_id, b.company_id, b.type as building_type, b.city_id, r.id as recipe_id, r.output_product_id, r.output_quantity,
             ${materialReduction} as material_reduction,
             ${ruleSql(plannedOutputRule, {
               outputQuantity: sql`r.output_quantity`,
               productionRate: sql`b.production_rate`,
               efficiency: ruleSql(efficiencyRule, { employees: sql`b.employees`, equipmentLevel: sql`b.equipment_level` }),
               bonus: ruleSql(outputBonusRule, {
                 cityBonus: cityBonusSql,
                 productionBonus: researchEffect('production_bonus'),
                 chainBonus: researchEffect('chain_bonus'),
               }),
             })} as planned
      from buildings b
      join ${options.companies} scope on scope.company_id = b.company_id
      join recipes r on r.id = b.selected_recipe_id
      join cities ci on ci.id = b.city_id
      left join bonus_pairs bp on bp.building_type = b.type and bp.bonus_type = ci.bonus_type
      ${researchJoins(options.research)}
      where b.world_id = ${options.worldId}::int and b.type <> 'store'
    ), needs as (
      select p.building_id, p.company_id, p.building_type, p.city_id, ri.product_id, ri.quantity as input_quantity, p.output_quantity, p.material_reduction, p.planned,
             ${ruleSql(inputNeededRule, {
               units: sql`p.planned`,
               inputQuantity: sql`ri.quantity`,
               outputQuantity: sql`p.output_quantity`,
               materialReduction: sql`p.material_reduction`,
             })} as need
      from plan p
      join recipe_inputs ri on ri.recipe_id = p.recipe_id
      where p.planned > 0
    ), allocated as materialized (
      -- what stock is left for each building after the company's buildings with a smaller id took theirs
      -- (a ROWS frame: building ids are unique within a partition, and ROWS needs no peer checks)
      select n.*, least(n.need, greatest(0, coalesce(i.quantity, 0)
               - ((sum(n.need) over (partition by n.company_id, n.product_id order by n.building_id
                                     rows between unbounded preceding and current row))::bigint - n.need)))::bigint as allocated
      from needs n
      left join inventory_items i on i.world_id = ${options.worldId}::int and i.company_id = n.company_id and i.product_id = n.product_id
    ), made as materialized (
      select p.building_id, p.company_id, p.building_type, p.city_id, p.output_product_id, p.planned, least(p.planned, coalesce(lim.max_units, p.planned)) as made
      from plan p
      left join (
        select building_id,
               min(case when allocated >= need then planned
                        else ${ruleSql(outputFromInputRule, {
                          available: sql`allocated`,
                          inputQuantity: sql`input_quantity`,
                          outputQuantity: sql`output_quantity`,
                          materialReduction: sql`material_reduction`,
                        })} end) as max_units
        from allocated group by building_id
      ) lim on lim.building_id = p.building_id
    )
    select building_id, company_id, building_type, city_id, output_product_id as product_id, 'output'::text as role, planned, made as units
    from made
    union all
    select a.building_id, a.company_id, a.building_type, a.city_id, a.product_id, 'input'::text, a.need,
           least(a.allocated, ${ruleSql(inputNeededRule, {
             units: sql`m.made`,
             inputQuantity: sql`a.input_quantity`,
             outputQuantity: sql`a.output_quantity`,
             materialReduction: sql`a.material_reduction`,
           })}) as units
    from allocated a join made m on m.building_id = a.building_id
  )`;
}
