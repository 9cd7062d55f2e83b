import { act, listContracts } from '@marketcraft/db';
import { contractIdInput, listContractsInput, offerContractInput } from '@marketcraft/shared';
import { playerProcedure, playerRequest, router } from '../trpc.ts';

/** Contracts between companies (docs/exchange.md, "Contracts"). */
export const contractsRouter = router({
  offer: playerProcedure
    .meta({
      access: 'trade',
      rest: {
        method: 'POST',
        path: '/contracts',
        created: true,
        summary:
          'Offer goods to another company {buyer_company_id, product_id, quantity, unit_price, expires_week}: your goods are held until it is answered or expires',
      },
    })
    .input(offerContractInput)
    .mutation(({ ctx, input }) => act(ctx.db, 'offerContracts', playerRequest(ctx, input))),

  list: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/contracts', summary: 'Your contract offers, newest first (?direction=incoming|outgoing&status=)' } })
    .input(listContractsInput)
    .query(({ ctx, input }) => listContracts(ctx.db, ctx.company.id, { direction: input?.direction, status: input?.status })),

  accept: playerProcedure
    .meta({
      access: 'trade',
      rest: { method: 'POST', path: '/contracts/{id}/accept', summary: 'Accept an offer made to you: you pay, the goods come to your warehouse' },
    })
    .input(contractIdInput)
    .mutation(({ ctx, input }) => act(ctx.db, 'acceptContracts', playerRequest(ctx, input))),

  decline: playerProcedure
    .meta({
      access: 'trade',
      rest: { method: 'POST', path: '/contracts/{id}/decline', summary: 'Decline an offer made to you: the goods go back to the seller' },
    })
    .input(contractIdInput)
    .mutation(({ ctx, input }) => act(ctx.db, 'declineContracts', playerRequest(ctx, input))),

  cancel: playerProcedure
    .meta({
      access: 'trade',
      rest: { method: 'POST', path: '/contracts/{id}/cancel', summary: 'Withdraw your open offer: the goods come back to your warehouse' },
    })
    .input(contractIdInput)
    .mutation(({ ctx, input }) => act(ctx.db, 'cancelContracts', playerRequest(ctx, input))),
});
