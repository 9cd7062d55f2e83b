/**
 * The gradebook of a class world (docs/classroom.md, "How grades are computed"): each student's
 * points per assignment (the checkpoints their company earned by the due week, with the evidence),
 * and the world's final score, the instructor's weights applied to three parts of 0-100:
 *
 * - net worth rank: the richest player company 100, the others 100 x (players - rank + 1) / players,
 *   rounded, ties sharing the better rank (the score LTI posted before assignments existed);
 * - profit: the same by the company's profit over all its reported weeks;
 * - checkpoints: 100 x points earned / points possible over all assignments (0 without any).
 *
 * A student whose company went bankrupt keeps the checkpoints it earned (and any company they
 * founded since adds its own); only an active company has a rank. The one place these are computed:
 * the gradebook, its CSV and the course platform's scores (db/src/lti/grades.ts) all read it.
 */
import { sql } from 'drizzle-orm';
import { DEFAULT_SCORE_WEIGHTS, type CheckpointEvidence, type GradebookView, type ScoreWeights } from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { activeCompaniesCashSql, valuationSql } from '../companies/valuation.ts';
import { requireInstructor, type WorldUser } from '../worlds/worlds.ts';
import { csvLine } from '../worlds/classroom.ts';
import { readAssignments, assignmentViews, logInstructorAction } from './assignments.ts';
import { companyMembersSql } from './members.ts';

/** The points a world's score is out of (the line item's scoreMaximum). */
export const WORLD_SCORE_MAXIMUM = 100;

/** A rank among `players` as a score out of 100 (the best rank 100). */
const rankScore = (rank: number, players: number) => Math.round((WORLD_SCORE_MAXIMUM * (players - rank + 1)) / players);

export async function scoreWeightsOf(db: DbExecutor, worldId: number): Promise<ScoreWeights> {
  const [row] = await db.execute<ScoreWeights>(
    sql`select net_worth_rank, profit, checkpoints, team_weighting from world_score_weights where world_id = ${worldId}`,
  );
  return row
    ? { net_worth_rank: Number(row.net_worth_rank), profit: Number(row.profit), checkpoints: Number(row.checkpoints), team_weighting: row.team_weighting }
    : { ...DEFAULT_SCORE_WEIGHTS };
}

