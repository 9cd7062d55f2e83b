/**
 * A student's own assignments (GET /api/me/assignments) in the world they play: their team's
 * checkpoints (points weighted as the gradebook weighs them), each checkpoint's status, what it measures and its evidence once earned; and the question checkpoint, built from
 * the terms of their own latest reported week's profit and graded by the server when they answer
 * (POST /api/me/assignments/{assignment_id}/answers). One answer per question and company: a wrong
 * answer is kept (0 points), so trying every option cannot earn the points.
 */
import { sql } from 'drizzle-orm';
import {
  GameError,
  PROFIT_TERMS,
  centsToDollars,
  profitQuestion,
  type CheckpointEvidence,
  type MyAssignmentView,
  type MyCheckpointView,
  type ProfitTermName,
  type WeekProfitFigures,
} from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { appendToLog } from '../replay/log.ts';
import { ASSIGNMENT_NOT_FOUND, assignmentViews, readAssignments, type ASSIGNMENT_LOG_ACTIONS } from './assignments.ts';
import { scoreWeightsOf } from './gradebook.ts';
import { companyMembersSql } from './members.ts';

const CHECKPOINT_NOT_FOUND = 'Checkpoint not found in this assignment';
const NOT_A_QUESTION = 'This checkpoint is graded by the turn: it has no question to answer';
const ALREADY_ANSWERED = 'You have already answered this question';
const nothingToAsk = (week: number) => `Week ${week}'s profit moved by fewer than two terms: there is nothing to ask about it`;
const answersClosed = (dueWeek: number) => `This assignment was due in week ${dueWeek}: answers are closed`;
const noReport = (week: number) => `No report of yours for week ${week}: ask about a week your company has played`;
const weekAfterDue = (dueWeek: number) => `Answer about a week up to the due week (${dueWeek})`;

export interface StudentCompany {
  id: number;
  worldId: number;
}

type ReportRow = {
  week: number;
  profit_cents: number;
  store_revenue_cents: number;
  market_sales_cents: number;
  market_purchases_cents: number;
  wages_cents: number;
  operating_cents: number;
  subsidy_cents: number;
  tax_cents: number;
};

const reportColumns = sql`week, profit_cents, store_revenue_cents, market_sales_cents, market_purchases_cents, wages_cents, operating_cents, subsidy_cents, tax_cents`;

function figuresOf(row: ReportRow): WeekProfitFigures {
  return {
    profitCents: Number(row.profit_cents),
    storeRevenueCents: Number(row.store_revenue_cents),
    marketSalesCents: Number(row.market_sales_cents),
    marketPurchasesCents: Number(row.market_purchases_cents),
    wagesCents: Number(row.wages_cents),
    operatingCents: Number(row.operating_cents),
    subsidyCents: Number(row.subsidy_cents),
    taxCents: Number(row.tax_cents),
  };
}

const promptOf = (row: ReportRow) =>
  `In week ${row.week} your profit was $${centsToDollars(Number(row.profit_cents)).toLocaleString('en-US', { minimumFractionDigits: 2 })}. Which term moved it most (up or down)?`;

type ResultRow = { checkpoint_id: number; points: number; week: number; evidence: CheckpointEvidence };

/** GET /api/me/assignments: the assignments of the world the company plays in, as its student sees them. */
export async function myAssignments(db: DbExecutor, company: StudentCompany, userId: number): Promise<MyAssignmentView[]> {
  const weights = await scoreWeightsOf(db, company.worldId);
  // The student's share of their team's points (1 alone, or with equal weighting), as the gradebook counts it.
  const [member] = await db.execute<{ weight: string }>(
    sql`select weight from ${companyMembersSql(company.worldId, weights.team_weighting)} m where m.company_id = ${company.id} and m.user_id = ${userId}`,
  );
  const weight = Number(member?.weight ?? 1);
  const [[world], { assignments, checkpoints }, results, reports] = await Promise.all([
    db.execute<{ current_week: number }>(sql`select current_week from worlds where id = ${company.worldId}`),
    readAssignments(db, company.worldId),
    db.execute<ResultRow>(
      sql`select checkpoint_id, points, week, evidence from checkpoint_results where world_id = ${company.worldId} and company_id = ${company.id}`,
    ),
    db.execute<ReportRow>(sql`select ${reportColumns} from week_reports where world_id = ${company.worldId} and company_id = ${company.id} order by week desc`),
  ]);
  const currentWeek = Number(world?.current_week ?? 1);
  const resultOf = new Map(results.map((row) => [Number(row.checkpoint_id), row]));
  return assignmentViews(assignments, checkpoints).map((assignment) => {
    // Open until the turn of its due week has run (the world then stands at due week + 1).
    const open = currentWeek <= assignment.due_week;
    const latest = reports.find((report) => Number(report.week) <= assignment.due_week);
    const mine: MyCheckpointView[] = assignment.checkpoints.map((checkpoint) => {
      const result = resultOf.get(checkpoint.id);
      const counts = result !== undefined && Number(result.week) <= assignment.due_week;
      const question = checkpoint.kind === 'profit_question' && !result && open && latest && profitQuestion(figuresOf(latest));
      return {
        ...checkpoint,
        status: counts && Number(result.points) > 0 ? 'earned' : counts ? 'wrong' : open ? 'open' : 'missed',
        points_earned: counts ? Math.round(Number(result.points) * weight) : 0,
        week: counts ? Number(result.week) : null,
        evidence: counts ? result.evidence : null,
        question: question ? { week: Number(latest.week), prompt: promptOf(latest), options: question.options } : null,
      };
    });
    return {
      ...assignment,
      status: open ? 'open' : 'closed',
      points_earned: mine.reduce((sum, checkpoint) => sum + checkpoint.points_earned, 0),
      checkpoints: mine,
    };
  });
}

