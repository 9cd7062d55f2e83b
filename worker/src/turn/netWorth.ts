/**
 * What a company owns besides cash, for share prices (phase 6) and the bots' share valuations:
 * goods at the product's current price (warehouse, store shelves, building back rooms) plus
 * buildings at BUILDING_BOOK_VALUE_RATE of their construction cost. Shares held in other companies
 * are left out (prices would depend on each other). docs/economy.md, "Share prices".
 *
 * One aggregate over every company at once: a subquery yielding (company_id, assets_cents) for
 * the companies that own anything; net worth = cash + coalesce(assets_cents, 0).
 */
import { sql } from 'drizzle-orm';
import { BUILDING_BOOK_VALUE_RATE } from '@marketcraft/shared';

export const companyAssetsSql = sql`(
  select company_id, sum(value)::bigint as assets_cents
  from (
    select i.company_id, i.quantity * p.current_price_cents as value
    from inventory_items i join products p on p.id = i.product_id
    union all
    select b.company_id, sp.quantity * p.current_price_cents
    from store_products sp join buildings b on b.id = sp.building_id join products p on p.id = sp.product_id
    union all
    select b.company_id, bi.quantity * p.current_price_cents
    from building_inventory_items bi join buildings b on b.id = bi.building_id join products p on p.id = bi.product_id
    union all
    select company_id, round(sum(construction_cost_cents) * ${BUILDING_BOOK_VALUE_RATE}::numeric)::bigint
    from buildings group by company_id
  ) holdings
  group by company_id
)`;
