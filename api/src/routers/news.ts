import { recentNews } from '@marketcraft/db';
import { playerProcedure, router } from '../trpc.ts';

export const newsRouter = router({
  recent: playerProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/transactions/recent',
        summary: 'News feed: 5 political events, 5 transactions over $10,000, 3 player stock updates; newest first, at most 15',
      },
    })
    .query(({ ctx }) => recentNews(ctx.db, ctx.worldId)),
});
