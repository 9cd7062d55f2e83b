/**
 * Phase 6, share prices (docs/economy.md). Net worth = cash + goods held (warehouse, store shelves
 * and back rooms) at the product's current price + buildings at 50% of their construction cost.
 * (Shares a company holds in others are left out: prices would depend on each other.) Each listed
 * company's share price moves 30% of the way to max(0, net worth / total shares), and a
 * stock_price_history row records it for the processed week (share_records is written in phase 7).
 */
import { sql } from 'drizzle-orm';
import { BUILDING_BOOK_VALUE_RATE, SHARE_PRICE_SMOOTHING } from '@marketcraft/shared';
import type { TurnContext } from './context.ts';

export async function runStocks(ctx: TurnContext): Promise<void> {
  const { tx, week } = ctx;
  await tx.execute(sql`
    create temp table turn_net_worth on commit drop as
    select c.id as company_id,
           tc.cash_cents + coalesce(w.value, 0) + coalesce(sh.value, 0) + coalesce(br.value, 0) + coalesce(bl.value, 0) as net_worth_cents
    from companies c
    join turn_companies tc on tc.company_id = c.id
    left join (select i.company_id, sum(i.quantity * p.current_price_cents)::bigint as value
               from inventory_items i join products p on p.id = i.product_id group by i.company_id) w on w.company_id = c.id
    left join (select b.company_id, sum(sp.quantity * p.current_price_cents)::bigint as value
               from store_products sp join buildings b on b.id = sp.building_id join products p on p.id = sp.product_id
               group by b.company_id) sh on sh.company_id = c.id
    left join (select b.company_id, sum(bi.quantity * p.current_price_cents)::bigint as value
               from building_inventory_items bi join buildings b on b.id = bi.building_id join products p on p.id = bi.product_id
               group by b.company_id) br on br.company_id = c.id
    left join (select company_id, round(sum(construction_cost_cents) * ${BUILDING_BOOK_VALUE_RATE}::numeric)::bigint as value
               from buildings group by company_id) bl on bl.company_id = c.id`);
  // The new prices are written to share_records together with the dividend (dividends.ts): one
  // update per share record and turn.
  await tx.execute(sql`
    create temp table turn_share_prices on commit drop as
    select s.company_id,
           greatest(0, s.share_price_cents
             + round((greatest(0, n.net_worth_cents)::numeric / s.total_shares - s.share_price_cents) * ${SHARE_PRICE_SMOOTHING}::numeric))::bigint as price_cents
    from share_records s join turn_net_worth n on n.company_id = s.company_id
    where s.is_listed`);
  await tx.execute(sql`
    insert into stock_price_history (company_id, week, price_cents)
    select company_id, ${week}::int, price_cents from turn_share_prices
    on conflict (company_id, week) do update set price_cents = excluded.price_cents`);
}
