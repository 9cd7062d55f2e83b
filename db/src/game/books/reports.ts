/**
 * "Week N results": the reports the turn writes for each player company (worker/src/turn/report.ts),
 * read back in dollars. GET /api/reports lists every week's headline figures (the chart of cash and
 * net worth over all weeks, the report links); GET /api/reports/{week} is one week's whole story
 * (with the exchange's fills and contracts of the week, read from their own records).
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { GameError, centsToDollars, type TransactionType, type WeekReportSummary, type WeekReportView } from '@marketcraft/shared';
import { buildingTypes, cities, companies, products, weekReports, worlds } from '../../schema/index.ts';
import type { DbExecutor } from '../../client.ts';
import { weekExchangeResults } from './weekExchange.ts';

const summaryColumns = {
  week: weekReports.week,
  cashStartCents: weekReports.cashStartCents,
  cashEndCents: weekReports.cashEndCents,
  netWorthCents: weekReports.netWorthCents,
  profitCents: weekReports.profitCents,
  storeRevenueCents: weekReports.storeRevenueCents,
  rank: weekReports.rank,
  rankBefore: weekReports.rankBefore,
};

type SummaryRow = { [K in keyof typeof summaryColumns]: number | null } & { week: number };

function summaryOf(row: SummaryRow): WeekReportSummary {
  return {
    week: row.week,
    cash_start: centsToDollars(Number(row.cashStartCents)),
    cash_end: centsToDollars(Number(row.cashEndCents)),
    net_worth: centsToDollars(Number(row.netWorthCents)),
    profit: centsToDollars(Number(row.profitCents)),
    store_revenue: centsToDollars(Number(row.storeRevenueCents)),
    rank: row.rank,
    rank_before: row.rankBefore,
  };
}

/** GET /api/reports: every week's headline figures, oldest first (all weeks: the chart shows them all). */
export async function listWeekReports(db: DbExecutor, companyId: number): Promise<WeekReportSummary[]> {
  const rows = await db.select(summaryColumns).from(weekReports).where(eq(weekReports.companyId, companyId)).orderBy(asc(weekReports.week));
  return rows.map(summaryOf);
}

type ReportRow = typeof weekReports.$inferSelect;

/** The names a report's lines show: products, cities and building types by id (none of them is ever deleted). */
async function reportNames(db: DbExecutor, row: ReportRow) {
  const productIds = [...new Set([...row.saleProductIds, ...row.productionProductIds])];
  const cityIds = [...new Set([...row.saleCityIds, ...row.productionCityIds])];
  const [productRows, cityRows, typeRows] = await Promise.all([
    productIds.length ? db.select({ id: products.id, name: products.name }).from(products).where(inArray(products.id, productIds)) : [],
    cityIds.length ? db.select({ id: cities.id, name: cities.name }).from(cities).where(inArray(cities.id, cityIds)) : [],
    row.productionBuildingTypes.length || row.saleBuildingIds.length
      ? db.select({ type: buildingTypes.type, name: buildingTypes.name }).from(buildingTypes)
      : [],
  ]);
  const product = new Map(productRows.map((entry) => [entry.id, entry.name]));
  const city = new Map(cityRows.map((entry) => [entry.id, entry.name]));
  const type = new Map(typeRows.map((entry) => [entry.type, entry.name]));
  return {
    product: (id: number) => product.get(id) ?? `Product #${id}`,
    city: (id: number) => city.get(id) ?? '',
    building: (buildingType: string) => type.get(buildingType) ?? 'Building',
  };
}

/**
 * Why a week has no report for the company: its turn has not run yet, or (a finished week) the
 * company was founded after it, so it never will; "yet" would send a player who joined in week 9
 * back to week 3's results forever.
 */
async function whyNoReport(db: DbExecutor, companyId: number, week: number): Promise<string> {
  const [found] = await db.execute<{ current_week: number; first_week: number | null }>(sql`
    select w.current_week, (select min(r.week) from ${weekReports} r where r.company_id = c.id) as first_week
    from ${companies} c join ${worlds} w on w.id = c.world_id where c.id = ${companyId}`);
  const currentWeek = Number(found?.current_week ?? 0);
  if (week < currentWeek) {
    const first = found?.first_week == null ? currentWeek : Number(found.first_week);
    if (week < first) return `Your company has no results for week ${week}: it was founded after that week's turn (its first results are week ${first}'s)`;
  }
  return `No report for week ${week} yet: a week's report is written by the turn that ends it`;
}

/** GET /api/reports/{week}: one week's report; 404 when the turn of that week has not run for the company. */
export async function getWeekReport(db: DbExecutor, companyId: number, week: number): Promise<WeekReportView> {
  const [row] = await db
    .select()
    .from(weekReports)
    .where(and(eq(weekReports.companyId, companyId), eq(weekReports.week, week)));
  if (!row) throw new GameError('NOT_FOUND', await whyNoReport(db, companyId, week));
  const dollars = (cents: number) => centsToDollars(Number(cents));
  const [names, exchange] = await Promise.all([reportNames(db, row), weekExchangeResults(db, companyId, week)]);
  const sales = row.saleBuildingIds
    .map((buildingId, index) => ({
      building_id: buildingId,
      building: names.building('store'),
      city: names.city(row.saleCityIds[index]!),
      product_id: row.saleProductIds[index]!,
      product: names.product(row.saleProductIds[index]!),
      units: Number(row.saleUnits[index]),
      revenue: dollars(row.saleRevenueCents[index]!),
    }))
    .sort((a, b) => b.revenue - a.revenue || a.building_id - b.building_id || a.product_id - b.product_id);
  const production = row.productionBuildingIds
    .map((buildingId, index) => ({
      building_id: buildingId,
      building: names.building(row.productionBuildingTypes[index]!),
      city: names.city(row.productionCityIds[index]!),
      product_id: row.productionProductIds[index]!,
      product: names.product(row.productionProductIds[index]!),
      role: row.productionMade[index] ? ('output' as const) : ('input' as const),
      units: Number(row.productionUnits[index]),
    }))
    .sort((a, b) => a.building_id - b.building_id || (a.role === b.role ? a.product.localeCompare(b.product) : a.role === 'output' ? -1 : 1));
  return {
    ...summaryOf(row),
    companies_ranked: row.companiesRanked,
    market_sales: dollars(row.marketSalesCents),
    market_purchases: dollars(row.marketPurchasesCents),
    wages: dollars(row.wagesCents),
    operating_costs: dollars(row.operatingCents),
    subsidies: dollars(row.subsidyCents),
    taxes: dollars(row.taxCents),
    dividends_received: dollars(row.dividendsReceivedCents),
    dividends_paid: dollars(row.dividendsPaidCents),
    sales,
    production,
    // Largest income first, largest spending last (the turn writes them unordered: no sort per company in the turn).
    // The $0 production line moves no cash (docs/invariants.md): what was made is `production` above,
    // and listed among the cash flows it read as 'Production (1 line) $0.00' every week.
    cash_flows: row.cashFlowReasons
      .map((reason, index) => ({
        type: row.cashFlowTypes[index]! as TransactionType,
        reason,
        amount: dollars(row.cashFlowAmountsCents[index]!),
        lines: row.cashFlowLines[index]!,
      }))
      .filter((flow) => flow.type !== 'production')
      .sort((a, b) => b.amount - a.amount || a.reason.localeCompare(b.reason)),
    dividends: row.dividendsReceived.map(({ amount_cents, ...dividend }) => ({ ...dividend, shares: Number(dividend.shares), amount: dollars(amount_cents) })),
    research: row.research,
    ...exchange,
    events: row.events,
  };
}
