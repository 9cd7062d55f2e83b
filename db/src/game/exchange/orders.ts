/**
 * Limit orders in the weekly call auction (docs/exchange.md). Placing an order escrows at once what
 * it may need: a buy holds the limit price x units plus the fee of cash, a sell takes its units out
 * of the warehouse. Cancelling releases what is left, exactly once: the company's row lock orders a
 * cancel against the turn's clearing (the turn holds every active company's lock), and the order's
 * status changes only by a conditional update from a live status.
 *
 * Lock order, as every player action: the companies' rows first (in id order), then their orders
 * and warehouse rows, which only the holder of the company's lock writes.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  EXCHANGE_FEE_BP,
  EXCHANGE_MAX_OPEN_ORDERS,
  GameError,
  MAX_ORDER_VALUE_CENTS,
  centsToDollars,
  dollarsToCents,
  exchangeFeeRule,
  formatCents,
  type ExchangeOrderStatus,
  type ExchangeOrderView,
  type ExchangeSide,
  type CancelExchangeOrderInput,
  type PlaceExchangeOrderInput,
} from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { PRODUCT_NOT_FOUND } from '../goods/stock.ts';
import { WORLD_ENDED } from '../clock/state.ts';
import { inTransaction, type ActionRequest, type Outcome } from '../action.ts';
import { addGoods, bookMoves, openWarehouseRows, takeGoods, type LedgerMove } from './ledger.ts';

const ORDER_NOT_FOUND = 'Order not found';
const LIVE_STATUSES_SQL = sql`('open', 'partially_filled')`;

/**
 * The live orders (open or partly filled) of alias `o` in week `week` (SQL). Every live order's last
 * week is this week or later: an order is placed for this week and up to 7 more, and the turn of its
 * last week fills or expires it. Saying so lets the week index (exchange_orders_week_idx) find them
 * among the last 8 weeks' orders instead of every order the world ever had.
 */
export function liveOrdersSql(week: SQL): SQL {
  return sql`o.status in ${LIVE_STATUSES_SQL} and o.expires_week >= ${week}`;
}

/**
 * Raises the book version (exchange_book_versions) of the products whose live orders changed, in
 * the transaction that changes them, so a published book kept between reads (books.ts) is read
 * again. In (world, product) order: two transactions take the rows' locks in the same order.
 */
async function booksChanged(db: DbExecutor, changed: readonly { worldId: number; productId: number }[]): Promise<void> {
  const keys = [...new Map(changed.map((change) => [`${change.worldId}:${change.productId}`, change])).values()];
  if (keys.length === 0) return;
  keys.sort((a, b) => a.worldId - b.worldId || a.productId - b.productId);
  await db.execute(sql`
    insert into exchange_book_versions (world_id, product_id, version)
    select world_id, product_id, 1
    from jsonb_to_recordset(${JSON.stringify(keys.map((key, ord) => ({ ord, world_id: key.worldId, product_id: key.productId })))}::jsonb) as k(ord int, world_id int, product_id int)
    order by ord
    on conflict (world_id, product_id) do update set version = exchange_book_versions.version + 1`);
}

/** The fee on a value (exchangeFeeRule). */
function exchangeFeeCents(valueCents: number): number {
  return exchangeFeeRule.evaluate({ value: valueCents });
}

/**
 * What a buy order must hold for the units it has left: their value at the limit price, plus the
 * fee the order would owe on all its fills if they all cleared at the limit, less the fee it paid.
 * The fee is charged on an order's filled value so far (rounded up once), so this never falls short
 * of what the next fills cost, whatever their prices at or under the limit.
 */
function buyEscrowCents(order: { quantityLeft: number; limitCents: number; filledValueCents: number; feePaidCents: number }): number {
  const atLimit = order.quantityLeft * order.limitCents;
  return atLimit + exchangeFeeCents(order.filledValueCents + atLimit) - order.feePaidCents;
}

/** An order as the action decides it: the request's fields in cents, its weeks given. */
interface PlaceOrderInput {
  productId: number;
  side: ExchangeSide;
  quantity: number;
  limitPriceCents: number;
  /** 1-8 auctions, this week's first. */
  weeks: number;
}

interface CompanyState {
  worldId: number;
  cashCents: number;
  week: number;
  worldStatus: string;
  liveOrders: number;
}