/** PUT /api/worlds/{id}/score-weights: the instructor's weights (they add up to 100: the schema checks). */
export async function setScoreWeights(db: DbExecutor, user: WorldUser, worldId: number, weights: ScoreWeights): Promise<ScoreWeights> {
  await requireInstructor(db, user, worldId);
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into world_score_weights (world_id, net_worth_rank, profit, checkpoints, team_weighting)
      values (${worldId}, ${weights.net_worth_rank}, ${weights.profit}, ${weights.checkpoints}, ${weights.team_weighting})
      on conflict (world_id) do update set net_worth_rank = excluded.net_worth_rank, profit = excluded.profit, checkpoints = excluded.checkpoints,
        team_weighting = excluded.team_weighting, updated_at = now()`);
    await logInstructorAction(tx, worldId, user, 'setScoreWeights', { ...weights });
  });
  return scoreWeightsOf(db, worldId);
}

type StudentRow = {
  user_id: number;
  name: string;
  email: string;
  company_id: number;
  company_name: string;
  net_worth_rank: number | null;
  profit_rank: number | null;
  ranked: number;
};
type EarnedRow = { user_id: number; assignment_id: number; checkpoint_id: number; points: number; week: number; evidence: CheckpointEvidence };

/** The gradebook, computed (no access check: gradebook() and the LTI scores check their callers). */
export async function computeGradebook(db: DbExecutor, worldId: number): Promise<GradebookView> {
  const [world] = await db.execute<{ current_week: number }>(sql`select current_week from worlds where id = ${worldId}`);
  const weights = await scoreWeightsOf(db, worldId);
  const members = companyMembersSql(worldId, weights.team_weighting);
  const [{ assignments, checkpoints }, students, earned] = await Promise.all([
    readAssignments(db, worldId),
    db.execute<StudentRow>(sql`
      with ranked as (
        select c.id as company_id,
               rank() over (order by coalesce(v.net_worth_cents, 0) desc)::int as net_worth_rank,
               rank() over (order by coalesce(p.profit_cents, 0) desc)::int as profit_rank,
               count(*) over ()::int as ranked
        from companies c
        left join ${valuationSql(activeCompaniesCashSql(worldId), { worldId })} v on v.company_id = c.id
        left join (select company_id, sum(profit_cents)::bigint as profit_cents from week_reports where world_id = ${worldId}::int group by company_id) p
          on p.company_id = c.id
        where c.world_id = ${worldId}::int and not c.is_bot and c.status = 'active' and c.user_id is not null
      ), students as (
        -- Each student's company: the active one, else the last they played.
        select distinct on (m.user_id) m.user_id, m.company_id
        from ${members} m join companies c on c.world_id = ${worldId}::int and c.id = m.company_id
        order by m.user_id, (c.status = 'active') desc, c.id desc
      )
      select s.user_id, coalesce(lu.name, u.email) as name, u.email, s.company_id, c.name as company_name,
             r.net_worth_rank, r.profit_rank, coalesce((select max(ranked) from ranked), 0)::int as ranked
      from students s
      join users u on u.id = s.user_id
      join companies c on c.world_id = ${worldId}::int and c.id = s.company_id
      left join lti_users lu on lu.user_id = s.user_id
      left join ranked r on r.company_id = s.company_id
      order by lower(coalesce(lu.name, u.email)), s.user_id`),
    // Per student and checkpoint the best result of their companies by the due week (the first week among equals).
    db.execute<EarnedRow>(sql`
      select distinct on (m.user_id, r.checkpoint_id) m.user_id, cp.assignment_id, r.checkpoint_id,
             round(r.points * m.weight)::int as points, r.week, r.evidence
      from checkpoint_results r
      join ${members} m on m.company_id = r.company_id
      join assignment_checkpoints cp on cp.world_id = r.world_id and cp.id = r.checkpoint_id
      join assignments a on a.world_id = cp.world_id and a.id = cp.assignment_id
      where r.world_id = ${worldId}::int and r.week <= a.due_week and r.points > 0
      order by m.user_id, r.checkpoint_id, r.points desc, r.week`),
  ]);
  const views = assignmentViews(assignments, checkpoints);
  const possible = views.reduce((sum, assignment) => sum + assignment.points_possible, 0);
  return {
    current_week: Number(world?.current_week ?? 1),
    weights,
    assignments: views.map(({ id, title, due_week, points_possible }) => ({ id, title, due_week, points_possible })),
    students: students.map((student) => {
      const own = earned.filter((row) => Number(row.user_id) === Number(student.user_id));
      const perAssignment = views.map((assignment) => {
        const rows = own.filter((row) => Number(row.assignment_id) === assignment.id);
        return {
          assignment_id: assignment.id,
          points: rows.reduce((sum, row) => sum + Number(row.points), 0),
          checkpoints: rows.map((row) => ({
            checkpoint_id: Number(row.checkpoint_id),
            points: Number(row.points),
            week: Number(row.week),
            evidence: row.evidence,
          })),
        };
      });
      const totalPoints = perAssignment.reduce((sum, assignment) => sum + assignment.points, 0);
      const ranked = Number(student.ranked);
      const netWorthRankScore = student.net_worth_rank === null ? 0 : rankScore(Number(student.net_worth_rank), ranked);
      const profitScore = student.profit_rank === null ? 0 : rankScore(Number(student.profit_rank), ranked);
      const checkpointScore = possible === 0 ? 0 : Math.round((WORLD_SCORE_MAXIMUM * totalPoints) / possible);
      return {
        user_id: Number(student.user_id),
        name: student.name,
        email: student.email,
        company_id: Number(student.company_id),
        company_name: student.company_name,
        assignments: perAssignment,
        total_points: totalPoints,
        net_worth_rank_score: netWorthRankScore,
        profit_score: profitScore,
        checkpoint_score: checkpointScore,
        final_score: Math.round((weights.net_worth_rank * netWorthRankScore + weights.profit * profitScore + weights.checkpoints * checkpointScore) / 100),
      };
    }),
  };
}

/** GET /api/worlds/{id}/gradebook: the world's instructors. */
export async function gradebook(db: DbExecutor, user: WorldUser, worldId: number): Promise<GradebookView> {
  await requireInstructor(db, user, worldId);
  return computeGradebook(db, worldId);
}

/**
 * GET /api/worlds/{id}/gradebook.csv: one row per student, the columns Canvas's and Moodle's grade
 * imports match on (docs/classroom.md, "The gradebook in Canvas and Moodle"): "Student", "ID",
 * "SIS User ID", "SIS Login ID", "Section" (Canvas's first five; Moodle maps "Email address" to its
 * users), then one column per assignment headed "<title> (<points possible>)" and the final score
 * "Marketcraft final score (100)".
 */
export async function gradebookCsv(db: DbExecutor, user: WorldUser, worldId: number): Promise<{ filename: string; csv: string }> {
  const world = await requireInstructor(db, user, worldId);
  const book = await computeGradebook(db, worldId);
  const header = [
    'Student',
    'ID',
    'SIS User ID',
    'SIS Login ID',
    'Section',
    'Email address',
    ...book.assignments.map((assignment) => `${assignment.title} (${assignment.points_possible})`),
    `Marketcraft final score (${WORLD_SCORE_MAXIMUM})`,
  ];
  const lines = [csvLine(header)];
  lines.push(csvLine(['Points Possible', '', '', '', '', '', ...book.assignments.map((assignment) => assignment.points_possible), WORLD_SCORE_MAXIMUM]));
  for (const student of book.students) {
    lines.push(
      csvLine([
        student.name,
        '',
        '',
        student.email,
        world.name,
        student.email,
        ...student.assignments.map((assignment) => assignment.points),
        student.final_score,
      ]),
    );
  }
  const slug =
    world.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'world';
  return { filename: `gradebook-${slug}-week-${book.current_week}.csv`, csv: lines.join('') };
}
