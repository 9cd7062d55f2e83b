import { act, listStoreProducts } from '@marketcraft/db';
import { storeIdInput, storeProductInput, toggleStoreProductInput, updateStorePriceInput } from '@marketcraft/shared';
import { playerProcedure, playerRequest, router } from '../trpc.ts';

export const storesRouter = router({
  products: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/stores/{id}/products', summary: "A store's shelf with the city's market price and demand" } })
    .input(storeIdInput)
    .query(({ ctx, input }) => listStoreProducts(ctx.db, ctx.company.id, input.id)),

  updatePrice: playerProcedure
    .meta({ access: 'trade', rest: { method: 'PUT', path: '/stores/{id}/products/{product_id}', summary: 'Set the retail price of a product on the shelf' } })
    .input(updateStorePriceInput)
    .mutation(({ ctx, input }) => act(ctx.db, 'updateStorePrice', playerRequest(ctx, input))),

  toggle: playerProcedure
    .meta({
      access: 'trade',
      rest: { method: 'PATCH', path: '/stores/{id}/products/{product_id}/toggle', summary: 'Put a shelf product on sale or take it off sale' },
    })
    .input(toggleStoreProductInput)
    .mutation(({ ctx, input }) => act(ctx.db, 'toggleStoreProduct', playerRequest(ctx, input))),

  remove: playerProcedure
    .meta({
      access: 'trade',
      rest: { method: 'DELETE', path: '/stores/{id}/products/{product_id}', summary: 'Remove a product from the shelf (its stock returns to the back room)' },
    })
    .input(storeProductInput)
    .mutation(({ ctx, input }) => act(ctx.db, 'removeStoreProduct', playerRequest(ctx, input))),
});
