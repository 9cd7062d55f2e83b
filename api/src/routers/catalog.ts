import { cityMarketDataOf, listCities, listGoods, listInventory, listRecipes } from '@marketcraft/db';
import { cityIdInput, recipesInput } from '@marketcraft/shared';
import { playerProcedure, router, signedInProcedure } from '../trpc.ts';

export const catalogRouter = router({
  inventory: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/inventory', summary: "The company warehouse: quantity, average cost and value at today's price" } })
    .query(({ ctx }) => listInventory(ctx.db, ctx.company.id)),

  goods: signedInProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/goods', summary: 'Every product with its current and base price' } })
    .query(({ ctx }) => listGoods(ctx.db, ctx.worldId, ctx.pricesVersion)),

  recipes: signedInProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/recipes', summary: 'Every recipe with its inputs (optional ?building_type=)' } })
    .input(recipesInput)
    .query(({ ctx, input }) => listRecipes(ctx.db, input?.building_type)),

  cities: signedInProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/cities', summary: 'Cities with their country and bonus' } })
    .query(({ ctx }) => listCities(ctx.db)),

  cityMarketData: signedInProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/cities/{id}/market-data', summary: "A city's demand level and market price per product" } })
    .input(cityIdInput)
    .query(({ ctx, input }) => cityMarketDataOf(ctx.db, ctx.worldId, input.id)),
});
