import { listTransactions } from '@marketcraft/db';
import { transactionsListInput } from '@marketcraft/shared';
import { playerProcedure, router } from '../trpc.ts';

export const transactionsRouter = router({
  list: playerProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/transactions',
        summary: 'Your ledger, newest first, a page at a time (?page=1&page_size=25, at most 100), optionally one ?type= and one ?week=; each line says what it concerns',
      },
    })
    .input(transactionsListInput)
    .query(({ ctx, input }) => listTransactions(ctx.db, ctx.company.id, { page: input.page, pageSize: input.page_size, type: input.type, week: input.week })),
});
