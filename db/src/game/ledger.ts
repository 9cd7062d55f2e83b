/**
 * The ledger: every change of a company's cash goes through here, as one conditional UPDATE and
 * one transactions row in the same statement. A debit that would take cash below zero changes
 * nothing and throws NOT_ENOUGH_CASH (concurrent debits are safe: PostgreSQL re-checks the
 * condition on the locked row).
 */
import { sql } from 'drizzle-orm';
import { GameError, formatCents, type TransactionType } from '@marketcraft/shared';
import type { DbExecutor } from '../client.ts';

export interface CashChange {
  companyId: number;
  /** Signed: negative debits, positive credits. */
  amountCents: number;
  type: TransactionType;
  /** Finer reason within the type (build, hire, equipment, market_buy, research, politics, ...). */
  reason: string;
  description: string;
  /** Turn costs may take cash negative (that is what leads to bankruptcy); player actions never. */
  allowNegative?: boolean;
  /** What the line concerns (GET /api/transactions links it there). */
  ref?: LedgerRef;
}

/** The building, product, other company or country a ledger line concerns. */
export interface LedgerRef {
  buildingId?: number;
  productId?: number;
  counterpartyCompanyId?: number;
  countryId?: number;
}

/** Applies the change and writes its ledger row; returns the new cash in cents. */
export async function changeCash(db: DbExecutor, change: CashChange): Promise<number> {
  const amount = Math.round(change.amountCents);
  if (!Number.isSafeInteger(amount)) throw new Error(`Invalid cash change: ${change.amountCents}`);
  const allowNegative = change.allowNegative === true;
  const ref = change.ref ?? {};
  const rows = await db.execute<{ cash_cents: number }>(sql`
    with updated as (
      update companies set cash_cents = cash_cents + ${amount}
      where id = ${change.companyId}
        and (${allowNegative} or ${amount} >= 0 or cash_cents + ${amount} >= 0)
      returning world_id, cash_cents
    ), ledger as (
      -- In the company's world, at its current week.
      insert into transactions (world_id, company_id, type, reason, amount_cents, description, week,
                                building_id, product_id, counterparty_company_id, country_id)
      select updated.world_id, ${change.companyId}, ${change.type}, ${change.reason}, ${amount}, ${change.description},
             (select current_week from worlds w where w.id = updated.world_id),
             ${ref.buildingId ?? null}::int, ${ref.productId ?? null}::int, ${ref.counterpartyCompanyId ?? null}::int, ${ref.countryId ?? null}::int
      from updated
    )
    select cash_cents from updated`);
  const row = rows[0];
  if (row) return Number(row.cash_cents);
  const current = await db.execute<{ cash_cents: number }>(sql`select cash_cents from companies where id = ${change.companyId}`);
  const cash = current[0];
  if (!cash) throw new GameError('NOT_FOUND', 'No company found');
  throw new GameError('NOT_ENOUGH_CASH', notEnoughCashMessage(-amount, Number(cash.cash_cents)));
}

export function notEnoughCashMessage(costCents: number, cashCents: number): string {
  return `Not enough cash: this costs ${formatCents(costCents)} and you have ${formatCents(cashCents)}`;
}
