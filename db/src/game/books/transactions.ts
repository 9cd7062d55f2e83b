/**
 * GET /transactions: the company's ledger, newest first, filtered by type and week, a page at a
 * time. Each line says what it concerns, so the web can link it: the building, product, company or
 * country of a player's action (transactions.building_id and friends, set by changeCash's `ref`),
 * research, or, for the turn's own lines (wages, taxes, sales, production, dividends...), its week.
 */
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { centsToDollars, type TransactionType, type LedgerLineView, type LedgerPage } from '@marketcraft/shared';
import { transactions } from '../../schema/index.ts';
import type { DbExecutor } from '../../client.ts';

export interface LedgerFilter {
  page: number;
  pageSize: number;
  type?: TransactionType;
  week?: number;
}

type LedgerRow = {
  id: number;
  week: number;
  type: TransactionType;
  reason: string;
  amountCents: number;
  description: string;
  createdAt: Date;
  buildingId: number | null;
  productId: number | null;
  counterpartyCompanyId: number | null;
  countryId: number | null;
};

/** Lines written before these columns existed concern their week, as the turn's lines do. */
function concernOf(row: LedgerRow): LedgerLineView['concerns'] {
  if (row.buildingId !== null) return { kind: 'building', id: row.buildingId };
  if (row.productId !== null) return { kind: 'product', id: row.productId };
  if (row.counterpartyCompanyId !== null) return { kind: 'company', id: row.counterpartyCompanyId };
  if (row.countryId !== null) return { kind: 'country', id: row.countryId };
  if (row.reason === 'research') return { kind: 'research', id: 0 };
  return { kind: 'week', id: row.week };
}

export async function listTransactions(db: DbExecutor, companyId: number, filter: LedgerFilter): Promise<LedgerPage> {
  const conditions: SQL[] = [eq(transactions.companyId, companyId)];
  if (filter.type) conditions.push(eq(transactions.type, filter.type));
  if (filter.week !== undefined) conditions.push(eq(transactions.week, filter.week));
  const where = and(...conditions);
  const [rows, totals, weeks] = await Promise.all([
    db
      .select({
        id: transactions.id,
        week: transactions.week,
        type: transactions.type,
        reason: transactions.reason,
        amountCents: transactions.amountCents,
        description: transactions.description,
        createdAt: transactions.createdAt,
        buildingId: transactions.buildingId,
        productId: transactions.productId,
        counterpartyCompanyId: transactions.counterpartyCompanyId,
        countryId: transactions.countryId,
      })
      .from(transactions)
      .where(where)
      .orderBy(desc(transactions.week), desc(transactions.id))
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize),
    db.select({ total: count() }).from(transactions).where(where),
    db.execute<{ week: number }>(sql`select distinct week from transactions where company_id = ${companyId} order by week desc`),
  ]);
  return {
    items: rows.map((row) => ({
      id: row.id,
      week: row.week,
      type: row.type,
      reason: row.reason,
      amount: centsToDollars(row.amountCents),
      description: row.description,
      created_at: row.createdAt.toISOString(),
      concerns: concernOf(row),
    })),
    page: filter.page,
    page_size: filter.pageSize,
    total: totals[0]?.total ?? 0,
    weeks: weeks.map((row) => Number(row.week)),
  };
}
