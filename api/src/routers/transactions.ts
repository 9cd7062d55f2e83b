import { listTransactions } from '@marketcraft/db';
import { transactionsListInput } from '@marketcraft/shared';
import { announceNumberedPage } from '../paging.ts';
import { playerProcedure, router } from '../trpc.ts';

export const transactionsRouter = router({
  list: playerProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/transactions',
        summary:
          'Your ledger, newest first, a page at a time (?page=1&page_size=25, at most 100), optionally one ?type= and one ?week=; each line says what it concerns; X-Total-Count and Link headers',
      },
    })
    .input(transactionsListInput)
    .query(async ({ ctx, input }) => {
      const ledger = await listTransactions(ctx.db, ctx.company.id, { page: input.page, pageSize: input.page_size, type: input.type, week: input.week });
      announceNumberedPage(ctx, ledger.total, ledger);
      return ledger;
    }),
});