type OrderRow = {
  id: number;
  product_id: number;
  product_name: string;
  side: ExchangeSide;
  quantity: number;
  filled_quantity: number;
  limit_price_cents: number;
  escrow_cents: number;
  escrow_units: number;
  filled_value_cents: number;
  status: ExchangeOrderStatus;
  week_placed: number;
  expires_week: number;
};

function orderView(row: OrderRow): ExchangeOrderView {
  const filled = Number(row.filled_quantity);
  return {
    id: Number(row.id),
    product_id: Number(row.product_id),
    product_name: row.product_name,
    side: row.side,
    quantity: Number(row.quantity),
    filled_quantity: filled,
    limit_price: centsToDollars(Number(row.limit_price_cents)),
    escrow: centsToDollars(Number(row.escrow_cents)),
    escrow_units: Number(row.escrow_units),
    average_fill_price: filled > 0 ? centsToDollars(Math.round(Number(row.filled_value_cents) / filled)) : null,
    status: row.status,
    week_placed: Number(row.week_placed),
    expires_week: Number(row.expires_week),
  };
}

const ORDER_COLUMNS = sql`o.id, o.product_id, p.name as product_name, o.side, o.quantity, o.filled_quantity, o.limit_price_cents, o.escrow_cents,
  o.escrow_units, o.filled_value_cents, o.status, o.week_placed, o.expires_week`;

/** Locks the companies' rows in id order (as the turn does) and reads what an order is checked against. */
async function lockCompanies(db: DbExecutor, companyIds: readonly number[]): Promise<Map<number, CompanyState>> {
  const ids = [...new Set(companyIds)].sort((a, b) => a - b);
  await db.execute(sql`select id from companies where id in ${ids} and status = 'active' order by id for update`);
  const rows = await db.execute<{ id: number; world_id: number; cash_cents: number; current_week: number; world_status: string; live_orders: number }>(sql`
    select c.id, c.world_id, c.cash_cents, w.current_week, w.status as world_status,
           (select count(*) from exchange_orders o where o.world_id = c.world_id and o.company_id = c.id and o.status in ${LIVE_STATUSES_SQL})::int as live_orders
    from companies c join worlds w on w.id = c.world_id
    where c.id in ${ids} and c.status = 'active'`);
  return new Map(
    rows.map((row) => [
      Number(row.id),
      {
        worldId: Number(row.world_id),
        cashCents: Number(row.cash_cents),
        week: Number(row.current_week),
        worldStatus: row.world_status,
        liveOrders: Number(row.live_orders),
      },
    ]),
  );
}

function describeOrder(side: ExchangeSide, quantity: number, productName: string, limitCents: number): string {
  return `${side === 'buy' ? 'buy' : 'sell'} order: ${quantity} ${productName} at ${side === 'buy' ? 'up to' : 'at least'} ${formatCents(limitCents)}`;
}

function orderInCents(input: PlaceExchangeOrderInput): PlaceOrderInput {
  return {
    productId: input.product_id,
    side: input.side,
    quantity: input.quantity,
    limitPriceCents: dollarsToCents(input.limit_price),
    weeks: input.weeks ?? 1,
  };
}

/**
 * POST /api/exchange/orders, for a list of requests (the API sends one, the bots many: the action
 * placeExchangeOrders). Each is checked in order against its company as the earlier accepted ones
 * left it (cash, units held, open orders), so two requests of one company never spend the same cash twice.
 */