const labelOf = (name: ProfitTermName) => PROFIT_TERMS.find((term) => term.name === name)!.label;

/** POST /api/me/assignments/{assignment_id}/answers: the answer to a question checkpoint about one of the company's weeks (up to the due week). */
export async function answerCheckpoint(
  db: DbExecutor,
  company: StudentCompany,
  userId: number,
  input: { assignmentId: number; checkpointId: number; week: number; answer: ProfitTermName },
): Promise<MyCheckpointView> {
  const [checkpoint] = await db.execute<{ kind: string; points: number; due_week: number; current_week: number }>(sql`
    select cp.kind, cp.points, a.due_week, w.current_week
    from assignments a join worlds w on w.id = a.world_id
    left join assignment_checkpoints cp on cp.world_id = a.world_id and cp.assignment_id = a.id and cp.id = ${input.checkpointId}
    where a.world_id = ${company.worldId} and a.id = ${input.assignmentId}`);
  if (!checkpoint) throw new GameError('NOT_FOUND', ASSIGNMENT_NOT_FOUND);
  if (checkpoint.kind === null) throw new GameError('NOT_FOUND', CHECKPOINT_NOT_FOUND);
  if (checkpoint.kind !== 'profit_question') throw new GameError('RULE_BROKEN', NOT_A_QUESTION);
  const dueWeek = Number(checkpoint.due_week);
  if (Number(checkpoint.current_week) > dueWeek) throw new GameError('CONFLICT', answersClosed(dueWeek));
  if (input.week > dueWeek) throw new GameError('RULE_BROKEN', weekAfterDue(dueWeek));
  const [report] = await db.execute<ReportRow>(
    sql`select ${reportColumns} from week_reports where world_id = ${company.worldId} and company_id = ${company.id} and week = ${input.week}`,
  );
  if (!report) throw new GameError('NOT_FOUND', noReport(input.week));
  const question = profitQuestion(figuresOf(report));
  if (!question) throw new GameError('RULE_BROKEN', nothingToAsk(input.week));
  if (!question.options.some((option) => option.name === input.answer)) {
    throw new GameError('RULE_BROKEN', `${labelOf(input.answer)} did not move your profit in week ${input.week}: choose one of the options`);
  }
  const right = input.answer === question.answer;
  const effect = (name: ProfitTermName) => centsToDollars(question.effects[name]);
  const evidence: CheckpointEvidence = {
    summary: `Week ${input.week}: answered "${labelOf(input.answer)}"; the term that moved profit most was "${labelOf(question.answer)}" (${effect(question.answer) >= 0 ? '+' : ''}$${effect(question.answer).toFixed(2)})`,
    figures: question.options.map((option) => ({ label: option.label, value: effect(option.name), unit: 'dollars' as const })),
  };
  // The key (checkpoint, company) makes the first answer the only one, also when two arrive at once.
  await db.transaction(async (tx) => {
    const inserted = await tx.execute(sql`
      insert into checkpoint_results (world_id, checkpoint_id, company_id, week, points, evidence, answered_by_user_id)
      values (${company.worldId}, ${input.checkpointId}, ${company.id}, ${input.week}, ${right ? Number(checkpoint.points) : 0}, ${JSON.stringify(evidence)}::jsonb, ${userId})
      on conflict do nothing returning checkpoint_id`);
    if (inserted.length === 0) throw new GameError('CONFLICT', ALREADY_ANSWERED);
    // In the world's action log (db/src/game/replay/log.ts): replay answers the same about the same week.
    await appendToLog(tx, [
      {
        worldId: company.worldId,
        companyId: company.id,
        actingUserId: userId,
        action: 'answerCheckpoint' satisfies (typeof ASSIGNMENT_LOG_ACTIONS)[number],
        input: { assignment_id: input.assignmentId, checkpoint_id: input.checkpointId, week: input.week, answer: input.answer },
        outcome: { applied: true, result: { points: right ? Number(checkpoint.points) : 0 } },
      },
    ]);
  });
  const views = await myAssignments(db, company, userId);
  return views.find((assignment) => assignment.id === input.assignmentId)!.checkpoints.find((view) => view.id === input.checkpointId)!;
}
