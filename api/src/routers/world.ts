import { getWorldState } from '@marketcraft/db';
import { publicProcedure, router } from '../trpc.ts';

export const worldRouter = router({
  state: publicProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/world', summary: 'The game week and the turn times' } })
    .query(({ ctx }) => getWorldState(ctx.db)),
});
