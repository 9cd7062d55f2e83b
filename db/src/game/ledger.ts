/**
 * The ledger: every change of a company's cash goes through here, as one conditional UPDATE and
 * one transactions row in the same statement. A debit that would take cash below zero changes
 * nothing and throws NOT_ENOUGH_CASH (concurrent debits are safe: PostgreSQL re-checks the
 * condition on the locked row).
 */
import { sql, type SQL } from 'drizzle-orm';
import { GameError, formatCents, type TransactionType } from '@marketcraft/shared';
import type { DbExecutor } from '../client.ts';
import { sqlTemplate } from '../sqlTemplate.ts';

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

type CashSlot = 'companyId' | 'amount' | 'allowNegative' | 'type' | 'reason' | 'description' | 'buildingId' | 'productId' | 'counterpartyCompanyId' | 'countryId';

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
 * A statement that changes one company's cash as changeCash does and, in the same statement, more
 * that happens only when the cash changed: `more` gives further CTEs (reading `updated`) and the
 * final select, which returns no row when the change was refused. Rendered once (sqlTemplate).
 */
export function withCashChange<K extends string>(more: (slot: (name: K | CashSlot) => SQL) => SQL): (values: Record<K, unknown> & CashValues) => SQL {
  return sqlTemplate<K | CashSlot>((slot) => sql`with ${cashChangeCtes(slot)}, ${more(slot)}`);
}

/** changeCash's statement (every player action and bot runs it). */
const changeCashSql = sqlTemplate<CashSlot>((slot) => sql`with ${cashChangeCtes(slot)} select cash_cents from updated`);

type CashValues = Record<CashSlot, unknown>;

/** The slots of a cash change (validated: whole cents). */
export function cashChangeValues(change: CashChange): CashValues {
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
export async function cashRefusal(db: DbExecutor, change: CashChange): Promise<GameError> {
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

/** changeCashOfTwo's statement, rendered once (sqlTemplate); slots `companyId0`, `amount1`, ... */
const changeCashOfTwoSql = sqlTemplate<string>((slot) => {
  const change = (ord: number) => sql`(${ord}::int, ${slot(`companyId${ord}`)}::int, ${slot(`amount${ord}`)}::bigint, ${slot(`allowNegative${ord}`)}::boolean,
    ${slot(`type${ord}`)}::text, ${slot(`reason${ord}`)}::text, ${slot(`description${ord}`)}::text, ${slot(`buildingId${ord}`)}::int,
    ${slot(`productId${ord}`)}::int, ${slot(`counterpartyCompanyId${ord}`)}::int, ${slot(`countryId${ord}`)}::int)`;
  return sql`
    with ch (ord, company_id, amount, allow_negative, type, reason, description, building_id, product_id, counterparty_company_id, country_id) as (
      values ${change(0)}, ${change(1)}
    ), payable as (
      select count(*) = 2 as ok from ch join companies c on c.id = ch.company_id
      where ch.allow_negative or ch.amount >= 0 or c.cash_cents + ch.amount >= 0
    ), updated as (
      update companies c set cash_cents = c.cash_cents + ch.amount
      from ch where c.id = ch.company_id and (select ok from payable)
        and (ch.allow_negative or ch.amount >= 0 or c.cash_cents + ch.amount >= 0)
      returning c.id, c.world_id, c.cash_cents
    ), ledger as (
      -- In each company's world, at its current week.
      insert into transactions (world_id, company_id, type, reason, amount_cents, description, week,
                                building_id, product_id, counterparty_company_id, country_id)
      select u.world_id, ch.company_id, ch.type, ch.reason, ch.amount, ch.description,
             (select current_week from worlds w where w.id = u.world_id),
             ch.building_id, ch.product_id, ch.counterparty_company_id, ch.country_id
      from updated u join ch on ch.company_id = u.id
      order by ch.ord
    )
    select ch.company_id, c.cash_cents as cash_before, u.cash_cents as cash_after
    from ch join companies c on c.id = ch.company_id left join updated u on u.id = ch.company_id`;
});

/**
 * Two cash changes of two different companies (a share trade: holder and issuer) in ONE statement
 * with their two ledger rows: both or neither. The caller holds both companies' row locks (taken in
 * id order), so the payability check and the updates see the same cash. A debit that would take
 * cash below zero changes nothing and throws NOT_ENOUGH_CASH, as changeCash does. Returns the new
 * cash of each, in cents, in the order given.
 */
export async function changeCashOfTwo(db: DbExecutor, first: CashChange, second: CashChange): Promise<[number, number]> {
  if (first.companyId === second.companyId) throw new Error('changeCashOfTwo takes two different companies');
  // The slots of each change (cashChangeValues: whole cents, refs or null), suffixed 0 and 1.
  const values: Record<string, unknown> = {};
  [first, second].forEach((change, ord) => {
    for (const [slot, value] of Object.entries(cashChangeValues(change))) values[`${slot}${ord}`] = value;
  });
  const rows = await db.execute<{ company_id: number; cash_before: number; cash_after: number | null }>(changeCashOfTwoSql(values));
  const cashOf = (change: CashChange) => rows.find((row) => Number(row.company_id) === change.companyId);
  const after = [first, second].map((change) => cashOf(change)?.cash_after);
  if (after[0] !== null && after[0] !== undefined && after[1] !== null && after[1] !== undefined) return [Number(after[0]), Number(after[1])];
  for (const change of [first, second]) {
    const row = cashOf(change);
    if (!row) throw new GameError('NOT_FOUND', 'No company found');
    const amount = Math.round(change.amountCents);
    if (change.allowNegative !== true && amount < 0 && Number(row.cash_before) + amount < 0) {
      throw new GameError('NOT_ENOUGH_CASH', notEnoughCashMessage(-amount, Number(row.cash_before)));
    }
  }
  throw new Error('changeCashOfTwo: the cash changes were not applied');
}

export function notEnoughCashMessage(costCents: number, cashCents: number): string {
  return `Not enough cash: this costs ${formatCents(costCents)} and you have ${formatCents(cashCents)}`;
}
