/**
 * Contracts between companies (docs/exchange.md, "Contracts"): a seller offers goods to one other
 * company of its world at a price; its goods are held (escrow) from the offer. The buyer accepts
 * (pays, the goods move: one conditional update from 'open' with both companies' rows locked, so
 * exactly once whatever runs at the same time) or declines; the seller may cancel while it is
 * open; at the turn of its last week an open offer expires. Declined, cancelled and expired offers
 * give the goods back to the seller's warehouse at their cost. No exchange fee: the two companies
 * agreed the price between themselves.
 */
import { sql } from 'drizzle-orm';
import {
  CONTRACT_MAX_OPEN_OFFERS_PER_BUYER,
  EXCHANGE_MAX_ORDER_WEEKS,
  GameError,
  MAX_ORDER_VALUE_CENTS,
  centsToDollars,
  formatCents,
  type ContractStatus,
  type ContractView,
  type ContractIdInput,
  type OfferContractInput,
  dollarsToCents,
} from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { PRODUCT_NOT_FOUND } from '../goods/stock.ts';
import { WORLD_ENDED } from '../clock/state.ts';
import { inTransaction, type ActionRequest, type Outcome } from '../action.ts';
import { addGoods, bookMoves, takeGoods, type LedgerMove } from './ledger.ts';

const CONTRACT_NOT_FOUND = 'Contract not found';

/** An offer as the action decides it: the request's fields, its price in cents. */
interface OfferInCents {
  buyerCompanyId: number;
  productId: number;
  quantity: number;
  unitPriceCents: number;
  expiresWeek: number;
}

type ContractRow = {
  id: number;
  world_id: number;
  seller_company_id: number;
  seller_name: string;
  buyer_company_id: number;
  buyer_name: string;
  product_id: number;
  product_name: string;
  quantity: number;
  unit_price_cents: number;
  escrow_cost_cents: number;
  status: ContractStatus;
  week_offered: number;
  expires_week: number;
};

const CONTRACT_COLUMNS = sql`k.id, k.world_id, k.seller_company_id, s.name as seller_name, k.buyer_company_id, b.name as buyer_name, k.product_id,
  p.name as product_name, k.quantity, k.unit_price_cents, k.escrow_cost_cents, k.status, k.week_offered, k.expires_week`;
const CONTRACT_FROM = sql`contracts k join companies s on s.world_id = k.world_id and s.id = k.seller_company_id
  join companies b on b.world_id = k.world_id and b.id = k.buyer_company_id join products p on p.id = k.product_id`;

function contractView(row: ContractRow): ContractView {
  const quantity = Number(row.quantity);
  const unit = Number(row.unit_price_cents);
  return {
    id: Number(row.id),
    seller_company_id: Number(row.seller_company_id),
    seller_name: row.seller_name,
    buyer_company_id: Number(row.buyer_company_id),
    buyer_name: row.buyer_name,
    product_id: Number(row.product_id),
    product_name: row.product_name,
    quantity,
    unit_price: centsToDollars(unit),
    total: centsToDollars(quantity * unit),
    status: row.status,
    week_offered: Number(row.week_offered),
    expires_week: Number(row.expires_week),
  };
}

interface LockedCompany {
  worldId: number;
  name: string;
  cashCents: number;
  week: number;
  worldStatus: string;
}

/** Locks the companies' rows in id order (every player action and the turn take them so) and reads them. */
async function lockCompanies(db: DbExecutor, ids: readonly number[]): Promise<Map<number, LockedCompany>> {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  if (sorted.length === 0) return new Map();
  await db.execute(sql`select id from companies where id in ${sorted} and status = 'active' order by id for update`);
  const rows = await db.execute<{ id: number; world_id: number; name: string; cash_cents: number; current_week: number; world_status: string }>(sql`
    select c.id, c.world_id, c.name, c.cash_cents, w.current_week, w.status as world_status
    from companies c join worlds w on w.id = c.world_id where c.id in ${sorted} and c.status = 'active'`);
  return new Map(
    rows.map((row) => [
      Number(row.id),
      { worldId: Number(row.world_id), name: row.name, cashCents: Number(row.cash_cents), week: Number(row.current_week), worldStatus: row.world_status },
    ]),
  );
}

