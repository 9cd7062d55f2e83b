import { getWeekReport, listWeekReports } from '@marketcraft/db';
import { weekReportInput } from '@marketcraft/shared';
import { playerProcedure, router } from '../trpc.ts';

export const reportsRouter = router({
  list: playerProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/reports',
        summary: "Every week's results in brief, oldest first: cash at start and end, net worth, profit after tax, leaderboard rank",
      },
    })
    .query(({ ctx }) => listWeekReports(ctx.db, ctx.company.id)),

  get: playerProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/reports/{week}',
        summary:
          "Week N results, written by the turn that ended the week: cash at start and end, revenue by store and product, production by building, the week's cash flows by reason, costs, taxes, dividends paid and received, research finished, political events that touched the company, rank change",
      },
    })
    .input(weekReportInput)
    .query(({ ctx, input }) => getWeekReport(ctx.db, ctx.company.id, input.week)),
});
