import { act, listHoldings } from '@marketcraft/db';
import { warehouseMoveInput } from '@marketcraft/shared';
import { playerProcedure, playerRequest, router } from '../trpc.ts';

export const warehouseRouter = router({
  holdings: playerProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/warehouse',
        summary: "Every good you hold: the company warehouse, each store's back room and shelf, with quantity, average cost and market value",
      },
    })
    .query(({ ctx }) => listHoldings(ctx.db, ctx.company.id)),

  move: playerProcedure
    .meta({
      access: 'trade',
      rest: {
        method: 'POST',
        path: '/warehouse/move',
        summary:
          "Move goods between the company warehouse and a store's back room {building_id, product_id, quantity, direction: to_back_room or to_warehouse}",
      },
    })
    .input(warehouseMoveInput)
    .mutation(({ ctx, input }) => act(ctx.db, 'moveGoods', playerRequest(ctx, input))),
});
