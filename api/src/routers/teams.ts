/**
 * Teams in class worlds (docs/classroom.md, "Teams"): the instructor's Teams panel and a student's
 * own team. Instructors see and move every team; a student sees only their own team and may leave
 * it or label a teammate's role; everyone else gets the world's 404.
 */
import { assignTeamMember, listTeams, removeMemberFromTeam, updateTeamMember, worldContributions } from '@marketcraft/db';
import { assignTeamMemberSchema, removeTeamMemberSchema, updateTeamMemberSchema, worldIdInput } from '@marketcraft/shared';
import { instructorProcedure, router, signedInProcedure } from '../trpc.ts';

export const teamsRouter = router({
  list: signedInProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/worlds/{id}/teams',
        summary: "A class world's teams: instructors every team; a student their own (members, roles, team code)",
      },
    })
    .input(worldIdInput)
    .query(({ ctx, input }) => listTeams(ctx.db, ctx.user, input.id)),

  contributions: signedInProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'GET',
        path: '/worlds/{id}/contributions',
        summary: "Instructors: each team member's share of the team's actions and a week-by-week timeline, from the action log",
      },
    })
    .input(worldIdInput)
    .query(({ ctx, input }) => worldContributions(ctx.db, ctx.user, input.id)),

  assign: instructorProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'POST',
        path: '/worlds/{id}/teams/members',
        summary: 'Instructors: place a student in a team, or move them {email, company_id, role?} (their old company keeps running); 409 when it is full',
      },
    })
    .input(assignTeamMemberSchema)
    .mutation(({ ctx, input }) => assignTeamMember(ctx.db, ctx.user, input.id, { email: input.email, companyId: input.company_id, role: input.role })),

  update: signedInProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'PATCH',
        path: '/worlds/{id}/teams/members/{user_id}',
        summary: "Instructors or teammates: a member's role {role: ceo|operations|finance|sales|null}",
      },
    })
    .input(updateTeamMemberSchema)
    .mutation(({ ctx, input }) => updateTeamMember(ctx.db, ctx.user, input.id, input.user_id, input.role)),

  remove: signedInProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'DELETE',
        path: '/worlds/{id}/teams/members/{user_id}',
        summary: 'Instructors: remove a member; a student: leave their team (not as its last member). The company keeps running',
      },
    })
    .input(removeTeamMemberSchema)
    .mutation(({ ctx, input }) => removeMemberFromTeam(ctx.db, ctx.user, input.id, input.user_id)),
});
