import { act, listActiveEvents, listCountries, listInfluence, listRecentEvents } from '@marketcraft/db';
import { politicsInvestSchema } from '@marketcraft/shared';
import { playerProcedure, playerRequest, router } from '../trpc.ts';

export const politicsRouter = router({
  countries: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/countries', summary: 'Countries: id, name, tax_rate' } })
    .query(({ ctx }) => listCountries(ctx.db, ctx.worldId)),

  influence: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/influence', summary: 'Your influence records: country_id, influence_points' } })
    .query(({ ctx }) => listInfluence(ctx.db, ctx.company.id)),

  events: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/events', summary: 'Political events active this week, newest first' } })
    .query(({ ctx }) => listActiveEvents(ctx.db, ctx.worldId)),

  recentEvents: playerProcedure
    .meta({ access: 'read', rest: { method: 'GET', path: '/political-events', summary: 'The latest 20 political events, newest first' } })
    .query(({ ctx }) => listRecentEvents(ctx.db, ctx.worldId)),

  invest: playerProcedure
    .meta({
      access: 'manage',
      rest: { method: 'POST', path: '/politics/invest', summary: 'Invest in influence {country_id, amount}: amount = units x $1,000, 10 points per unit' },
    })
    .input(politicsInvestSchema)
    .mutation(({ ctx, input }) => act(ctx.db, 'investInPolitics', playerRequest(ctx, input))),
});
