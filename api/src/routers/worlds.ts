/**
 * Worlds and classroom worlds (docs/worlds.md): the worlds a user sees, creating and joining
 * private worlds, the session's current world, and the instructor's tools. Instructors,
 * co-instructors and site admins manage a world; private worlds answer 404 to everyone else.
 */
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import {
  addAnnouncement,
  addCoInstructor,
  removeCoInstructor,
  addShock,
  abandonFork,
  createFork,
  forkComparison,
  createWorld,
  endWorld,
  exportWorldCsv,
  getWorld,
  joinWorld,
  JOIN_CODE_UNKNOWN,
  TEAM_CODE_UNKNOWN,
  listInstructors,
  listShocks,
  listWorlds,
  requireInstructor,
  rotateJoinCode,
  switchWorld,
  updateWorldClock,
  worldCompanyFigures,
  worldDebrief,
} from '@marketcraft/db';
import {
  GameError,
  MAX_ROW_ID,
  addCoInstructorSchema,
  removeCoInstructorSchema,
  announcementSchema,
  createWorldSchema,
  forkWorldSchema,
  forkComparisonSchema,
  idSchema,
  joinWorldSchema,
  shockSchema,
  updateWorldSchema,
  worldExportSchema,
  worldIdInput,
} from '@marketcraft/shared';
import { instructorProcedure, router, signedInProcedure } from '../trpc.ts';
import { checkJoinAttempts, refuseWrongJoinCode } from '../access/joinAttempts.ts';
import { isForkStillReplaying } from '../turnClient.ts';

/** Personal tokens reach forks and turns only in the caller's sandboxes (docs/api.md); a class world's are the website's. */
const TOKENS_ONLY_IN_SANDBOXES =
  "API tokens can fork only into a sandbox ({week, private: true}) and advance only your sandboxes: a class world's fork and turns are made on the website";

const switchWorldInput = z.object({ world_id: idSchema });
/** ?product_ids=1,2,3 (the debrief's price chart). */
const debriefInput = z.object({
  id: idSchema,
  product_ids: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'product_ids must be ids separated by commas')
    .optional()
    .transform((text) => (text ? text.split(',').map(Number) : []))
    // Each one an id the database can hold (a 20-digit id was a 500).
    .pipe(z.array(z.number().int().min(1).max(MAX_ROW_ID, 'This id does not exist'))),
});

