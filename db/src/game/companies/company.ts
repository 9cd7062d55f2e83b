/**
 * The company: profile, financial history, founding again after bankruptcy, and the public list
 * of companies ranked by net worth (the leaderboard's data).
 */
import { desc, eq, sql } from 'drizzle-orm';
import {
  BANKRUPTCY_TURNS,
  FINANCIAL_HISTORY_ENTRIES,
  GameError,
  MAX_ROW_ID,
  centsToDollars,
  netWorthRule,
  type CompanyListPage,
  type Figure,
  type CompanyStatus,
  type CompanyDetails,
  type FinancialHistoryEntry,
} from '@marketcraft/shared';
import { companies, financialHistory, shareRecords } from '../../schema/index.ts';
import type { DbExecutor } from '../../client.ts';
import { companyNameKey, withCompanyName } from './names.ts';
import { activeCompaniesCashSql, valuationSql } from './valuation.ts';
import { companyFilterSql, pageSql, type ListPage } from './lists.ts';
import { cashInEscrowSql } from '../exchange/orders.ts';
import { sqlTemplate } from '../../sqlTemplate.ts';
import { oneByOne, type PlayerAction } from '../action.ts';

type ValuationRow = {
  company_id: number;
  cash_cents: number;
  /** Cash held by open buy orders (valuationSql). */
  escrow_cents?: number;
  goods_cents: number;
  buildings_cents: number;
  holdings_cents: number;
  claims_cents: number;
  net_worth_cents: number;
};

function netWorthFigure(row: ValuationRow): Figure {
  return netWorthRule.explain({
    // Cash held by open buy orders is still the company's (valuationSql counts it with its cash).
    cashCents: Number(row.cash_cents) + Number(row.escrow_cents ?? 0),
    goodsCents: Number(row.goods_cents),
    buildingsCents: Number(row.buildings_cents),
    holdingsCents: Number(row.holdings_cents),
    claimsCents: Number(row.claims_cents),
  });
}

/** The company, its share record and its valuation (valuationSql, the one definition) in one query, rendered once. */
const companyQuery = sqlTemplate<'companyId'>(
  (slot) => sql`
    select c.id, c.name, c.bio, c.founded_at, c.is_bot, c.strategy, c.status, c.negative_cash_turns, c.tax_loss_cents,
           s.total_shares, s.share_price_cents, ${cashInEscrowSql(sql`c.world_id`, sql`c.id`)} as cash_in_escrow_cents, v.*
    from ${companies} c
    left join ${shareRecords} s on s.world_id = c.world_id and s.company_id = c.id
    left join ${valuationSql(sql`(select id as company_id, cash_cents from companies where id = ${slot('companyId')})`, {
      // The company's own world (one id is one company in one world).
      worldId: sql`(select world_id from companies where id = ${slot('companyId')})`,
      companyIds: sql`(${slot('companyId')})`,
    })} v
      on v.company_id = c.id
    where c.id = ${slot('companyId')}`,
);

/** The company's own view (GET /api/company). */
export async function getCompany(db: DbExecutor, companyId: number): Promise<CompanyDetails> {
  const [row] = await db.execute<
    ValuationRow & {
      id: number;
      name: string;
      bio: string | null;
      founded_at: Date | string;
      is_bot: boolean;
      strategy: string | null;
      status: CompanyStatus;
      negative_cash_turns: number;
      tax_loss_cents: number;
      total_shares: number | null;
      share_price_cents: number | null;
      cash_in_escrow_cents: number;
    }
  >(companyQuery({ companyId }));
  if (!row) throw new GameError('NOT_FOUND', 'No company found');
  const totalShares = Number(row.total_shares ?? 0);
  const sharePriceCents = Number(row.share_price_cents ?? 0);
  const valuation = row;
  return {
    id: Number(row.id),
    name: row.name,
    bio: row.bio,
    cash: centsToDollars(Number(row.cash_cents)),
    cash_in_escrow: centsToDollars(Number(row.cash_in_escrow_cents)),
    founded_at: new Date(row.founded_at).toISOString(),
    is_bot: row.is_bot,
    strategy: row.strategy,
    status: row.status,
    share_price: centsToDollars(sharePriceCents),
    total_shares: totalShares,
    net_worth: centsToDollars(Number(valuation.net_worth_cents)),
    net_worth_why: netWorthFigure(valuation),
    tax_loss_carried: centsToDollars(Number(row.tax_loss_cents)),
    negative_turns: Number(row.negative_cash_turns),
    bankruptcy_turns: BANKRUPTCY_TURNS,
  };
}

/** PATCH /api/company/profile: name (already trimmed, non-empty) and bio (null clears it; undefined keeps it). */
async function updateCompanyProfileOne(db: DbExecutor, companyId: number, profile: { name: string; bio?: string | null }): Promise<CompanyDetails> {
  const changes: { name: string; nameKey: string; bio?: string | null } = { name: profile.name, nameKey: companyNameKey(profile.name) };
  if (profile.bio !== undefined) changes.bio = profile.bio;
  // Another active company of the world with this name (any case) or a look-alike of it: 409 (the unique indexes decide races).
  const updated = await withCompanyName(() => db.update(companies).set(changes).where(eq(companies.id, companyId)).returning({ id: companies.id }));
  if (updated.length === 0) throw new GameError('NOT_FOUND', 'No company found');
  return getCompany(db, companyId);
}

