import { router } from './trpc.ts';
import { worldRouter } from './routers/world.ts';
import { adminRouter } from './routers/admin.ts';
import { buildingsRouter } from './routers/buildings.ts';
import { storesRouter } from './routers/stores.ts';
import { marketRouter } from './routers/market.ts';
import { catalogRouter } from './routers/catalog.ts';
import { companyRouter } from './routers/company.ts';
import { stocksRouter } from './routers/stocks.ts';
import { politicsRouter } from './routers/politics.ts';
import { researchRouter } from './routers/research.ts';
import { newsRouter } from './routers/news.ts';
import { tokensRouter } from './routers/tokens.ts';
import { transactionsRouter } from './routers/transactions.ts';
import { warehouseRouter } from './routers/warehouse.ts';
import { reportsRouter } from './routers/reports.ts';
import { worldsRouter } from './routers/worlds.ts';
import { teamsRouter } from './routers/teams.ts';
import { exchangeRouter } from './routers/exchange.ts';
import { contractsRouter } from './routers/contracts.ts';
import { dataRouter } from './routers/data.ts';
import { assignmentsRouter } from './routers/assignments.ts';
import { ltiRouter } from './routers/lti.ts';

export const appRouter = router({
  world: worldRouter,
  admin: adminRouter,
  buildings: buildingsRouter,
  stores: storesRouter,
  market: marketRouter,
  catalog: catalogRouter,
  company: companyRouter,
  stocks: stocksRouter,
  politics: politicsRouter,
  research: researchRouter,
  news: newsRouter,
  tokens: tokensRouter,
  transactions: transactionsRouter,
  warehouse: warehouseRouter,
  reports: reportsRouter,
  worlds: worldsRouter,
  teams: teamsRouter,
  exchange: exchangeRouter,
  contracts: contractsRouter,
  data: dataRouter,
  assignments: assignmentsRouter,
  lti: ltiRouter,
});

export type AppRouter = typeof appRouter;
