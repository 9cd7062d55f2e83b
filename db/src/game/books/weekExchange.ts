/**
 * What the exchange did for a company in one week, for its "Week N results" (GET /api/reports/{week}):
 * its orders' fills in that week's call auction (exchange_fills, written by the turn that ended the
 * week) and the contracts accepted during the week, bought or sold. Both are read from the records
 * themselves, which never change once written: the turn's report needs no copy of them. Plain reads of
 * the exchange's tables: the books build on no code of the exchange (no circle between domains).
 */
import { sql } from 'drizzle-orm';
import { centsToDollars, type WeekReportView } from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';

type WeekExchange = Pick<WeekReportView, 'exchange_fills' | 'contracts_delivered'>;

export async function weekExchangeResults(db: DbExecutor, companyId: number, week: number): Promise<WeekExchange> {
  const world = sql`(select world_id from companies where id = ${companyId})`;
  const [fills, contracts] = await Promise.all([
    db.execute<{ order_id: number; product_id: number; product: string; side: 'buy' | 'sell'; quantity: number; price_cents: number; fee_cents: number }>(sql`
      select f.order_id, f.product_id, p.name as product, f.side, f.quantity, f.price_cents, f.fee_cents
      from exchange_fills f join products p on p.id = f.product_id
      where f.world_id = ${world} and f.company_id = ${companyId} and f.week = ${week}
      order by p.name, f.order_id`),
    db.execute<{
      id: number;
      product_id: number;
      product: string;
      seller_company_id: number;
      buyer_company_id: number;
      counterparty: string;
      quantity: number;
      unit_price_cents: number;
    }>(sql`
      select k.id, k.product_id, p.name as product, k.seller_company_id, k.buyer_company_id, other.name as counterparty, k.quantity, k.unit_price_cents
      from contracts k join products p on p.id = k.product_id
      join companies other on other.world_id = k.world_id
        and other.id = case when k.seller_company_id = ${companyId} then k.buyer_company_id else k.seller_company_id end
      where k.world_id = ${world} and k.status = 'accepted' and k.closed_week = ${week}
        and (k.seller_company_id = ${companyId} or k.buyer_company_id = ${companyId})
      order by k.id`),
  ]);
  return {
    exchange_fills: fills.map((fill) => {
      const value = Number(fill.quantity) * Number(fill.price_cents);
      const fee = Number(fill.fee_cents);
      return {
        order_id: Number(fill.order_id),
        product_id: Number(fill.product_id),
        product: fill.product,
        side: fill.side,
        quantity: Number(fill.quantity),
        price: centsToDollars(Number(fill.price_cents)),
        fee: centsToDollars(fee),
        total: centsToDollars(fill.side === 'buy' ? value + fee : value - fee),
      };
    }),
    contracts_delivered: contracts.map((contract) => {
      const sold = Number(contract.seller_company_id) === companyId;
      return {
        contract_id: Number(contract.id),
        product_id: Number(contract.product_id),
        product: contract.product,
        role: sold ? ('sold' as const) : ('bought' as const),
        counterparty_id: Number(sold ? contract.buyer_company_id : contract.seller_company_id),
        counterparty: contract.counterparty,
        quantity: Number(contract.quantity),
        unit_price: centsToDollars(Number(contract.unit_price_cents)),
        total: centsToDollars(Number(contract.quantity) * Number(contract.unit_price_cents)),
      };
    }),
  };
}
