import { acceptContracts, cancelContracts, declineContracts, listContracts, offerContracts, resultOf } from '@marketcraft/db';
import { contractIdInput, dollarsToCents, listContractsInput, offerContractInput } from '@marketcraft/shared';
import { playerProcedure, router } from '../trpc.ts';

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
    .mutation(async ({ ctx, input }) =>
      resultOf(
        await offerContracts(ctx.db, [
          {
            companyId: ctx.company.id,
            actingUserId: ctx.user.id,
            input: {
              buyerCompanyId: input.buyer_company_id,
              productId: input.product_id,
              quantity: input.quantity,
              unitPriceCents: dollarsToCents(input.unit_price),
              expiresWeek: input.expires_week,
            },
          },
        ]),
      ),
    ),

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
    .mutation(async ({ ctx, input }) =>
      resultOf(await acceptContracts(ctx.db, [{ companyId: ctx.company.id, actingUserId: ctx.user.id, input: { contractId: input.id } }])),
    ),

  decline: playerProcedure
    .meta({
      access: 'trade',
      rest: { method: 'POST', path: '/contracts/{id}/decline', summary: 'Decline an offer made to you: the goods go back to the seller' },
    })
    .input(contractIdInput)
    .mutation(async ({ ctx, input }) =>
      resultOf(await declineContracts(ctx.db, [{ companyId: ctx.company.id, actingUserId: ctx.user.id, input: { contractId: input.id } }])),
    ),

  cancel: playerProcedure
    .meta({
      access: 'trade',
      rest: { method: 'POST', path: '/contracts/{id}/cancel', summary: 'Withdraw your open offer: the goods come back to your warehouse' },
    })
    .input(contractIdInput)
    .mutation(async ({ ctx, input }) =>
      resultOf(await cancelContracts(ctx.db, [{ companyId: ctx.company.id, actingUserId: ctx.user.id, input: { contractId: input.id } }])),
    ),
});