/** The last 52 turns' cash changes, oldest first. */
export async function getFinancialHistory(db: DbExecutor, companyId: number): Promise<FinancialHistoryEntry[]> {
  const rows = await db
    .select({
      week: financialHistory.week,
      amountCents: financialHistory.amountCents,
      cashAfterCents: financialHistory.cashAfterCents,
      profitCents: financialHistory.profitCents,
      netWorthCents: financialHistory.netWorthCents,
    })
    .from(financialHistory)
    .where(eq(financialHistory.companyId, companyId))
    .orderBy(desc(financialHistory.week))
    .limit(FINANCIAL_HISTORY_ENTRIES);
  return rows.reverse().map((row) => ({
    week: row.week,
    amount: centsToDollars(row.amountCents),
    cash_after: centsToDollars(row.cashAfterCents),
    profit: centsToDollars(row.profitCents),
    net_worth: row.netWorthCents === null ? null : centsToDollars(row.netWorthCents),
  }));
}

export interface PublicCompany {
  /** Place on the leaderboard of the whole world (a filtered page keeps each company's true rank). */
  rank: number;
  id: number;
  name: string;
  is_bot: boolean;
  strategy: string | null;
  cash: number;
  share_price: number;
  total_shares: number;
  net_worth: number;
  founded_at: string;
  is_you: boolean;
}

/** A page of the leaderboard, the size of the whole (filtered) list, and the viewer's own row wherever it ranks. */
export interface RankedCompanies extends ListPage<PublicCompany> {
  you: PublicCompany | null;
}

type RankedRow = {
  part: 'page' | 'you';
  rank: number;
  id: number;
  name: string;
  is_bot: boolean;
  strategy: string | null;
  cash_cents: number;
  founded_at: Date | string;
  total_shares: number | null;
  share_price_cents: number | null;
  net_worth_cents: number;
};

/**
 * GET /api/companies and /api/leaderboard: the active companies' public fields, richest (net worth:
 * valuationSql) first, ties by id; one page of them, with the viewer's own row (its rank) found in
 * the same pass. Net worth is valued once for the whole world: a rank needs everyone's.
 */
export async function rankCompanies(db: DbExecutor, worldId: number, viewerCompanyId: number | null, page: CompanyListPage): Promise<RankedCompanies> {
  const rows = await db.execute<RankedRow>(sql`
    with valued as materialized (
      -- Valued once for the whole world: joined inline, a planner that misjudges the world's size (a
      -- world that just grew, before autovacuum's analyze) re-ran the valuation for every company
      -- (600 companies: 25 s instead of 20 ms).
      select company_id, net_worth_cents from ${valuationSql(activeCompaniesCashSql(worldId), { worldId })} v0
    ), ranked as (
      select c.id, c.name, c.is_bot, c.strategy, c.cash_cents, c.founded_at, s.total_shares, s.share_price_cents, v.net_worth_cents,
             row_number() over (order by v.net_worth_cents desc, c.id) as rank
      from valued v
      join companies c on c.world_id = ${worldId} and c.id = v.company_id
      left join share_records s on s.world_id = c.world_id and s.company_id = c.id
    )
    (select 'page' as part, ranked.* from ranked where ${companyFilterSql('ranked', page)} order by rank ${pageSql(page)})
    union all
    (select 'you' as part, ranked.* from ranked where ranked.id = ${viewerCompanyId ?? 0})`);
  const toCompany = (row: RankedRow): PublicCompany => ({
    rank: Number(row.rank),
    id: Number(row.id),
    name: row.name,
    is_bot: row.is_bot,
    strategy: row.strategy,
    cash: centsToDollars(Number(row.cash_cents)),
    share_price: centsToDollars(Number(row.share_price_cents ?? 0)),
    total_shares: Number(row.total_shares ?? 0),
    net_worth: centsToDollars(Number(row.net_worth_cents)),
    founded_at: new Date(row.founded_at).toISOString(),
    is_you: Number(row.id) === viewerCompanyId,
  });
  const you = rows.find((row) => row.part === 'you');
  // The ranked set is exactly the world's active companies (valuationSql values each of them), so they count without valuing.
  const [count] = await db.execute<{ total: number }>(sql`
    select count(*)::int as total from companies c where c.world_id = ${worldId} and c.status = 'active' and ${companyFilterSql('c', page)}`);
  return {
    rows: rows.filter((row) => row.part === 'page').map(toCompany),
    total: Number(count?.total ?? 0),
    you: you ? toCompany(you) : null,
  };
}

/** Every active company, ranked (the benchmarks and tests that read a whole world; the API pages). */
export async function listCompanies(db: DbExecutor, worldId: number, viewerCompanyId: number | null): Promise<PublicCompany[]> {
  return (await rankCompanies(db, worldId, viewerCompanyId, { limit: MAX_ROW_ID, offset: 0, search: null, company_id: null })).rows;
}

/** PATCH /api/company/profile, the player action. */
export const updateCompanyProfile: PlayerAction<{ name: string; bio?: string | null | undefined }, CompanyDetails> = oneByOne((db, { companyId, input }) =>
  updateCompanyProfileOne(db, companyId, input),
);
