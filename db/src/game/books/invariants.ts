/**
 * What must always hold about money (docs/economy.md): each company's cash equals its
 * starting cash plus the sum of its ledger rows.
 */
import { sql } from 'drizzle-orm';
import type { DbExecutor } from '../../client.ts';

export interface LedgerMismatch {
  companyId: number;
  name: string;
  cashCents: number;
  startingCashCents: number;
  ledgerSumCents: number;
}

/** Companies whose cash_cents != starting_cash_cents + sum(transactions.amount_cents); empty when all is well. */
export async function ledgerMismatches(db: DbExecutor): Promise<LedgerMismatch[]> {
  const rows = await db.execute<{ id: number; name: string; cash_cents: number; starting_cash_cents: number; ledger_sum: number }>(sql`
    select c.id, c.name, c.cash_cents, c.starting_cash_cents, coalesce(t.total, 0)::bigint as ledger_sum
    from companies c
    left join (select company_id, sum(amount_cents) as total from transactions group by company_id) t on t.company_id = c.id
    where c.cash_cents <> c.starting_cash_cents + coalesce(t.total, 0)
    order by c.id`);
  return rows.map((row) => ({
    companyId: Number(row.id),
    name: row.name,
    cashCents: Number(row.cash_cents),
    startingCashCents: Number(row.starting_cash_cents),
    ledgerSumCents: Number(row.ledger_sum),
  }));
}

/**
 * Ledger rows, and the turn's financial and share price history rows, whose company does not exist
 * (their company_id has no foreign key, for the turn's speed: see db/src/schema/companies.ts);
 * 0 when all is well.
 */
export async function orphanLedgerRows(db: DbExecutor): Promise<number> {
  const [row] = await db.execute<{ orphans: number }>(sql`
    select (select count(*) from transactions t where not exists (select 1 from companies c where c.world_id = t.world_id and c.id = t.company_id))
         + (select count(*) from financial_history f where not exists (select 1 from companies c where c.world_id = f.world_id and c.id = f.company_id))
         + (select count(*) from stock_price_history h where not exists (select 1 from companies c where c.world_id = h.world_id and c.id = h.company_id))
           as orphans`);
  return Number(row?.orphans ?? 0);
}

/** Issuers whose shares held by others exceed their total shares, or holdings below zero. */
export async function shareMismatches(db: DbExecutor): Promise<{ issuerCompanyId: number; totalShares: number; held: number }[]> {
  const rows = await db.execute<{ company_id: number; total_shares: number; held: number }>(sql`
    select s.company_id, s.total_shares, coalesce(sum(p.shares_owned), 0)::bigint as held
    from share_records s left join portfolio_entries p on p.issuer_company_id = s.company_id
    group by s.company_id, s.total_shares
    having coalesce(sum(p.shares_owned), 0) > s.total_shares or coalesce(min(p.shares_owned), 0) < 0`);
  return rows.map((row) => ({ issuerCompanyId: Number(row.company_id), totalShares: Number(row.total_shares), held: Number(row.held) }));
}