export async function placeExchangeOrders(db: DbExecutor, placed: readonly ActionRequest<PlaceExchangeOrderInput>[]): Promise<Outcome<ExchangeOrderView>[]> {
  if (placed.length === 0) return [];
  const requests = placed.map((request) => ({ ...request, input: orderInCents(request.input) }));
  return inTransaction(db, async (tx) => {
    const companies = await lockCompanies(
      tx,
      requests.map((request) => request.companyId),
    );
    const worldIds = [...new Set([...companies.values()].map((company) => company.worldId))];
    const productIds = [...new Set(requests.map((request) => request.input.productId))];
    const products = new Map<string, { name: string }>();
    const stock = new Map<string, { quantity: number; averageCostCents: number }>();
    if (worldIds.length > 0) {
      for (const row of await tx.execute<{ world_id: number; id: number; name: string }>(sql`
        select wp.world_id, p.id, p.name from products p join world_products wp on wp.product_id = p.id
        where wp.world_id in ${worldIds} and p.id in ${productIds}`)) {
        products.set(`${row.world_id}:${row.id}`, { name: row.name });
      }
      for (const row of await tx.execute<{ company_id: number; product_id: number; quantity: number; average_cost_cents: number }>(sql`
        select company_id, product_id, quantity, average_cost_cents from inventory_items
        where world_id in ${worldIds} and company_id in ${[...companies.keys()]} and product_id in ${productIds}`)) {
        stock.set(`${row.company_id}:${row.product_id}`, { quantity: Number(row.quantity), averageCostCents: Number(row.average_cost_cents) });
      }
    }

    type Accepted = {
      index: number;
      companyId: number;
      worldId: number;
      week: number;
      productName: string;
      escrowCents: number;
      unitCostCents: number;
      input: PlaceOrderInput;
    };
    const accepted: Accepted[] = [];
    const outcomes: (Outcome<ExchangeOrderView> | null)[] = requests.map((request, index) => {
      const { companyId, input } = request;
      const company = companies.get(companyId);
      if (!company) return { applied: false, refusal: new GameError('NOT_FOUND', 'No company found') };
      if (company.worldStatus === 'ended') return { applied: false, refusal: new GameError('CONFLICT', WORLD_ENDED) };
      const product = products.get(`${company.worldId}:${input.productId}`);
      if (!product) return { applied: false, refusal: new GameError('NOT_FOUND', PRODUCT_NOT_FOUND) };
      if (company.liveOrders >= EXCHANGE_MAX_OPEN_ORDERS) {
        return {
          applied: false,
          refusal: new GameError('RULE_BROKEN', `You have ${EXCHANGE_MAX_OPEN_ORDERS} open orders, the most a company may have: cancel one first`),
        };
      }
      const valueCents = input.quantity * input.limitPriceCents;
      if (valueCents > MAX_ORDER_VALUE_CENTS)
        return { applied: false, refusal: new GameError('RULE_BROKEN', `That order is too large for the ${product.name} market: split it over several weeks`) };
      let escrowCents = 0;
      let unitCostCents = 0;
      if (input.side === 'buy') {
        escrowCents = buyEscrowCents({ quantityLeft: input.quantity, limitCents: input.limitPriceCents, filledValueCents: 0, feePaidCents: 0 });
        if (company.cashCents < escrowCents) {
          return {
            applied: false,
            refusal: new GameError(
              'NOT_ENOUGH_CASH',
              `Not enough cash: this order holds ${formatCents(escrowCents)} (${input.quantity} x ${formatCents(input.limitPriceCents)} plus the ${EXCHANGE_FEE_BP / 100}% fee) and you have ${formatCents(company.cashCents)}`,
            ),
          };
        }
        company.cashCents -= escrowCents;
      } else {
        const held = stock.get(`${companyId}:${input.productId}`) ?? { quantity: 0, averageCostCents: 0 };
        if (held.quantity < input.quantity) {
          return {
            applied: false,
            refusal: new GameError(
              'NOT_ENOUGH_STOCK',
              `Not enough stock: you have ${held.quantity} ${product.name} in the warehouse and offered ${input.quantity}`,
            ),
          };
        }
        held.quantity -= input.quantity;
        unitCostCents = held.averageCostCents;
      }
      company.liveOrders += 1;
      accepted.push({ index, companyId, worldId: company.worldId, week: company.week, productName: product.name, escrowCents, unitCostCents, input });
      return null;
    });
    if (accepted.length === 0) return outcomes as Outcome<ExchangeOrderView>[];

    // The orders, in request order (identity values rise in the insert's order: ids sorted = requests' order).
    const inserted = await tx.execute<{ id: number }>(sql`
      insert into exchange_orders (world_id, company_id, product_id, side, quantity, limit_price_cents, escrow_cents, escrow_units, escrow_cost_cents, week_placed, expires_week)
      select world_id, company_id, product_id, side, quantity, limit_price_cents, escrow_cents, escrow_units, escrow_cost_cents, week_placed, expires_week
      from jsonb_to_recordset(${JSON.stringify(
        accepted.map((order, ord) => ({
          ord,
          world_id: order.worldId,
          company_id: order.companyId,
          product_id: order.input.productId,
          side: order.input.side,
          quantity: order.input.quantity,
          limit_price_cents: order.input.limitPriceCents,
          escrow_cents: order.escrowCents,
          escrow_units: order.input.side === 'sell' ? order.input.quantity : 0,
          escrow_cost_cents: order.unitCostCents,
          week_placed: order.week,
          expires_week: order.week + order.input.weeks - 1,
        })),
      )}::jsonb) as r(ord int, world_id int, company_id int, product_id int, side text, quantity bigint, limit_price_cents bigint, escrow_cents bigint,
                    escrow_units bigint, escrow_cost_cents bigint, week_placed int, expires_week int)
      order by ord
      returning id`);
    const ids = inserted.map((row) => Number(row.id)).sort((a, b) => a - b);
    await booksChanged(
      tx,
      accepted.map((order) => ({ worldId: order.worldId, productId: order.input.productId })),
    );

    const moves: LedgerMove[] = accepted.map((order, ord) => ({
      companyId: order.companyId,
      amountCents: -order.escrowCents,
      type: 'other',
      reason: 'exchange_escrow',
      description:
        order.input.side === 'buy'
          ? `Held ${formatCents(order.escrowCents)} for ${describeOrder('buy', order.input.quantity, order.productName, order.input.limitPriceCents)} plus the fee (order #${ids[ord]})`
          : `Held ${order.input.quantity} ${order.productName} from the warehouse for ${describeOrder('sell', order.input.quantity, order.productName, order.input.limitPriceCents)} (order #${ids[ord]})`,
      productId: order.input.productId,
    }));
    await bookMoves(tx, moves);
    await openWarehouseRows(
      tx,
      accepted
        .filter((order) => order.input.side === 'buy')
        .map((order) => ({ worldId: order.worldId, companyId: order.companyId, productId: order.input.productId })),
    );
    await takeGoods(
      tx,
      accepted
        .filter((order) => order.input.side === 'sell')
        .map((order) => ({ worldId: order.worldId, companyId: order.companyId, productId: order.input.productId, quantity: order.input.quantity })),
    );
    accepted.forEach((order, ord) => {
      outcomes[order.index] = {
        applied: true,
        result: {
          id: ids[ord]!,
          product_id: order.input.productId,
          product_name: order.productName,
          side: order.input.side,
          quantity: order.input.quantity,
          filled_quantity: 0,
          limit_price: centsToDollars(order.input.limitPriceCents),
          escrow: centsToDollars(order.escrowCents),
          escrow_units: order.input.side === 'sell' ? order.input.quantity : 0,
          average_fill_price: null,
          status: 'open',
          week_placed: order.week,
          expires_week: order.week + order.input.weeks - 1,
        },
      };
    });
    return outcomes as Outcome<ExchangeOrderView>[];
  });
}

