import { act, listResearchUpgrades, researchedUpgradeIds } from '@marketcraft/db';
import { researchPurchaseSchema } from '@marketcraft/shared';
import { playerProcedure, playerRequest, router } from '../trpc.ts';

export const researchRouter = router({
  upgrades: playerProcedure
    .meta({
      access: 'read',
      rest: { method: 'GET', path: '/research/upgrades', summary: 'Every research upgrade with your cost after discounts, researched and locked' },
    })
    .query(({ ctx }) => listResearchUpgrades(ctx.db, ctx.company.id)),

  company: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/research/company', summary: 'The ids of the upgrades you researched' } })
    .query(({ ctx }) => researchedUpgradeIds(ctx.db, ctx.company.id)),

  purchase: playerProcedure
    .meta({
      access: 'manage',
      rest: { method: 'POST', path: '/research/purchase', summary: 'Research an upgrade {upgrade_id}: prerequisite first, once, cost after research_discount' },
    })
    .input(researchPurchaseSchema)
    .mutation(({ ctx, input }) => act(ctx.db, 'purchaseResearch', playerRequest(ctx, input))),
});