export const worldsRouter = router({
  list: signedInProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/worlds',
        summary: 'The public worlds and the worlds you play in or run (site admins: every world), with your role in each',
      },
    })
    .query(({ ctx }) => listWorlds(ctx.db, ctx.user)),

  current: signedInProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/session/world', summary: 'The world this session plays in (the header shows it)' } })
    .query(({ ctx }) => getWorld(ctx.db, ctx.user, ctx.worldId)),

  switch: signedInProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'PUT',
        path: '/session/world',
        summary: 'Play in another world {world_id}: every route then answers for it; 404 for a private world you are not in',
      },
    })
    .input(switchWorldInput)
    .mutation(({ ctx, input }) => {
      if (!ctx.sessionId) throw new TRPCError({ code: 'FORBIDDEN', message: 'Only a signed-in session switches worlds' });
      return switchWorld(ctx.db, ctx.user, ctx.sessionId, input.world_id);
    }),

  create: signedInProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'POST',
        path: '/worlds',
        summary:
          'Create a private world {name, turn_interval_minutes 1-1440 or null (manual), starting_cash, bots 0-25, seed, max_players}: you are its instructor',
      },
    })
    .input(createWorldSchema)
    .mutation(({ ctx, input }) =>
      createWorld(ctx.db, ctx.user, {
        name: input.name,
        turnIntervalMinutes: input.turn_interval_minutes,
        startingCashDollars: input.starting_cash,
        bots: input.bots,
        seed: input.seed,
        maxPlayers: input.max_players,
        teamSize: input.team_size,
      }),
    ),

  join: signedInProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'POST',
        path: '/worlds/join',
        summary:
          "Join a private world by its code {code, company_name}, or a company's team in it {code, team_code}: 404 unknown code, 409 ended or full (world or team), 429 after 10 wrong codes in 10 minutes",
      },
    })
    .input(joinWorldSchema)
    .mutation(async ({ ctx, input }) => {
      await checkJoinAttempts(ctx.db, ctx.user.id, ctx.clientIp);
      try {
        const world = await joinWorld(ctx.db, ctx.user, { code: input.code, companyName: input.company_name, teamCode: input.team_code || undefined });
        if (!world) return refuseWrongJoinCode(ctx.db, ctx.user.id, ctx.clientIp, JOIN_CODE_UNKNOWN);
        return world;
      } catch (error) {
        // A wrong team code counts like a wrong join code: team codes cannot be guessed either.
        if (error instanceof GameError && error.message === TEAM_CODE_UNKNOWN) return refuseWrongJoinCode(ctx.db, ctx.user.id, ctx.clientIp, TEAM_CODE_UNKNOWN);
        throw error;
      }
    }),

  get: signedInProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/worlds/{id}', summary: 'One world you can see (404 for a private world you are not in)' } })
    .input(worldIdInput)
    .query(({ ctx, input }) => getWorld(ctx.db, ctx.user, input.id)),

  update: instructorProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'PATCH',
        path: '/worlds/{id}',
        summary:
          'Instructors (site admins: also of the public world): pause or resume the clock {status active|paused}, change the interval {turn_interval_minutes} or the team size {team_size 1-6}',
      },
    })
    .input(updateWorldSchema)
    .mutation(({ ctx, input }) =>
      updateWorldClock(ctx.db, ctx.user, input.id, { status: input.status, turnIntervalMinutes: input.turn_interval_minutes, teamSize: input.team_size }),
    ),

  advance: signedInProcedure
    .meta({
      access: 'manage',
      rest: {
        method: 'POST',
        path: '/worlds/{id}/advance',
        summary:
          "Instructors: run the next turn now and wait for it (also while the clock is paused); a sandbox's owner too, also with a personal token of the manage scope",
      },
    })
    .input(worldIdInput)
    .mutation(async ({ ctx, input }) => {
      const world = await requireInstructor(ctx.db, ctx.user, input.id);
      if (ctx.apiToken && !world.sandbox) throw new GameError('FORBIDDEN', TOKENS_ONLY_IN_SANDBOXES);
      if (world.status === 'ended') throw new GameError('CONFLICT', 'This world has ended: it is read-only');
      if (!ctx.advanceTurn) throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: 'The turn worker is not available' });
      const result = await ctx.advanceTurn(input.id);
      return { current_week: result.week };
    }),

  fork: signedInProcedure
    .meta({
      access: 'manage',
      rest: {
        method: 'POST',
        path: '/worlds/{id}/fork',
        summary:
          "Instructors (site admins: also of the public world): a new class world {week, name?} at the start of that week, replayed from the world's log, with the same companies, players and teams, its own join code and manual turns; changes applied after the replay {shock?, tax_rates?: [{country_id, tax_rate}], bots?}. Players of the public world: {week, private: true} makes a sandbox only they see and advance (at most 3 open, deleted after 7 days; also with a personal token of the manage scope)",
      },
    })
    .input(forkWorldSchema)
    .mutation(async ({ ctx, input }) => {
      if (ctx.apiToken && input.private !== true) throw new GameError('FORBIDDEN', TOKENS_ONLY_IN_SANDBOXES);
      if (!ctx.forkWorld) throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: 'The turn worker is not available' });
      const fork = await createFork(ctx.db, ctx.user, input.id, {
        week: input.week,
        name: input.name,
        private: input.private,
        changes: { shock: input.shock, tax_rates: input.tax_rates, bots: input.bots },
      });
      try {
        await ctx.forkWorld(fork.id);
      } catch (error) {
        // A fork that is not the original's is never played: it ends, and the answer says why.
        if (!isForkStillReplaying(error)) await abandonFork(ctx.db, fork.id);
        throw error;
      }
      return getWorld(ctx.db, ctx.user, fork.id);
    }),

  end: signedInProcedure
    .meta({
      access: 'session',
      rest: { method: 'POST', path: '/worlds/{id}/end', summary: 'Instructors: end the world; it stays readable, nothing changes it again' },
    })
    .input(worldIdInput)
    .mutation(({ ctx, input }) => endWorld(ctx.db, ctx.user, input.id)),

  rotateCode: signedInProcedure
    .meta({ access: 'session', rest: { method: 'POST', path: '/worlds/{id}/join-code', summary: 'Instructors: a new join code (the old one stops working)' } })
    .input(worldIdInput)
    .mutation(({ ctx, input }) => rotateJoinCode(ctx.db, ctx.user, input.id)),

  instructors: signedInProcedure
    .meta({ access: 'session', rest: { method: 'GET', path: '/worlds/{id}/instructors', summary: "Instructors: the world's instructor and co-instructors" } })
    .input(worldIdInput)
    .query(({ ctx, input }) => listInstructors(ctx.db, ctx.user, input.id)),

  addCoInstructor: instructorProcedure
    .meta({ access: 'session', rest: { method: 'POST', path: '/worlds/{id}/co-instructors', summary: 'Instructors: make an account a co-instructor {email}' } })
    .input(addCoInstructorSchema)
    .mutation(({ ctx, input }) => addCoInstructor(ctx.db, ctx.user, input.id, input.email)),

  removeCoInstructor: instructorProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'DELETE',
        path: '/worlds/{id}/co-instructors/{user_id}',
        summary: "Instructors: remove a co-instructor (the world's instructor), or leave (a co-instructor, their own id)",
      },
    })
    .input(removeCoInstructorSchema)
    .mutation(({ ctx, input }) => removeCoInstructor(ctx.db, ctx.user, input.id, input.user_id)),

  shocks: signedInProcedure
    .meta({ access: 'session', rest: { method: 'GET', path: '/worlds/{id}/shocks', summary: "The world's shocks, newest first (members)" } })
    .input(worldIdInput)
    .query(({ ctx, input }) => listShocks(ctx.db, ctx.user, input.id)),

  addShock: instructorProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'POST',
        path: '/worlds/{id}/shocks',
        summary: 'Instructors: a shock {kind tax_rate|demand|price, country_id or product_id, percent -90..200, weeks 1-52} the turn applies from this week on',
      },
    })
    .input(shockSchema)
    .mutation(({ ctx, input }) =>
      addShock(ctx.db, ctx.user, input.id, {
        kind: input.kind,
        countryId: input.country_id,
        productId: input.product_id,
        percent: input.percent,
        weeks: input.weeks,
      }),
    ),

  announce: instructorProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'POST',
        path: '/worlds/{id}/announcements',
        summary: "Instructors: a message to everyone in the world {message} (the world's news shows it)",
      },
    })
    .input(announcementSchema)
    .mutation(({ ctx, input }) => addAnnouncement(ctx.db, ctx.user, input.id, input.message)),

  companies: signedInProcedure
    .meta({
      access: 'session',
      rest: { method: 'GET', path: '/worlds/{id}/companies', summary: "Instructors: every company's cash, net worth, buildings and last week's profit" },
    })
    .input(worldIdInput)
    .query(({ ctx, input }) => worldCompanyFigures(ctx.db, ctx.user, input.id)),

  debrief: instructorProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'GET',
        path: '/worlds/{id}/debrief',
        summary: 'Instructors: net worth by company per week, prices of chosen products (?product_ids=1,2) per week, and the shocks',
      },
    })
    .input(debriefInput)
    .query(({ ctx, input }) => worldDebrief(ctx.db, ctx.user, input.id, input.product_ids)),

  forkComparison: signedInProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/worlds/{id}/fork-comparison',
        summary:
          "A fork's instructors (a sandbox's owner): the fork beside its original from the fork week on: net worth per company and the prices of chosen products (?product_ids=1,2; default: the fork's shocked products, else the most traded)",
      },
    })
    .input(forkComparisonSchema)
    .query(async ({ ctx, input }) => {
      if (ctx.apiToken && !(await getWorld(ctx.db, ctx.user, input.id)).sandbox) throw new GameError('FORBIDDEN', TOKENS_ONLY_IN_SANDBOXES);
      return forkComparison(ctx.db, ctx.user, input.id, input.product_ids);
    }),

  export: instructorProcedure
    .meta({
      access: 'session',
      rest: {
        method: 'GET',
        path: '/worlds/{id}/export/{kind}',
        summary:
          'Instructors: a CSV file (companies by week, transactions, prices by week) as {filename, csv}; /api/worlds/{id}/export/{kind}.csv downloads it',
      },
    })
    .input(worldExportSchema)
    .query(({ ctx, input }) => exportWorldCsv(ctx.db, ctx.user, input.id, input.kind)),
});
