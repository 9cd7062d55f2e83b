/**
 * Phase 9, politics (docs/economy.md, "Politics"; rollPoliticalEvent and electionTaxRateRule in
 * shared/src/rules/politics.ts). Countries are few (a bounded set), so this phase loops over them in
 * id order drawing from the turn's seeded generator. Events start next week and last 4 weeks; the
 * lobby for lower taxes makes favourable events likelier, the lobby for higher taxes less likely.
 * Every 12th week each country holds a contested election (lower taxes vs higher taxes + the
 * citizens), then influence there halves.
 */
import { sql } from 'drizzle-orm';
import {
  ELECTION_INTERVAL_WEEKS,
  INFLUENCE_DECAY_RATE,
  POLITICAL_EVENT_WEEKS,
  SUBSIDY_PER_BUILDING,
  electionTaxRateRule,
  publicInfluence,
  rollPoliticalEvent,
} from '@marketcraft/shared';
import type { TurnContext } from './context.ts';

type CountryInfluence = {
  id: number;
  name: string;
  tax_rate: number;
  base_tax_rate: number;
  lower_influence: number;
  higher_influence: number;
  top_company_id: number | null;
  top_company_name: string | null;
  top_platform: string | null;
};

/** Whether the country's top influencer backs `platform` (events and elections name it then). */
function lobbiedFor(country: CountryInfluence, platform: string): boolean {
  return country.top_company_name !== null && country.top_platform === platform;
}

export async function runPolitics(ctx: TurnContext): Promise<void> {
  const { tx, week, rng, worldId } = ctx;
  const countries = await tx.execute<CountryInfluence>(sql`
    select c.id, c.name, wc.tax_rate, c.base_tax_rate,
           coalesce((select sum(ir.influence_points) from influence_records ir join companies co on co.world_id = ir.world_id and co.id = ir.company_id
                     where ir.world_id = ${worldId}::int and ir.country_id = c.id and co.status = 'active' and ir.platform = 'lower_taxes'), 0)::int as lower_influence,
           coalesce((select sum(ir.influence_points) from influence_records ir join companies co on co.world_id = ir.world_id and co.id = ir.company_id
                     where ir.world_id = ${worldId}::int and ir.country_id = c.id and co.status = 'active' and ir.platform = 'higher_taxes'), 0)::int as higher_influence,
           top.company_id as top_company_id, top.name as top_company_name, top.platform as top_platform
    from countries c
    join world_countries wc on wc.world_id = ${worldId}::int and wc.country_id = c.id
    left join lateral (
      select ir.company_id, co.name, ir.platform from influence_records ir join companies co on co.world_id = ir.world_id and co.id = ir.company_id
      where ir.world_id = ${worldId}::int and ir.country_id = c.id and co.status = 'active' and ir.influence_points > 0
      order by ir.influence_points desc, ir.company_id asc limit 1
    ) top on true
    order by c.id`);

  const startWeek = week + 1;
  const untilWeek = week + POLITICAL_EVENT_WEEKS;
  for (const country of countries) {
    const event = rollPoliticalEvent(rng, Number(country.lower_influence) - Number(country.higher_influence));
    if (!event) continue;
    const favoured = lobbiedFor(country, 'lower_taxes') ? ` (lobbying by ${country.top_company_name})` : '';
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
      description = `${country.name} raises taxes by ${event.points} points${lobbiedFor(country, 'higher_taxes') ? ` (lobbying by ${country.top_company_name})` : ''}`;
    }
    await tx.execute(sql`
      insert into political_events (world_id, country_id, event_type, description, effect_value, beneficiary_company_id, started_week, active_until_week)
      values (${worldId}, ${country.id}, ${event.type}, ${description}, ${effect}, ${lobbiedFor(country, event.type === 'tax_increase' ? 'higher_taxes' : 'lower_taxes') ? country.top_company_id : null},
              ${startWeek}, ${untilWeek})`);
  }

  if (week % ELECTION_INTERVAL_WEEKS !== 0) return;
  for (const country of countries) {
    const lower = Number(country.lower_influence);
    const higher = Number(country.higher_influence);
    const newRate = electionTaxRateRule.evaluate({
      taxRate: Number(country.tax_rate),
      baseTaxRate: Number(country.base_tax_rate),
      lowerTaxesInfluence: lower,
      higherTaxesInfluence: higher,
    });
    const citizens = publicInfluence(Number(country.tax_rate), Number(country.base_tax_rate));
    const lowerSide = lower + citizens.lower;
    const higherSide = higher + citizens.higher;
    const winner =
      lowerSide > higherSide
        ? `the lower-tax platform wins (${lowerSide} to ${higherSide} points, citizens included)`
        : lowerSide < higherSide
          ? `the higher-tax platform wins (${higherSide} to ${lowerSide} points, citizens included)`
          : 'a tie; policy returns toward its base';
    const description = `Election in ${country.name}: ${winner}; tax rate ${country.tax_rate}% -> ${newRate}%`;
    if (newRate !== Number(country.tax_rate)) {
      await tx.execute(sql`update world_countries set tax_rate = ${newRate} where world_id = ${worldId}::int and country_id = ${country.id}`);
    }
    const winningPlatform = lowerSide > higherSide ? 'lower_taxes' : lowerSide < higherSide ? 'higher_taxes' : null;
    const beneficiary = winningPlatform && lobbiedFor(country, winningPlatform) ? country.top_company_id : null;
    await tx.execute(sql`
      insert into political_events (world_id, country_id, event_type, description, effect_value, beneficiary_company_id, started_week, active_until_week)
      values (${worldId}, ${country.id}, 'election', ${description}, ${newRate}, ${beneficiary}, ${week}, ${week})`);
  }
  await tx.execute(sql`
    update influence_records set influence_points = floor(influence_points * ${INFLUENCE_DECAY_RATE}::numeric)::int
    where world_id = ${worldId}::int and influence_points > 0`);
}
