import { marketTrade } from '@marketcraft/db';
import { marketTradeInput } from '@marketcraft/shared';
import { playerProcedure, router } from '../trpc.ts';

export const marketRouter = router({
  trade: playerProcedure
    .meta({ access: 'trade', rest: { method: 'POST', path: '/market/trade', summary: 'Buy at the current price or sell at the current price less 5%' } })
    .input(marketTradeInput)
    .mutation(({ ctx, input }) => marketTrade(ctx.db, ctx.company.id, { productId: input.product_id, quantity: input.quantity, action: input.action })),
});