const refuse = (code: ConstructorParameters<typeof GameError>[0], message: string): Outcome<ContractView> => ({
  applied: false,
  refusal: new GameError(code, message),
});

/** POST /api/contracts, for a list of offers: each holds its goods out of the seller's warehouse at once. */
export async function offerContracts(db: DbExecutor, offered: readonly ActionRequest<OfferContractInput>[]): Promise<Outcome<ContractView>[]> {
  if (offered.length === 0) return [];
  const requests = offered.map((request) => ({
    ...request,
    input: {
      buyerCompanyId: request.input.buyer_company_id,
      productId: request.input.product_id,
      quantity: request.input.quantity,
      unitPriceCents: dollarsToCents(request.input.unit_price),
      expiresWeek: request.input.expires_week,
    },
  }));
  return inTransaction(db, async (tx) => {
    const sellers = await lockCompanies(
      tx,
      requests.map((request) => request.companyId),
    );
    const buyerIds = [...new Set(requests.map((request) => request.input.buyerCompanyId))];
    const buyers = new Map(
      (
        await tx.execute<{ id: number; world_id: number; name: string }>(
          sql`select id, world_id, name from companies where id in ${buyerIds} and status = 'active'`,
        )
      ).map((row) => [Number(row.id), { worldId: Number(row.world_id), name: row.name }]),
    );
    const productIds = [...new Set(requests.map((request) => request.input.productId))];
    const worldIds = [...new Set([...sellers.values()].map((seller) => seller.worldId)), 0];
    const products = new Map(
      (
        await tx.execute<{ world_id: number; id: number; name: string }>(sql`
        select wp.world_id, p.id, p.name from products p join world_products wp on wp.product_id = p.id where wp.world_id in ${worldIds} and p.id in ${productIds}`)
      ).map((row) => [`${row.world_id}:${row.id}`, row.name]),
    );
    const stock = new Map(
      (
        await tx.execute<{ company_id: number; product_id: number; quantity: number; average_cost_cents: number }>(sql`
        select company_id, product_id, quantity, average_cost_cents from inventory_items where company_id in ${[...sellers.keys(), 0]} and product_id in ${productIds}`)
      ).map((row) => [`${row.company_id}:${row.product_id}`, { quantity: Number(row.quantity), averageCostCents: Number(row.average_cost_cents) }]),
    );
    // Open offers per seller and buyer, counted under the sellers' locks (exact under concurrency).
    const openOffers = new Map(
      (
        await tx.execute<{ seller_company_id: number; buyer_company_id: number; open: number }>(sql`
        select seller_company_id, buyer_company_id, count(*)::int as open from contracts
        where seller_company_id in ${[...sellers.keys(), 0]} and status = 'open' group by seller_company_id, buyer_company_id`)
      ).map((row) => [`${row.seller_company_id}:${row.buyer_company_id}`, Number(row.open)]),
    );
    type Accepted = {
      index: number;
      sellerId: number;
      worldId: number;
      week: number;
      sellerName: string;
      buyerName: string;
      productName: string;
      costCents: number;
      input: OfferInCents;
    };
    const accepted: Accepted[] = [];
    const outcomes: (Outcome<ContractView> | null)[] = requests.map((request, index) => {
      const { companyId, input } = request;
      const seller = sellers.get(companyId);
      if (!seller) return refuse('NOT_FOUND', 'No company found');
      if (seller.worldStatus === 'ended') return refuse('CONFLICT', WORLD_ENDED);
      const buyer = buyers.get(input.buyerCompanyId);
      // A company of another world is as unknown as one that does not exist.
      if (!buyer || buyer.worldId !== seller.worldId) return refuse('NOT_FOUND', 'Company not found');
      if (input.buyerCompanyId === companyId) return refuse('RULE_BROKEN', 'You cannot offer goods to your own company');
      const productName = products.get(`${seller.worldId}:${input.productId}`);
      if (!productName) return refuse('NOT_FOUND', PRODUCT_NOT_FOUND);
      if (input.expiresWeek < seller.week || input.expiresWeek > seller.week + EXCHANGE_MAX_ORDER_WEEKS - 1) {
        return refuse(
          'RULE_BROKEN',
          `An offer expires this week (${seller.week}) or within the next ${EXCHANGE_MAX_ORDER_WEEKS - 1} weeks (by week ${seller.week + EXCHANGE_MAX_ORDER_WEEKS - 1})`,
        );
      }
      if (input.quantity * input.unitPriceCents > MAX_ORDER_VALUE_CENTS) return refuse('RULE_BROKEN', 'That offer is too large: split it');
      const pair = `${companyId}:${input.buyerCompanyId}`;
      const open = openOffers.get(pair) ?? 0;
      if (open >= CONTRACT_MAX_OPEN_OFFERS_PER_BUYER) {
        return refuse(
          'RULE_BROKEN',
          `You have ${CONTRACT_MAX_OPEN_OFFERS_PER_BUYER} open offers to ${buyer.name}, the most one company may make to another: wait for their answer or cancel one first`,
        );
      }
      const held = stock.get(`${companyId}:${input.productId}`) ?? { quantity: 0, averageCostCents: 0 };
      if (held.quantity < input.quantity)
        return refuse('NOT_ENOUGH_STOCK', `Not enough stock: you have ${held.quantity} ${productName} in the warehouse and offered ${input.quantity}`);
      held.quantity -= input.quantity;
      openOffers.set(pair, open + 1);
      accepted.push({
        index,
        sellerId: companyId,
        worldId: seller.worldId,
        week: seller.week,
        sellerName: seller.name,
        buyerName: buyer.name,
        productName,
        costCents: held.averageCostCents,
        input,
      });
      return null;
    });
    if (accepted.length === 0) return outcomes as Outcome<ContractView>[];
    const inserted = await tx.execute<{ id: number }>(sql`
      insert into contracts (world_id, seller_company_id, buyer_company_id, product_id, quantity, unit_price_cents, escrow_cost_cents, week_offered, expires_week)
      select world_id, seller_company_id, buyer_company_id, product_id, quantity, unit_price_cents, escrow_cost_cents, week_offered, expires_week
      from jsonb_to_recordset(${JSON.stringify(
        accepted.map((offer, ord) => ({
          ord,
          world_id: offer.worldId,
          seller_company_id: offer.sellerId,
          buyer_company_id: offer.input.buyerCompanyId,
          product_id: offer.input.productId,
          quantity: offer.input.quantity,
          unit_price_cents: offer.input.unitPriceCents,
          escrow_cost_cents: offer.costCents,
          week_offered: offer.week,
          expires_week: offer.input.expiresWeek,
        })),
      )}::jsonb) as r(ord int, world_id int, seller_company_id int, buyer_company_id int, product_id int, quantity bigint, unit_price_cents bigint,
                    escrow_cost_cents bigint, week_offered int, expires_week int)
      order by ord
      returning id`);
    const ids = inserted.map((row) => Number(row.id)).sort((a, b) => a - b);
    await bookMoves(
      tx,
      accepted.map((offer, ord) => ({
        companyId: offer.sellerId,
        amountCents: 0,
        type: 'other',
        reason: 'exchange_escrow',
        description: `Held ${offer.input.quantity} ${offer.productName} from the warehouse for contract offer #${ids[ord]} to ${offer.buyerName} at ${formatCents(offer.input.unitPriceCents)} each`,
        productId: offer.input.productId,
        counterpartyCompanyId: offer.input.buyerCompanyId,
      })),
    );
    await takeGoods(
      tx,
      accepted.map((offer) => ({ worldId: offer.worldId, companyId: offer.sellerId, productId: offer.input.productId, quantity: offer.input.quantity })),
    );
    accepted.forEach((offer, ord) => {
      outcomes[offer.index] = {
        applied: true,
        result: contractView({
          id: ids[ord]!,
          world_id: offer.worldId,
          seller_company_id: offer.sellerId,
          seller_name: offer.sellerName,
          buyer_company_id: offer.input.buyerCompanyId,
          buyer_name: offer.buyerName,
          product_id: offer.input.productId,
          product_name: offer.productName,
          quantity: offer.input.quantity,
          unit_price_cents: offer.input.unitPriceCents,
          escrow_cost_cents: offer.costCents,
          status: 'open',
          week_offered: offer.week,
          expires_week: offer.input.expiresWeek,
        }),
      };
    });
    return outcomes as Outcome<ContractView>[];
  });
}

