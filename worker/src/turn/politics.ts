/**
 * Phase 8, politics (docs/economy.md, rollPoliticalEvent and electionTaxRate in
 * shared/src/rules/politics.ts). Countries are few (a bounded set), so this phase loops over them in
 * id order drawing from the turn's seeded generator. Events start next week and last 4 weeks.
 * Every 12th week each country holds an election, then influence there halves.
 */
import { sql } from 'drizzle-orm';
import {
  ELECTION_INTERVAL_WEEKS,
  INFLUENCE_DECAY_RATE,
  POLITICAL_EVENT_WEEKS,
  SUBSIDY_PER_BUILDING,
  electionTaxRate,
  rollPoliticalEvent,
} from '@marketcraft/shared';
import type { TurnContext } from './context.ts';

type CountryInfluence = {
  id: number;
  name: string;
  tax_rate: number;
  base_tax_rate: number;
  total_influence: number;
  top_company_id: number | null;
  top_company_name: string | null;
};

export async function runPolitics(ctx: TurnContext): Promise<void> {
  const { tx, week, rng } = ctx;
  const countries = await tx.execute<CountryInfluence>(sql`
    select c.id, c.name, c.tax_rate, c.base_tax_rate,
           coalesce((select sum(ir.influence_points) from influence_records ir join companies co on co.id = ir.company_id
                     where ir.country_id = c.id and co.status = 'active'), 0)::int as total_influence,
           top.company_id as top_company_id, top.name as top_company_name
    from countries c
    left join lateral (
      select ir.company_id, co.name from influence_records ir join companies co on co.id = ir.company_id
      where ir.country_id = c.id and co.status = 'active' and ir.influence_points > 0
      order by ir.influence_points desc, ir.company_id asc limit 1
    ) top on true
    order by c.id`);

  const startWeek = week + 1;
  const untilWeek = week + POLITICAL_EVENT_WEEKS;
  for (const country of countries) {
    const event = rollPoliticalEvent(rng, Number(country.total_influence));
    if (!event) continue;
    const favoured = country.top_company_name ? ` (lobbying by ${country.top_company_name})` : '';
    let description: string;
    let effect: number;
    if (event.type === 'subsidy') {
      effect = SUBSIDY_PER_BUILDING;
      description = `${country.name} pays a subsidy of $${SUBSIDY_PER_BUILDING} per building each week${favoured}`;
    } else if (event.type === 'tax_cut') {
      effect = event.points;
      description = `${country.name} cuts taxes by ${event.points} points${favoured}`;
    } else {
      effect = event.points;
      description = `${country.name} raises taxes by ${event.points} points`;
    }
    await tx.execute(sql`
      insert into political_events (country_id, event_type, description, effect_value, beneficiary_company_id, started_week, active_until_week)
      values (${country.id}, ${event.type}, ${description}, ${effect}, ${event.type === 'tax_increase' ? null : country.top_company_id},
              ${startWeek}, ${untilWeek})`);
  }

  if (week % ELECTION_INTERVAL_WEEKS !== 0) return;
  for (const country of countries) {
    const hasInfluence = country.top_company_id !== null;
    const newRate = electionTaxRate(Number(country.tax_rate), Number(country.base_tax_rate), hasInfluence);
    const winner = hasInfluence ? `${country.top_company_name}'s lower-tax platform wins` : 'no lobby; policy returns toward its base';
    const description = `Election in ${country.name}: ${winner}; tax rate ${country.tax_rate}% -> ${newRate}%`;
    if (newRate !== Number(country.tax_rate)) {
      await tx.execute(sql`update countries set tax_rate = ${newRate} where id = ${country.id}`);
    }
    await tx.execute(sql`
      insert into political_events (country_id, event_type, description, effect_value, beneficiary_company_id, started_week, active_until_week)
      values (${country.id}, 'election', ${description}, ${newRate}, ${country.top_company_id}, ${week}, ${week})`);
  }
  await tx.execute(sql`
    update influence_records set influence_points = floor(influence_points * ${INFLUENCE_DECAY_RATE}::numeric)::int
    where influence_points > 0`);
}
