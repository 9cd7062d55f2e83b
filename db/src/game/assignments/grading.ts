/**
 * The turn's grades phase (worker/src/turn/grades.ts): every checkpoint of the world's open
 * assignments (due week not passed) that a player company earned in the week just processed, with
 * its evidence, read from the week report the turn has just written (the figures the player sees)
 * and, for efficiency, the buildings as the week ends. One insert per kind, set-based; a checkpoint
 * earned once stays earned (`on conflict do nothing`), its evidence from the first week that
 * earned it. Nothing here depends on the clock or on ids' order: the same week grades the same.
 *
 * Grading in the turn rather than on read: the evidence is what the week showed when it was earned
 * (efficiency is not kept week by week), and reading the gradebook stays one select.
 */
import { sql, type SQL } from 'drizzle-orm';
import { efficiencyRule, type CheckpointKind } from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { ruleSql } from '../../ruleSql.ts';

/** Cents as dollars in a jsonb figure. */
const dollars = (cents: SQL) => sql`round((${cents})::numeric / 100, 2)`;
const money = (cents: SQL) => sql`to_char((${cents})::numeric / 100, 'FM$999,999,999,990.00')`;

/** For each kind graded by the turn: the evidence (jsonb) of report `wr` (this week's) and checkpoint `c`, null when not earned. */
function earnedEvidence(worldId: number, week: number): Record<Exclude<CheckpointKind, 'profit_question'>, SQL> {
  const run = (condition: SQL, label: string, value: SQL) => sql`(
    select case when count(*) filter (where ${condition}) = c.weeks then jsonb_build_object(
      'summary', ${label} || ' in weeks ' || (${week}::int - c.weeks + 1) || ' to ' || ${week}::int,
      'figures', jsonb_agg(jsonb_build_object('label', 'Week ' || r.week, 'value', ${value}, 'unit', 'dollars') order by r.week)) end
    from week_reports r
    where r.world_id = ${worldId}::int and r.company_id = wr.company_id and r.week between ${week}::int - c.weeks + 1 and ${week}::int)`;
  return {
    net_worth: sql`case when wr.net_worth_cents >= c.target then jsonb_build_object(
      'summary', 'Net worth ' || ${money(sql`wr.net_worth_cents`)} || ' at the end of week ' || ${week}::int || ' (target ' || ${money(sql`c.target`)} || ')',
      'figures', jsonb_build_array(jsonb_build_object('label', 'Net worth', 'value', ${dollars(sql`wr.net_worth_cents`)}, 'unit', 'dollars'),
                                   jsonb_build_object('label', 'Target', 'value', ${dollars(sql`c.target`)}, 'unit', 'dollars'))) end`,
    weekly_profit: run(sql`r.profit_cents > 0`, 'A profit every week', dollars(sql`r.profit_cents`)),
    no_debt: run(sql`r.cash_end_cents >= 0`, 'Cash at $0 or more at the end of every week', dollars(sql`r.cash_end_cents`)),
    cities: sql`(
      select case when count(distinct s.city_id) >= c.target then jsonb_build_object(
        'summary', 'Stores sold in ' || count(distinct s.city_id) || ' cities in week ' || ${week}::int || ': ' || string_agg(distinct ci.name, ', '),
        'figures', jsonb_build_array(jsonb_build_object('label', 'Cities with sales', 'value', count(distinct s.city_id), 'unit', 'count'),
                                     jsonb_build_object('label', 'Units sold', 'value', sum(s.units), 'unit', 'units'))) end
      from unnest(wr.sale_city_ids, wr.sale_units) s(city_id, units) join cities ci on ci.id = s.city_id
      where s.units > 0)`,
    chain: sql`(
      select case when p.product_id is not null then jsonb_build_object(
        'summary', 'Week ' || ${week}::int || ': extracted ' || p.extracted || ' ' || pr.name || ', used ' || p.used || ' of it, and sold ' || sold.units || ' units in your stores',
        'figures', jsonb_build_array(jsonb_build_object('label', pr.name || ' extracted', 'value', p.extracted, 'unit', 'units'),
                                     jsonb_build_object('label', pr.name || ' used', 'value', p.used, 'unit', 'units'),
                                     jsonb_build_object('label', 'Units sold in your stores', 'value', sold.units, 'unit', 'units'))) end
      from (select coalesce(sum(units), 0) as units from unnest(wr.sale_units) u(units)) sold
      left join lateral (
        select made.product_id, sum(made.units) as extracted,
               (select sum(used.units) from unnest(wr.production_product_ids, wr.production_made, wr.production_units) used(product_id, made, units)
                where not used.made and used.product_id = made.product_id) as used
        from unnest(wr.production_building_types, wr.production_product_ids, wr.production_made, wr.production_units) made(building_type, product_id, made, units)
        join building_types bt on bt.type = made.building_type and bt.category = 'extraction'
        where made.made and made.units > 0
        group by made.product_id
        having exists (select 1 from unnest(wr.production_product_ids, wr.production_made, wr.production_units) used(product_id, made, units)
                       where not used.made and used.units > 0 and used.product_id = made.product_id)
        order by made.product_id limit 1) p on sold.units > 0
      left join products pr on pr.id = p.product_id)`,
    efficiency: sql`(
      select case when count(*) > 0 and min(b.efficiency) >= c.target then jsonb_build_object(
        'summary', 'Every building at ' || min(b.efficiency) || '% efficiency or more at the end of week ' || ${week}::int,
        'figures', jsonb_build_array(jsonb_build_object('label', 'Lowest efficiency', 'value', min(b.efficiency), 'unit', 'percent'),
                                     jsonb_build_object('label', 'Buildings', 'value', count(*), 'unit', 'count'))) end
      from (select ${ruleSql(efficiencyRule, { employees: sql`b.employees`, equipmentLevel: sql`b.equipment_level` })} as efficiency
            from buildings b where b.world_id = ${worldId}::int and b.company_id = wr.company_id) b)`,
  };
}

