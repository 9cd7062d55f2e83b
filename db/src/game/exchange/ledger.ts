/**
 * The exchange's cash and goods moves, set-based: many companies' ledger rows in one statement.
 * Every move of escrow is a ledger row (docs/exchange.md, "Escrow"): cash into or out of an order's
 * or a contract's escrow moves the company's cash (reasons ESCROW_REASONS), and goods into or out
 * of escrow are rows of amount 0 naming the product, so a company's ledger tells every move.
 * Callers hold the companies' row locks (taken first, in id order) and have checked the amounts.
 */
import { sql } from 'drizzle-orm';
import type { TransactionType } from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';

export interface LedgerMove {
  companyId: number;
  /** Signed cents (0 for a move of goods). */
  amountCents: number;
  type: TransactionType;
  reason: string;
  description: string;
  productId: number | null;
  counterpartyCompanyId?: number | null;
}

/**
 * Applies the moves: each company's cash changes by the sum of its amounts (one update per company)
 * and each move is one ledger row, in the company's world at its current week. Refuses (throws)
 * when a company's cash would go below zero: callers checked it under the lock, so that is a bug.
 */
export async function bookMoves(db: DbExecutor, moves: readonly LedgerMove[]): Promise<void> {
  if (moves.length === 0) return;
  const rows = moves.map((move) => {
    if (!Number.isSafeInteger(move.amountCents)) throw new Error(`Invalid ledger amount: ${move.amountCents}`);
    return {
      company_id: move.companyId,
      amount: move.amountCents,
      type: move.type,
      reason: move.reason,
      description: move.description,
      product_id: move.productId,
      counterparty_company_id: move.counterpartyCompanyId ?? null,
    };
  });
  const [result] = await db.execute<{ companies: number; paid: number }>(sql`
    with m as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as m(company_id int, amount bigint, type text, reason text, description text, product_id int, counterparty_company_id int)
    ), per_company as (
      select company_id, sum(amount)::bigint as amount from m group by company_id
    ), paid as (
      update companies c set cash_cents = c.cash_cents + per_company.amount
      from per_company where c.id = per_company.company_id and c.cash_cents + per_company.amount >= 0
      returning c.id, c.world_id
    ), booked as (
      insert into transactions (world_id, company_id, type, reason, amount_cents, description, week, product_id, counterparty_company_id)
      select paid.world_id, m.company_id, m.type, m.reason, m.amount, m.description, w.current_week, m.product_id, m.counterparty_company_id
      from m join paid on paid.id = m.company_id join worlds w on w.id = paid.world_id
      returning 1
    )
    select (select count(*) from per_company)::int as companies, (select count(*) from paid)::int as paid, (select count(*) from booked)::int as booked`);
  if (Number(result?.paid) !== Number(result?.companies)) throw new Error('an exchange move would overdraw a company: its check under the lock missed it');
}

export interface GoodsMove {
  worldId: number;
  companyId: number;
  productId: number;
  quantity: number;
  unitCostCents: number;
}

/** Adds goods to warehouses (several rows of one company and product are summed first, at their weighted cost). */
export async function addGoods(db: DbExecutor, moves: readonly GoodsMove[]): Promise<void> {
  const rows = moves.filter((move) => move.quantity > 0);
  if (rows.length === 0) return;
  await db.execute(sql`
    insert into inventory_items (world_id, company_id, product_id, quantity, average_cost_cents)
    select world_id, company_id, product_id, sum(quantity)::bigint, round(sum(quantity * unit_cost_cents)::numeric / sum(quantity))::bigint
    from jsonb_to_recordset(${JSON.stringify(rows.map((r) => ({ world_id: r.worldId, company_id: r.companyId, product_id: r.productId, quantity: r.quantity, unit_cost_cents: r.unitCostCents })))}::jsonb)
      as g(world_id int, company_id int, product_id int, quantity bigint, unit_cost_cents bigint)
    group by world_id, company_id, product_id
    on conflict (world_id, company_id, product_id) do update set
      average_cost_cents = round((inventory_items.quantity * inventory_items.average_cost_cents + excluded.quantity * excluded.average_cost_cents)::numeric
                                 / nullif(inventory_items.quantity + excluded.quantity, 0)),
      quantity = inventory_items.quantity + excluded.quantity`);
}

/**
 * Makes sure each buyer has a warehouse row for what it bids on (quantity 0 where it had none): a
 * buy order's fill then adds to an existing row. So the turn's clearing updates rows in place
 * instead of inserting ~25,000 new ones, each with its index entries and a key check per foreign key
 * (docs/exchange.md, "Speed"). An empty row is not listed (the warehouse shows quantities above 0).
 */
export async function openWarehouseRows(db: DbExecutor, rows: readonly Omit<GoodsMove, 'quantity' | 'unitCostCents'>[]): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(sql`
    insert into inventory_items (world_id, company_id, product_id, quantity, average_cost_cents)
    select distinct world_id, company_id, product_id, 0::bigint, 0::bigint
    from jsonb_to_recordset(${JSON.stringify(rows.map((r) => ({ world_id: r.worldId, company_id: r.companyId, product_id: r.productId })))}::jsonb)
      as g(world_id int, company_id int, product_id int)
    on conflict (world_id, company_id, product_id) do nothing`);
}

/**
 * Takes goods out of warehouses; all or nothing: throws when a warehouse holds fewer than asked
 * (callers checked under the company lock). Returns nothing: callers read the average cost before.
 */
export async function takeGoods(db: DbExecutor, moves: readonly Omit<GoodsMove, 'unitCostCents'>[]): Promise<void> {
  const rows = moves.filter((move) => move.quantity > 0);
  if (rows.length === 0) return;
  const [result] = await db.execute<{ wanted: number; taken: number }>(sql`
    with g as (
      select world_id, company_id, product_id, sum(quantity)::bigint as quantity
      from jsonb_to_recordset(${JSON.stringify(rows.map((r) => ({ world_id: r.worldId, company_id: r.companyId, product_id: r.productId, quantity: r.quantity })))}::jsonb)
        as g(world_id int, company_id int, product_id int, quantity bigint)
      group by world_id, company_id, product_id
    ), taken as (
      update inventory_items i set quantity = i.quantity - g.quantity
      from g where i.world_id = g.world_id and i.company_id = g.company_id and i.product_id = g.product_id and i.quantity >= g.quantity
      returning 1
    )
    select (select count(*) from g)::int as wanted, (select count(*) from taken)::int as taken`);
  if (Number(result?.taken) !== Number(result?.wanted))
    throw new Error('an exchange move would take goods a warehouse does not hold: its check under the lock missed it');
}
