/**
 * The ledger: every change of a company's cash goes through here, as one conditional UPDATE and
 * one transactions row in the same statement. A debit that would take cash below zero changes
 * nothing and throws NOT_ENOUGH_CASH (concurrent debits are safe: PostgreSQL re-checks the
 * condition on the locked row).
 */
import { sql, type SQL } from 'drizzle-orm';
import { GameError, formatCents, type TransactionType } from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { sqlTemplate } from '../../sqlTemplate.ts';

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
interface LedgerRef {
  buildingId?: number;
  productId?: number;
  counterpartyCompanyId?: number;
  countryId?: number;
}

type CashSlot =
  'companyId' | 'amount' | 'allowNegative' | 'type' | 'reason' | 'description' | 'buildingId' | 'productId' | 'counterpartyCompanyId' | 'countryId';

/** changeCash's CTEs: `updated` (the conditional update: world_id, cash_cents) and `ledger` (its row). */
function cashChangeCtes(slot: (name: CashSlot) => SQL): SQL {
  return sql`
    updated as (
      update companies set cash_cents = cash_cents + ${slot('amount')}::bigint
      where id = ${slot('companyId')}::int
        and (${slot('allowNegative')}::boolean or ${slot('amount')}::bigint >= 0 or cash_cents + ${slot('amount')}::bigint >= 0)
      returning world_id, cash_cents
    ), ledger as (
      -- In the company's world, at its current week.
      insert into transactions (world_id, company_id, type, reason, amount_cents, description, week,
                                building_id, product_id, counterparty_company_id, country_id)
      select updated.world_id, ${slot('companyId')}::int, ${slot('type')}::text, ${slot('reason')}::text, ${slot('amount')}::bigint, ${slot('description')}::text,
             (select current_week from worlds w where w.id = updated.world_id),
             ${slot('buildingId')}::int, ${slot('productId')}::int, ${slot('counterpartyCompanyId')}::int, ${slot('countryId')}::int
      from updated
    )`;
}

/**
 * CTEs for a statement that moves cash listed by a CTE named `money` (company_id, amount, type,
 * reason, description, counterparty_company_id, product_id): `paid` is the conditional update of each company
 * (returning id, world_id, cash_cents; a debit that would overdraw is left out, as changeCash does)
 * and `booked` its ledger rows, in each company's world at its current week. The statement checks
 * that `paid` has a row per move and otherwise fails (refuse_statement), so no move happens alone.
 */
export const cashMovesCtes = sql`
  paid as (
    update companies c set cash_cents = c.cash_cents + money.amount
    from money where c.id = money.company_id and (money.amount >= 0 or c.cash_cents + money.amount >= 0)
    returning c.id, c.world_id, c.cash_cents
  ), booked as (
    insert into transactions (world_id, company_id, type, reason, amount_cents, description, week, counterparty_company_id, product_id)
    select paid.world_id, money.company_id, money.type, money.reason, money.amount, money.description,
           (select current_week from worlds w where w.id = paid.world_id), money.counterparty_company_id, money.product_id
    from paid join money on money.company_id = paid.id
  )`;

/** changeCash's statement (every player action and bot runs it). */
const changeCashSql = sqlTemplate<CashSlot>((slot) => sql`with ${cashChangeCtes(slot)} select cash_cents from updated`);

type CashValues = Record<CashSlot, unknown>;

/** The slots of a cash change (validated: whole cents). */
function cashChangeValues(change: CashChange): CashValues {
  const amount = Math.round(change.amountCents);
  if (!Number.isSafeInteger(amount)) throw new Error(`Invalid cash change: ${change.amountCents}`);
  const ref = change.ref ?? {};
  return {
    companyId: change.companyId,
    amount,
    allowNegative: change.allowNegative === true,
    type: change.type,
    reason: change.reason,
    description: change.description,
    buildingId: ref.buildingId ?? null,
    productId: ref.productId ?? null,
    counterpartyCompanyId: ref.counterpartyCompanyId ?? null,
    countryId: ref.countryId ?? null,
  };
}

/** Why a cash change was refused: the company is unknown, or the debit would overdraw it. */
async function cashRefusal(db: DbExecutor, change: CashChange): Promise<GameError> {
  const current = await db.execute<{ cash_cents: number }>(sql`select cash_cents from companies where id = ${change.companyId}`);
  const cash = current[0];
  if (!cash) return new GameError('NOT_FOUND', 'No company found');
  return new GameError('NOT_ENOUGH_CASH', notEnoughCashMessage(-Math.round(change.amountCents), Number(cash.cash_cents)));
}

/** Applies the change and writes its ledger row; returns the new cash in cents. */
export async function changeCash(db: DbExecutor, change: CashChange): Promise<number> {
  const rows = await db.execute<{ cash_cents: number }>(changeCashSql(cashChangeValues(change)));
  const row = rows[0];
  if (row) return Number(row.cash_cents);
  throw await cashRefusal(db, change);
}

/**
 * Many cash changes in one statement (a list of requests of one action): per company the sum of its
 * changes, conditionally (a debit never takes cash below zero: the company is then not changed), and
 * one ledger row per change, in the list's order. Throws NOT_ENOUGH_CASH (nothing written) if a
 * company would go below zero: the actions check each request's cost before (Purses), so it is the
 * guard, not the rule. Returns each changed company's cash after.
 */
export async function changeCashOfMany(db: DbExecutor, changes: readonly CashChange[]): Promise<Map<number, number>> {
  if (changes.length === 0) return new Map();
  const rows = changes.map((change, seq) => {
    const values = cashChangeValues(change);
    if (values.allowNegative) throw new Error('changeCashOfMany moves player cash: never below zero');
    return {
      seq,
      company_id: values.companyId,
      amount_cents: values.amount,
      type: values.type,
      reason: values.reason,
      description: values.description,
      building_id: values.buildingId,
      product_id: values.productId,
      counterparty_company_id: values.counterpartyCompanyId,
      country_id: values.countryId,
    };
  });
  const companies = new Set(changes.map((change) => change.companyId)).size;
  const result = await db.execute<{ company_id: number; cash_cents: number }>(sql`
    with change as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as c(
        seq int, company_id int, amount_cents bigint, type text, reason text, description text,
        building_id int, product_id int, counterparty_company_id int, country_id int)
    ), net as (
      select company_id, sum(amount_cents)::bigint as amount_cents from change group by company_id
    ), updated as (
      update companies c set cash_cents = c.cash_cents + net.amount_cents
      from net where c.id = net.company_id and (net.amount_cents >= 0 or c.cash_cents + net.amount_cents >= 0)
      returning c.world_id, c.id as company_id, c.cash_cents
    ), ledger as (
      -- Each row in its company's world, at that world's week.
      insert into transactions (world_id, company_id, type, reason, amount_cents, description, week,
                                building_id, product_id, counterparty_company_id, country_id)
      select updated.world_id, change.company_id, change.type, change.reason, change.amount_cents, change.description,
             (select current_week from worlds w where w.id = updated.world_id),
             change.building_id, change.product_id, change.counterparty_company_id, change.country_id
      from change join updated using (company_id) order by change.seq
    )
    select company_id, cash_cents from updated`);
  if (result.length !== companies) throw new GameError('NOT_ENOUGH_CASH', 'Not enough cash');
  return new Map(result.map((row) => [Number(row.company_id), Number(row.cash_cents)]));
}

export function notEnoughCashMessage(costCents: number, cashCents: number): string {
  return `Not enough cash: this costs ${formatCents(costCents)} and you have ${formatCents(cashCents)}`;
}
