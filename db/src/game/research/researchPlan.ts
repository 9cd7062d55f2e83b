/**
 * Research effects, set-based: per company and building type (null = upgrades that apply to every
 * type), the sums of the numeric effects of its researched upgrades. A building gets the null row
 * plus its own type's row, each rounded to a whole percent (researchEffectRule, which the building
 * screens evaluate on companyResearchEffects, db/src/game/research/research.ts). Used by the turn (once, into
 * a temp table) and by the API's forecasts (inline).
 */
import { sql, type SQL } from 'drizzle-orm';
import { researchEffectRule } from '@marketcraft/shared';
import { ruleSql } from '../../ruleSql.ts';

const RESEARCH_EFFECT_COLUMNS = ['production_bonus', 'chain_bonus', 'material_reduction', 'store_bonus', 'price_bonus', 'cost_reduction'] as const;
export type ResearchEffectColumn = (typeof RESEARCH_EFFECT_COLUMNS)[number];

function effectSum(key: ResearchEffectColumn): SQL {
  return sql.raw(`sum(case jsonb_typeof(u.effects->'${key}')
      when 'number' then (u.effects->>'${key}')::float8
      when 'boolean' then case when (u.effects->>'${key}')::boolean then 1 else 0 end
      else 0 end)::float8 as ${key}`);
}

/** (company_id, building_type, <effect columns>) for the companies of `companies` (a subquery with company_id). */
export function researchSumsSql(worldId: number, companies: SQL): SQL {
  return sql`(
    select cr.company_id, u.building_type, ${sql.join(RESEARCH_EFFECT_COLUMNS.map(effectSum), sql`, `)}
    from company_research cr
    join research_upgrades u on u.id = cr.upgrade_id
    where cr.world_id = ${worldId}::int and cr.company_id in (select company_id from ${companies} scope)
    group by cr.company_id, u.building_type
  )`;
}

/** One effect for the building alias `b` (researchEffectRule), given the joins of `researchJoins` (aliases ra, rt). */
export function researchEffect(key: ResearchEffectColumn): SQL {
  return ruleSql(researchEffectRule, { allTypes: sql.raw(`coalesce(ra.${key}, 0)`), ownType: sql.raw(`coalesce(rt.${key}, 0)`) });
}

/** The two joins researchEffect needs, for a buildings alias `b` and a research sums relation. */
export function researchJoins(research: SQL): SQL {
  return sql`
    left join ${research} ra on ra.company_id = b.company_id and ra.building_type is null
    left join ${research} rt on rt.company_id = b.company_id and rt.building_type = b.type`;
}