type Answer = 'accepted' | 'declined' | 'cancelled';

/**
 * Accept, decline (the buyer) or cancel (the seller) open contracts. Both companies' rows are locked
 * first (in id order), then each contract changes status by one conditional update from 'open', so
 * it is answered once: a second accept, or an accept meeting a cancel, finds it closed (409).
 */
async function answerContracts(db: DbExecutor, answer: Answer, requests: readonly ActionRequest<ContractIdInput>[]): Promise<Outcome<ContractView>[]> {
  if (requests.length === 0) return [];
  return inTransaction(db, async (tx) => {
    const ids = [...new Set(requests.map((request) => request.input.id))];
    // Who the parties are (not locked yet: the locks below, then the conditional update decides).
    const parties = await tx.execute<{ seller_company_id: number; buyer_company_id: number }>(
      sql`select seller_company_id, buyer_company_id from contracts where id in ${ids}`,
    );
    const companies = await lockCompanies(tx, [
      ...requests.map((request) => request.companyId),
      ...parties.flatMap((row) => [Number(row.seller_company_id), Number(row.buyer_company_id)]),
    ]);
    const rows = new Map(
      (await tx.execute<ContractRow>(sql`select ${CONTRACT_COLUMNS} from ${CONTRACT_FROM} where k.id in ${ids}`)).map((row) => [Number(row.id), row]),
    );
    const cashLeft = new Map([...companies].map(([id, company]) => [id, company.cashCents]));
    const done: { index: number; row: ContractRow }[] = [];
    const outcomes: (Outcome<ContractView> | null)[] = requests.map((request, index) => {
      const row = rows.get(request.input.id);
      const company = companies.get(request.companyId);
      if (!company) return refuse('NOT_FOUND', 'No company found');
      if (company.worldStatus === 'ended') return refuse('CONFLICT', WORLD_ENDED);
      const party = answer === 'cancelled' ? row && Number(row.seller_company_id) : row && Number(row.buyer_company_id);
      // Only its buyer answers an offer and only its seller cancels it; others do not see it.
      if (!row || (Number(row.seller_company_id) !== request.companyId && Number(row.buyer_company_id) !== request.companyId))
        return refuse('NOT_FOUND', CONTRACT_NOT_FOUND);
      if (party !== request.companyId) {
        return refuse(
          'FORBIDDEN',
          answer === 'cancelled' ? 'Only the seller can cancel an offer: decline it instead' : 'Only the buyer can answer an offer: cancel it instead',
        );
      }
      if (row.status !== 'open') return refuse('CONFLICT', `This offer is ${row.status}: only an open offer can be ${answer}`);
      if (answer === 'accepted') {
        const total = Number(row.quantity) * Number(row.unit_price_cents);
        const cash = cashLeft.get(request.companyId) ?? 0;
        if (cash < total) return refuse('NOT_ENOUGH_CASH', `Not enough cash: this offer costs ${formatCents(total)} and you have ${formatCents(cash)}`);
        cashLeft.set(request.companyId, cash - total);
      }
      row.status = answer;
      done.push({ index, row });
      return null;
    });
    if (done.length > 0) {
      const closed = await tx.execute<{ id: number }>(sql`
        update contracts k set status = ${answer}, closed_week = (select current_week from worlds w where w.id = k.world_id)
        where k.id in ${done.map((item) => Number(item.row.id))} and k.status = 'open'
        returning k.id`);
      // Under the locks nothing else closed them: a mismatch is a bug, and the transaction rolls back.
      if (closed.length !== done.length) throw new Error("a contract changed under its companies' locks");
      const moves: LedgerMove[] = [];
      for (const { row } of done) {
        const quantity = Number(row.quantity);
        const total = quantity * Number(row.unit_price_cents);
        if (answer === 'accepted') {
          moves.push(
            {
              companyId: Number(row.buyer_company_id),
              amountCents: -total,
              type: 'purchase',
              reason: 'contract_buy',
              description: `Bought ${quantity} ${row.product_name} from ${row.seller_name} for ${formatCents(total)} (${formatCents(Number(row.unit_price_cents))} each, contract #${row.id})`,
              productId: Number(row.product_id),
              counterpartyCompanyId: Number(row.seller_company_id),
            },
            {
              companyId: Number(row.seller_company_id),
              amountCents: total,
              type: 'sale',
              reason: 'contract_sell',
              description: `Sold ${quantity} ${row.product_name} to ${row.buyer_name} for ${formatCents(total)} (${formatCents(Number(row.unit_price_cents))} each, contract #${row.id})`,
              productId: Number(row.product_id),
              counterpartyCompanyId: Number(row.buyer_company_id),
            },
          );
        } else {
          moves.push({
            companyId: Number(row.seller_company_id),
            amountCents: 0,
            type: 'other',
            reason: 'exchange_release',
            description: `Released ${quantity} ${row.product_name} held by contract offer #${row.id} to the warehouse (${answer})`,
            productId: Number(row.product_id),
            counterpartyCompanyId: Number(row.buyer_company_id),
          });
        }
      }
      await bookMoves(tx, moves);
      await addGoods(
        tx,
        done.map(({ row }) => ({
          worldId: Number(row.world_id),
          companyId: Number(answer === 'accepted' ? row.buyer_company_id : row.seller_company_id),
          productId: Number(row.product_id),
          quantity: Number(row.quantity),
          unitCostCents: answer === 'accepted' ? Number(row.unit_price_cents) : Number(row.escrow_cost_cents),
        })),
      );
      for (const { index, row } of done) outcomes[index] = { applied: true, result: contractView(row) };
    }
    return outcomes as Outcome<ContractView>[];
  });
}

