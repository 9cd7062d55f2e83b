/**
 * Graded assignments of class worlds (docs/classroom.md, "Assignments"): the instructor's
 * assignments, gradebook and scoring weights, and the student's own assignments and answers.
 * Instructors (and site admins) manage only their worlds; a student reads their own company's.
 */
import {
  answerCheckpoint,
  createAssignment,
  deleteAssignment,
  gradebook,
  listAssignments,
  myAssignments,
  setScoreWeights,
  updateAssignment,
} from '@marketcraft/db';
import {
  answerCheckpointSchema,
  assignmentIdInput,
  createAssignmentSchema,
  scoreWeightsSchema,
  updateAssignmentSchema,
  worldIdInput,
} from '@marketcraft/shared';
import { instructorProcedure, playerProcedure, router, signedInProcedure } from '../trpc.ts';

export const assignmentsRouter = router({
  list: signedInProcedure
    .meta({
      access: 'read',
      rest: { method: 'GET', path: '/worlds/{id}/assignments', summary: "The world's assignments and their checkpoints (members and instructors)" },
    })
    .input(worldIdInput)
    .query(({ ctx, input }) => listAssignments(ctx.db, ctx.user, input.id)),

  create: instructorProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'POST',
        path: '/worlds/{id}/assignments',
        summary:
          'Instructors: an assignment {title, due_week, checkpoints: [{kind, points 1-100, target, weeks}]}; kinds net_worth (target dollars), weekly_profit (weeks), chain, efficiency (target percent), no_debt (weeks), cities (target), profit_question',
      },
    })
    .input(createAssignmentSchema)
    .mutation(({ ctx, input }) =>
      createAssignment(ctx.db, ctx.user, input.id, { title: input.title, dueWeek: input.due_week, checkpoints: input.checkpoints }),
    ),

  update: instructorProcedure
    .meta({
      access: 'session',
      rest: { method: 'PATCH', path: '/worlds/{id}/assignments/{assignment_id}', summary: 'Instructors: change the title or the due week {title, due_week}' },
    })
    .input(updateAssignmentSchema)
    .mutation(({ ctx, input }) => updateAssignment(ctx.db, ctx.user, input.id, input.assignment_id, { title: input.title, dueWeek: input.due_week })),

  remove: instructorProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'DELETE',
        path: '/worlds/{id}/assignments/{assignment_id}',
        summary: 'Instructors: delete an assignment (with what its checkpoints earned)',
      },
    })
    .input(assignmentIdInput)
    .mutation(({ ctx, input }) => deleteAssignment(ctx.db, ctx.user, input.id, input.assignment_id)),

  gradebook: signedInProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'GET',
        path: '/worlds/{id}/gradebook',
        summary:
          "Instructors: students x assignments, each checkpoint's evidence, and the final score by the weights; /api/worlds/{id}/gradebook.csv downloads it",
      },
    })
    .input(worldIdInput)
    .query(({ ctx, input }) => gradebook(ctx.db, ctx.user, input.id)),

  setWeights: instructorProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'PUT',
        path: '/worlds/{id}/score-weights',
        summary:
          "Instructors: the final score's weights in percent {net_worth_rank, profit, checkpoints}, adding up to 100, and {team_weighting}: a team's points to each member equal or by contribution",
      },
    })
    .input(scoreWeightsSchema)
    .mutation(({ ctx, input }) =>
      setScoreWeights(ctx.db, ctx.user, input.id, {
        net_worth_rank: input.net_worth_rank,
        profit: input.profit,
        checkpoints: input.checkpoints,
        team_weighting: input.team_weighting,
      }),
    ),

  mine: playerProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/me/assignments',
        summary: "Your assignments in the world you play: each checkpoint's status, what it measures, its evidence, the question to answer",
      },
    })
    .query(({ ctx }) => myAssignments(ctx.db, { id: ctx.company.id, worldId: ctx.company.worldId }, ctx.user.id)),

  answer: playerProcedure
    .meta({
      access: 'trade',
      rest: {
        method: 'POST',
        path: '/me/assignments/{assignment_id}/answers',
        summary: 'Answer a question checkpoint {checkpoint_id, week, answer}: graded at once from that week of your reports; one answer per question',
      },
    })
    .input(answerCheckpointSchema)
    .mutation(({ ctx, input }) =>
      answerCheckpoint(ctx.db, { id: ctx.company.id, worldId: ctx.company.worldId }, ctx.user.id, {
        assignmentId: input.assignment_id,
        checkpointId: input.checkpoint_id,
        week: input.week,
        answer: input.answer,
      }),
    ),
});
