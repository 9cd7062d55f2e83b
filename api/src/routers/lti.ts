/**
 * The JSON routes of the course system link (docs/classroom.md, "Launch from your course system"):
 * platform registrations, the grade post and the roster of a world's course, and linking a course
 * to another world. The protocol's own endpoints (login, launch, deep link, JWKS, config) stay
 * plain routes in lti/routes.ts: the platform's browser posts forms to them and follows redirects,
 * which tRPC's JSON calls do not do.
 */
import { requireInstructor } from '@marketcraft/db';
import { postWorldScores, worldRoster } from '@marketcraft/db/lti/grades.ts';
import { linkCourseToWorld, worldCourses } from '@marketcraft/db/lti/courses.ts';
import { linkLtiCourseSchema, registerLtiPlatformSchema, worldIdInput } from '@marketcraft/shared';
import { instructorProcedure, router, signedInProcedure } from '../trpc.ts';
import { listLtiPlatforms, registerLtiPlatform, requireRegistrar } from '../lti/platforms.ts';

export const ltiRouter = router({
  platforms: signedInProcedure
    .meta({
      access: 'session',
      rest: { method: 'GET', path: '/lti/platforms', summary: 'The registered course platforms (site admins: all; instructors: those they registered)' },
    })
    .query(({ ctx }) => listLtiPlatforms(ctx.db, ctx.user)),

  registerPlatform: signedInProcedure
    // Someone who may not register is refused (403) whatever they sent, before the body's 400.
    .use(async ({ ctx, next }) => {
      await requireRegistrar(ctx.db, ctx.user);
      return next();
    })
    .meta({
      access: 'session',
      rest: {
        method: 'POST',
        path: '/lti/platforms',
        created: true,
        summary:
          'Register a course platform {issuer, client_id, deployment_ids, auth_login_url, auth_token_url, jwks_url} (site admins, or instructors for their own course); each issuer and client id once (409)',
      },
    })
    .input(registerLtiPlatformSchema)
    .mutation(({ ctx, input }) => registerLtiPlatform(ctx.db, ctx.user, input)),

  postScores: signedInProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'POST',
        path: '/worlds/{id}/lti/scores',
        summary:
          "Instructors: post each launched student's changed scores to the course's gradebook now (also done after every turn); 503 when the platform fails",
      },
    })
    .input(worldIdInput)
    .mutation(async ({ ctx, input }) => {
      await requireInstructor(ctx.db, ctx.user, input.id);
      return postWorldScores(ctx.db, input.id);
    }),

  roster: signedInProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'GET',
        path: '/worlds/{id}/lti/roster',
        summary: "Instructors: the course's members (Names and Role Provisioning) and whether each has launched; 409 without a course roster",
      },
    })
    .input(worldIdInput)
    .query(async ({ ctx, input }) => {
      await requireInstructor(ctx.db, ctx.user, input.id);
      return worldRoster(ctx.db, input.id);
    }),

  courses: signedInProcedure
    .meta({
      access: 'session',
      rest: { method: 'GET', path: '/worlds/{id}/lti/courses', summary: 'Instructors: the courses that launch into this world' },
    })
    .input(worldIdInput)
    .query(({ ctx, input }) => worldCourses(ctx.db, ctx.user, input.id)),

  linkCourse: instructorProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'POST',
        path: '/worlds/{id}/lti/link',
        summary:
          'Instructors: the course that created this world plays in another of their class worlds instead {world_id}; only before any student has joined (409); this world ends',
      },
    })
    .input(linkLtiCourseSchema)
    .mutation(async ({ ctx, input }) => {
      await linkCourseToWorld(ctx.db, ctx.user, input.id, input.world_id);
      return { ok: true as const };
    }),
});