/** POST /api/contracts/{id}/accept: the buyer pays, the goods move to its warehouse. */
export const acceptContracts = (db: DbExecutor, requests: readonly ActionRequest<ContractIdInput>[]) => answerContracts(db, 'accepted', requests);
/** POST /api/contracts/{id}/decline: the buyer says no; the goods go back to the seller. */
export const declineContracts = (db: DbExecutor, requests: readonly ActionRequest<ContractIdInput>[]) => answerContracts(db, 'declined', requests);
/** POST /api/contracts/{id}/cancel: the seller withdraws its open offer; the goods come back. */
export const cancelContracts = (db: DbExecutor, requests: readonly ActionRequest<ContractIdInput>[]) => answerContracts(db, 'cancelled', requests);

/** GET /api/contracts?direction=incoming|outgoing&status=: the company's offers, newest first (at most 200). */
export async function listContracts(
  db: DbExecutor,
  companyId: number,
  filter: { direction?: 'incoming' | 'outgoing'; status?: ContractStatus } = {},
): Promise<ContractView[]> {
  const side =
    filter.direction === 'incoming'
      ? sql`k.buyer_company_id = ${companyId}`
      : filter.direction === 'outgoing'
        ? sql`k.seller_company_id = ${companyId}`
        : sql`(k.buyer_company_id = ${companyId} or k.seller_company_id = ${companyId})`;
  const rows = await db.execute<ContractRow>(sql`
    select ${CONTRACT_COLUMNS} from ${CONTRACT_FROM}
    where k.world_id = (select world_id from companies where id = ${companyId}) and ${side}
      ${filter.status ? sql`and k.status = ${filter.status}` : sql``}
    order by k.id desc limit 200`);
  return rows.map(contractView);
}
