import { cancelExchangeOrders, limitCentsOf, listExchangeOrders, onlyResult, placeExchangeOrders } from '@marketcraft/db';
import { cancelExchangeOrderInput, listExchangeOrdersInput, placeExchangeOrderInput } from '@marketcraft/shared';
import { playerProcedure, router } from '../trpc.ts';

/** The exchange between players (docs/exchange.md): limit orders in the weekly call auction. */
export const exchangeRouter = router({
  placeOrder: playerProcedure
    .meta({
      access: 'trade',
      rest: {
        method: 'POST',
        path: '/exchange/orders',
        created: true,
        summary: "Place a limit order in the weekly auction {product_id, side, quantity, limit_price, weeks?}: a buy holds its cash and fee, a sell its goods, until it fills, is cancelled or expires",
      },
    })
    .input(placeExchangeOrderInput)
    .mutation(async ({ ctx, input }) =>
      onlyResult(
        await placeExchangeOrders(ctx.db, [
          {
            companyId: ctx.company.id,
            actingUserId: ctx.user.id,
            input: { productId: input.product_id, side: input.side, quantity: input.quantity, limitPriceCents: limitCentsOf(input.limit_price), weeks: input.weeks ?? 1 },
          },
        ]),
      ),
    ),

  orders: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/exchange/orders', summary: 'Your limit orders, newest first (?status=&product_id=)' } })
    .input(listExchangeOrdersInput)
    .query(({ ctx, input }) => listExchangeOrders(ctx.db, ctx.company.id, { status: input?.status, productId: input?.product_id })),

  cancelOrder: playerProcedure
    .meta({ access: 'trade', rest: { method: 'DELETE', path: '/exchange/orders/{id}', summary: 'Cancel an open order: what it still holds comes back' } })
    .input(cancelExchangeOrderInput)
    .mutation(async ({ ctx, input }) => onlyResult(await cancelExchangeOrders(ctx.db, [{ companyId: ctx.company.id, actingUserId: ctx.user.id, input: { orderId: input.id } }]))),
});
