import { act, actTogether, getProductDetail, listMarketProducts, quoteOrder } from '@marketcraft/db';
import { marketProductInput, marketTradeInput } from '@marketcraft/shared';
import { playerProcedure, playerRequest, router } from '../trpc.ts';

export const marketRouter = router({
  trade: playerProcedure
    .meta({
      access: 'trade',
      rest: {
        method: 'POST',
        path: '/market/trade',
        summary: 'Buy from or sell to the market: the order walks the price curve, plus the spread (docs/economy.md)',
      },
    })
    .input(marketTradeInput)
    // Many players trading at once in the public world: their trades go together, one commit per
    // batch (actTogether); in a private world the request's own transaction holds the world open.
    .mutation(({ ctx, input }) =>
      ctx.inTransaction
        ? act(ctx.db, 'marketTrade', playerRequest(ctx, input))
        : actTogether(ctx.db, 'marketTrade', ctx.company.worldId, playerRequest(ctx, input)),
    ),

  quote: playerProcedure
    .meta({
      access: 'read',
      rest: { method: 'GET', path: '/market/quote', summary: 'What an order would cost or pay now (?product_id&quantity&action), with the why' },
    })
    .input(marketTradeInput) // a quote takes the same fields as the trade
    .query(({ ctx, input }) => quoteOrder(ctx.db, { worldId: ctx.worldId, productId: input.product_id, quantity: input.quantity, action: input.action })),

  products: playerProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/market/products',
        summary: "Every product: buy and sell price, this week's change, the last 12 weeks' prices, and the units you hold",
      },
    })
    .query(({ ctx }) => listMarketProducts(ctx.db, ctx.company.id)),

  product: playerProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/market/products/{id}',
        summary: 'One product: prices, its weekly price history (52 weeks), its price and demand in each city, the recipes that make it and use it',
      },
    })
    .input(marketProductInput)
    .query(({ ctx, input }) => getProductDetail(ctx.db, ctx.company.id, input.id)),
});
