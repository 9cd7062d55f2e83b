/**
 * Research effects for the whole turn, set-based: per company and building type (null = upgrades
 * that apply to every type), the sums of the numeric effects of its researched upgrades. Same
 * semantics as companyResearchEffects (db/src/game/research.ts): a building gets the null row plus
 * its own type's row. Non-numeric values count as 0 (true counts as 1). Each sum counts in whole
 * percents (rounded; every seeded effect is a whole number), so the phases' formulas stay integer.
 */
import { sql } from 'drizzle-orm';
import type { TurnContext } from './context.ts';

const EFFECT_KEYS = ['production_bonus', 'chain_bonus', 'material_reduction', 'store_bonus', 'price_bonus', 'cost_reduction'] as const;

function effectSum(key: string) {
  return sql.raw(`round(sum(case jsonb_typeof(u.effects->'${key}')
      when 'number' then (u.effects->>'${key}')::numeric
      when 'boolean' then case when (u.effects->>'${key}')::boolean then 1 else 0 end
      else 0 end))::int as ${key}`);
}

export async function createResearchTable(ctx: TurnContext): Promise<void> {
  await ctx.tx.execute(sql`
    create temp table turn_research on commit drop as
    select cr.company_id, u.building_type, ${sql.join(EFFECT_KEYS.map(effectSum), sql`, `)}
    from company_research cr
    join research_upgrades u on u.id = cr.upgrade_id
    join turn_companies tc on tc.company_id = cr.company_id
    group by cr.company_id, u.building_type`);
}

/** SQL for one effect of building `b` (alias), given joins `ra` (all types) and `rt` (its type). */
export function researchEffect(key: (typeof EFFECT_KEYS)[number]) {
  return sql.raw(`(coalesce(ra.${key}, 0) + coalesce(rt.${key}, 0))`);
}

/** The two joins researchEffect needs, for a buildings alias `b`. */
export const researchJoins = sql.raw(`
  left join turn_research ra on ra.company_id = b.company_id and ra.building_type is null
  left join turn_research rt on rt.company_id = b.company_id and rt.building_type = b.type`);