type ReleasedOrder = {
  id: number;
  world_id: number;
  company_id: number;
  product_id: number;
  product_name: string;
  side: ExchangeSide;
  escrow_cents: number;
  escrow_units: number;
  escrow_cost_cents: number;
};

/**
 * Closes live orders (cancelled by their owner, expired, or cancelled for a bankruptcy) and gives
 * back what they hold: cash to the company (a ledger row), goods to its warehouse at their cost (a
 * row of amount 0). One conditional update from a live status: an order is closed and released once.
 * The caller holds the companies' locks. `which` selects the orders (a condition on `o`).
 */
async function closeOrders(db: DbExecutor, which: ReturnType<typeof sql>, how: { status: 'cancelled' | 'expired'; why: string }): Promise<ReleasedOrder[]> {
  const closed = await db.execute<ReleasedOrder>(sql`
    with old as (
      select o.world_id, o.id, o.escrow_cents, o.escrow_units from exchange_orders o
      where o.status in ${LIVE_STATUSES_SQL} and ${which}
      for update
    ), closed as (
      update exchange_orders o set status = ${how.status}, escrow_cents = 0, escrow_units = 0,
             closed_week = (select current_week from worlds w where w.id = o.world_id)
      from old where o.world_id = old.world_id and o.id = old.id and o.status in ${LIVE_STATUSES_SQL}
      returning o.id, o.world_id, o.company_id, o.product_id, o.side, old.escrow_cents, old.escrow_units, o.escrow_cost_cents
    )
    select closed.*, p.name as product_name from closed join products p on p.id = closed.product_id order by closed.id`);
  const moves: LedgerMove[] = closed.map((order) => ({
    companyId: Number(order.company_id),
    amountCents: Number(order.escrow_cents),
    type: 'other',
    reason: 'exchange_release',
    description:
      order.side === 'buy'
        ? `Released ${formatCents(Number(order.escrow_cents))} held by buy order #${order.id} (${how.why})`
        : `Released ${Number(order.escrow_units)} ${order.product_name} held by sell order #${order.id} to the warehouse (${how.why})`,
    productId: Number(order.product_id),
  }));
  await bookMoves(db, moves);
  await booksChanged(
    db,
    closed.map((order) => ({ worldId: Number(order.world_id), productId: Number(order.product_id) })),
  );
  await addGoods(
    db,
    closed
      .filter((order) => order.side === 'sell')
      .map((order) => ({
        worldId: Number(order.world_id),
        companyId: Number(order.company_id),
        productId: Number(order.product_id),
        quantity: Number(order.escrow_units),
        unitCostCents: Number(order.escrow_cost_cents),
      })),
  );
  return closed.map((order) => ({ ...order, id: Number(order.id) }));
}

