import { act, getBuilding, listBuildingInventory, listBuildings, shelfPriceAdvice } from '@marketcraft/db';
import {
  buildBuildingInput,
  buildingIdInput,
  buildingInventoryPurchaseInput,
  hireEmployeesInput,
  productionRateInput,
  selectCategoryInput,
  selectRecipeInput,
  shelfPriceInput,
  transferToStoreInput,
  upgradeEquipmentInput,
} from '@marketcraft/shared';
import { playerProcedure, playerRequest, router } from '../trpc.ts';

export const buildingsRouter = router({
  list: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/buildings', summary: "The player's buildings with their management fields" } })
    .query(({ ctx }) => listBuildings(ctx.db, ctx.company.id)),

  get: playerProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/buildings/{id}',
        summary: 'One building: city bonus, research bonus, capacity, operating cost, total bonus, output, efficiency, popularity (research included), recipe',
      },
    })
    .input(buildingIdInput)
    .query(({ ctx, input }) => getBuilding(ctx.db, ctx.company.id, input.id)),

  build: playerProcedure
    .meta({ access: 'manage', rest: { method: 'POST', path: '/buildings', summary: 'Build a building of a type in a city (pays its construction cost)' } })
    .input(buildBuildingInput)
    .mutation(({ ctx, input }) => act(ctx.db, 'buildBuilding', playerRequest(ctx, input))),

  sell: playerProcedure
    .meta({
      access: 'manage',
      rest: { method: 'POST', path: '/buildings/{id}/sell', summary: 'Sell a building: 50% refund of construction and equipment, stock to the warehouse' },
    })
    .input(buildingIdInput)
    .mutation(({ ctx, input }) => act(ctx.db, 'sellBuilding', playerRequest(ctx, input))),

  hireEmployees: playerProcedure
    .meta({ access: 'manage', rest: { method: 'POST', path: '/buildings/{id}/hire-employees', summary: 'Hire 1-10 employees ($5,000 each)' } })
    .input(hireEmployeesInput)
    .mutation(({ ctx, input }) => act(ctx.db, 'hireEmployees', playerRequest(ctx, input))),

  upgradeEquipment: playerProcedure
    .meta({
      access: 'manage',
      rest: { method: 'POST', path: '/buildings/{id}/upgrade-equipment', summary: 'Raise the equipment level (sum of the per-level cost ladder)' },
    })
    .input(upgradeEquipmentInput)
    .mutation(({ ctx, input }) => act(ctx.db, 'upgradeEquipment', playerRequest(ctx, input))),

  productionRate: playerProcedure
    .meta({
      access: 'manage',
      rest: { method: 'PUT', path: '/buildings/{id}/production-rate', summary: 'Set the production rate (10-200), used from the next turn' },
    })
    .input(productionRateInput)
    .mutation(({ ctx, input }) => act(ctx.db, 'setProductionRate', playerRequest(ctx, input))),

  selectRecipe: playerProcedure
    .meta({
      access: 'manage',
      rest: { method: 'PUT', path: '/buildings/{id}/select-recipe', summary: 'Choose what a production building makes (a recipe of its type)' },
    })
    .input(selectRecipeInput)
    .mutation(({ ctx, input }) => act(ctx.db, 'selectRecipe', playerRequest(ctx, input))),

  selectCategory: playerProcedure
    .meta({ access: 'manage', rest: { method: 'PUT', path: '/buildings/{id}/select-category', summary: "Choose a store's product category" } })
    .input(selectCategoryInput)
    .mutation(({ ctx, input }) => act(ctx.db, 'selectCategory', playerRequest(ctx, input))),

  inventory: playerProcedure
    .meta({
      access: 'read',
      rest: { method: 'GET', path: '/buildings/{id}/inventory', summary: "A store's back room, or a production building's raw materials in the warehouse" },
    })
    .input(buildingIdInput)
    .query(({ ctx, input }) => listBuildingInventory(ctx.db, ctx.company.id, input.id)),

  purchaseInventory: playerProcedure
    .meta({
      access: 'trade',
      rest: { method: 'POST', path: '/buildings/{id}/inventory/purchase', summary: "Buy at the city's market price (store: back room; production: warehouse)" },
    })
    .input(buildingInventoryPurchaseInput)
    .mutation(({ ctx, input }) => act(ctx.db, 'purchaseForBuilding', playerRequest(ctx, input))),

  shelfPrice: playerProcedure
    .meta({
      access: 'read',
      rest: {
        method: 'GET',
        path: '/buildings/{id}/shelf-price',
        summary: "The price the store's forecast finds best for a product going on its shelf, beside the spec's 50% markup",
      },
    })
    .input(shelfPriceInput)
    .query(({ ctx, input }) => shelfPriceAdvice(ctx.db, ctx.company.id, input.id, input.product_id)),

  transferToStore: playerProcedure
    .meta({
      access: 'trade',
      rest: { method: 'POST', path: '/buildings/{id}/inventory/transfer-to-store', summary: "Put stock on a store's shelf (back room first, then warehouse)" },
    })
    .input(transferToStoreInput)
    .mutation(({ ctx, input }) => act(ctx.db, 'transferToStore', playerRequest(ctx, input))),
});
