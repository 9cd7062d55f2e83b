import { act, getExchangeBook, listExchangeAuctions, listExchangeOrders } from '@marketcraft/db';
import { cancelExchangeOrderInput, exchangeAuctionsInput, exchangeBookInput, listExchangeOrdersInput, placeExchangeOrderInput } from '@marketcraft/shared';
import { playerProcedure, playerRequest, router } from '../trpc.ts';

/** The exchange between players (docs/exchange.md): limit orders in the weekly call auction. */
export const exchangeRouter = router({
  placeOrder: playerProcedure
    .meta({
      access: 'trade',
      rest: {
        method: 'POST',
        path: '/exchange/orders',
        created: true,
        summary:
          'Place a limit order in the weekly auction {product_id, side, quantity, limit_price, weeks?}: a buy holds its cash and fee, a sell its goods, until it fills, is cancelled or expires',
      },
    })
    .input(placeExchangeOrderInput)
    .mutation(({ ctx, input }) => act(ctx.db, 'placeExchangeOrders', playerRequest(ctx, input))),

  orders: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/exchange/orders', summary: 'Your limit orders, newest first (?status=&product_id=)' } })
    .input(listExchangeOrdersInput)
    .query(({ ctx, input }) => listExchangeOrders(ctx.db, ctx.company.id, { status: input?.status, productId: input?.product_id })),

  cancelOrder: playerProcedure
    .meta({ access: 'trade', rest: { method: 'DELETE', path: '/exchange/orders/{id}', summary: 'Cancel an open order: what it still holds comes back' } })
    .input(cancelExchangeOrderInput)
    .mutation(({ ctx, input }) => act(ctx.db, 'cancelExchangeOrders', playerRequest(ctx, input))),

  book: playerProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/exchange/books/{product_id}',
        summary:
          "This week's anonymous demand and supply of a product (cumulative levels), the market maker's schedule apart, and the clearing if the auction ran now",
      },
    })
    .input(exchangeBookInput)
    .query(({ ctx, input }) => getExchangeBook(ctx.db, ctx.company.id, input.product_id)),

  auctions: playerProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/exchange/auctions/{product_id}',
        summary: "A product's past clearings (?weeks=N, default 12): price, volume, the players' and the maker's shares, both curves",
      },
    })
    .input(exchangeAuctionsInput)
    .query(({ ctx, input }) => listExchangeAuctions(ctx.db, ctx.company.id, input.product_id, input.weeks ?? 12)),
});