/** DELETE /api/exchange/orders/{id}, for a list of requests: each cancels one of its company's live orders. */
export async function cancelExchangeOrders(
  db: DbExecutor,
  cancelled: readonly ActionRequest<CancelExchangeOrderInput>[],
): Promise<Outcome<ExchangeOrderView>[]> {
  if (cancelled.length === 0) return [];
  const requests = cancelled.map((request) => ({ ...request, input: { orderId: request.input.id } }));
  return inTransaction(db, async (tx) => {
    const companies = await lockCompanies(
      tx,
      requests.map((request) => request.companyId),
    );
    const owned = requests.filter((request) => companies.has(request.companyId) && companies.get(request.companyId)!.worldStatus !== 'ended');
    const pairs = owned.map((request) => ({ company_id: request.companyId, order_id: request.input.orderId }));
    const released =
      pairs.length === 0
        ? []
        : await closeOrders(
            tx,
            sql`(o.company_id, o.id) in (select company_id, order_id from jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) as r(company_id int, order_id int))
                and o.world_id in (select world_id from companies where id in ${[...companies.keys(), 0]})`,
            { status: 'cancelled', why: 'cancelled' },
          );
    const releasedIds = new Set(released.map((order) => order.id));
    const ids = requests.map((request) => request.input.orderId);
    const rows = await tx.execute<OrderRow & { company_id: number }>(sql`
      select ${ORDER_COLUMNS}, o.company_id from exchange_orders o join products p on p.id = o.product_id
      where o.id in ${ids} and o.company_id in ${[...new Set(requests.map((request) => request.companyId))]}`);
    const byId = new Map(rows.map((row) => [`${row.company_id}:${row.id}`, row]));
    const seen = new Set<number>();
    return requests.map((request): Outcome<ExchangeOrderView> => {
      const company = companies.get(request.companyId);
      if (!company) return { applied: false, refusal: new GameError('NOT_FOUND', 'No company found') };
      if (company.worldStatus === 'ended') return { applied: false, refusal: new GameError('CONFLICT', WORLD_ENDED) };
      const row = byId.get(`${request.companyId}:${request.input.orderId}`);
      if (!row) return { applied: false, refusal: new GameError('NOT_FOUND', ORDER_NOT_FOUND) };
      // The first request for an order released it; a second one in the same list finds it closed.
      if (!releasedIds.has(Number(row.id)) || seen.has(Number(row.id))) {
        return { applied: false, refusal: new GameError('CONFLICT', `This order is ${row.status.replace('_', ' ')}: only an open order can be cancelled`) };
      }
      seen.add(Number(row.id));
      return { applied: true, result: orderView(row) };
    });
  });
}

/** GET /api/exchange/orders?status=&product_id=: the company's orders, newest first (at most 200). */
export async function listExchangeOrders(
  db: DbExecutor,
  companyId: number,
  filter: { status?: ExchangeOrderStatus; productId?: number } = {},
): Promise<ExchangeOrderView[]> {
  const rows = await db.execute<OrderRow>(sql`
    select ${ORDER_COLUMNS} from exchange_orders o join products p on p.id = o.product_id
    where o.world_id = (select world_id from companies where id = ${companyId}) and o.company_id = ${companyId}
      ${filter.status ? sql`and o.status = ${filter.status}` : sql``}
      ${filter.productId ? sql`and o.product_id = ${filter.productId}` : sql``}
    order by o.id desc limit 200`);
  return rows.map(orderView);
}

/** Cash a company's live buy orders hold, cents (GET /api/company's cash_in_escrow). */
export function cashInEscrowSql(worldId: ReturnType<typeof sql>, companyId: ReturnType<typeof sql>) {
  return sql`(select coalesce(sum(o.escrow_cents), 0)::bigint from exchange_orders o
              where o.world_id = ${worldId} and o.company_id = ${companyId} and o.status in ${LIVE_STATUSES_SQL} and o.side = 'buy')`;
}
