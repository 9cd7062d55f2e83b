import { TRPCError } from '@trpc/server';
import { getWorldState } from '@marketcraft/db';
import { PUBLIC_WORLD_ID, TURN_CRON_SCHEDULE } from '@marketcraft/shared';
import { TURN_QUEUE } from '@marketcraft/shared/queues.ts';
import { adminProcedure, router, signedInProcedure } from '../trpc.ts';

/**
 * /admin is the site admin's page for the public world (docs/worlds.md, "/admin and the public
 * world"): its world state and its manual turn are always the public world's, whichever world the
 * admin plays in at the moment; a class world is run from its own manage page.
 */
export const adminRouter = router({
  check: signedInProcedure
    .meta({ access: 'session', rest: { method: 'GET', path: '/admin/check', summary: 'Whether the signed-in user is an admin' } })
    .query(({ ctx }) => ({ isAdmin: ctx.user.isAdmin })),

  worldState: adminProcedure
    .meta({ access: 'session', rest: { method: 'GET', path: '/admin/world-state', summary: "The public world's state (admins only)" } })
    .query(({ ctx }) => getWorldState(ctx.db, PUBLIC_WORLD_ID)),

  cronStatus: adminProcedure
    .meta({ access: 'session', rest: { method: 'GET', path: '/admin/cron-status', summary: 'The automatic turn schedule (admins only)' } })
    .query(async ({ ctx }) => {
      if (ctx.cronStatus) return ctx.cronStatus();
      return { jobname: TURN_QUEUE, schedule: TURN_CRON_SCHEDULE, active: false };
    }),

  advanceTurn: adminProcedure
    .meta({
      access: 'session',
      rest: { method: 'POST', path: '/admin/advance-turn', summary: "Advance the public world's turn now and wait for it (admins only)" },
    })
    .mutation(async ({ ctx }) => {
      if (!ctx.advanceTurn) throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: 'The turn worker is not available' });
      const result = await ctx.advanceTurn(PUBLIC_WORLD_ID);
      return { current_week: result.week };
    }),
});