/** Whether the world has an assignment still open in `week` (most worlds have none: the phase then costs one probe). */
async function hasOpenAssignments(tx: DbExecutor, worldId: number, week: number): Promise<boolean> {
  const [row] = await tx.execute<{ open: boolean }>(sql`select exists (select 1 from assignments where world_id = ${worldId} and due_week >= ${week}) as open`);
  return Boolean(row?.open);
}

/** Grades the week just processed: inserts what each player company earned this week (see the file's comment). */
export async function gradeCheckpointsOfWeek(tx: DbExecutor, worldId: number, week: number): Promise<void> {
  if (!(await hasOpenAssignments(tx, worldId, week))) return;
  const evidence = earnedEvidence(worldId, week);
  const byKind = Object.entries(evidence).map(([kind, earned]) => sql`when ${kind} then ${earned}`);
  await tx.execute(sql`
    insert into checkpoint_results (world_id, checkpoint_id, company_id, week, points, evidence)
    select ${worldId}::int, graded.checkpoint_id, graded.company_id, ${week}::int, graded.points, graded.evidence
    from (
      select c.id as checkpoint_id, wr.company_id, c.points, case c.kind ${sql.join(byKind, sql` `)} end as evidence
      from assignment_checkpoints c
      join assignments a on a.world_id = c.world_id and a.id = c.assignment_id and a.due_week >= ${week}::int
      join week_reports wr on wr.world_id = ${worldId}::int and wr.week = ${week}::int
      where c.world_id = ${worldId}::int and c.kind <> 'profit_question'
        and not exists (select 1 from checkpoint_results done where done.world_id = ${worldId}::int and done.checkpoint_id = c.id and done.company_id = wr.company_id)
    ) graded
    where graded.evidence is not null
    on conflict do nothing`);
}
