import { getWorldState } from '@marketcraft/db';
import { publicProcedure, router } from '../trpc.ts';

export const worldRouter = router({
  state: publicProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/world', summary: 'The game week and the turn times' } })
    .query(({ ctx }) => getWorldState(ctx.db, ctx.worldId)),

  community: publicProcedure
    .meta({
      access: 'read',
      rest: { method: 'GET', path: '/community', summary: "The community's links: the Discord invite (DISCORD_INVITE_URL) or null when none is configured" },
    })
    .query(({ ctx }) => ({ discord_invite_url: ctx.config.DISCORD_INVITE_URL ?? null })),
});
