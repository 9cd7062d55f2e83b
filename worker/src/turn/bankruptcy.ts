/**
 * Phase 9, bankruptcy (docs/economy.md). A company ending the turn with negative cash counts one
 * more negative turn (reset to 0 otherwise); at BANKRUPTCY_TURNS (4) it goes bankrupt: its goods
 * (warehouse, shelves, back rooms) and the shares it holds are liquidated at 50% of their market
 * value (one 'other'/'liquidation' credit), its buildings and holdings are deleted, its shares are
 * delisted (share_records.is_listed = false; holders' entries removed, worth nothing), and its
 * status becomes 'bankrupt'. Its player may then found a new company.
 */
import { sql } from 'drizzle-orm';
import { BANKRUPTCY_TURNS, LIQUIDATION_VALUE_RATE } from '@marketcraft/shared';
import type { TurnContext } from './context.ts';
import { turnBalancesSql } from './ledgerBatch.ts';

export async function runBankruptcy(ctx: TurnContext): Promise<number[]> {
  const { tx } = ctx;
  await tx.execute(sql`
    update companies c set negative_cash_turns = case when tc.cash_cents < 0 then c.negative_cash_turns + 1 else 0 end
    from ${turnBalancesSql} tc
    where tc.company_id = c.id and (tc.cash_cents < 0 or c.negative_cash_turns <> 0)`);
  const bankrupt = await tx.execute<{ id: number }>(sql`
    select c.id from companies c join turn_companies tc on tc.company_id = c.id
    where c.negative_cash_turns >= ${BANKRUPTCY_TURNS}::int order by c.id`);
  const ids = bankrupt.map((row) => Number(row.id));
  if (ids.length === 0) return ids;
  const idList = sql`(select id from companies c join turn_companies tc on tc.company_id = c.id where c.negative_cash_turns >= ${BANKRUPTCY_TURNS}::int)`;

  await tx.execute(sql`
    insert into turn_cash (company_id, type, reason, amount_cents, description)
    select company_id, 'other', 'liquidation', round(sum(value) * ${LIQUIDATION_VALUE_RATE}::numeric)::bigint,
           'Bankruptcy: assets liquidated at ' || ${Math.round(LIQUIDATION_VALUE_RATE * 100)}::int || '% of market value'
    from (
      select i.company_id, i.quantity * p.current_price_cents as value
      from inventory_items i join products p on p.id = i.product_id where i.company_id in ${idList}
      union all
      select b.company_id, sp.quantity * p.current_price_cents
      from store_products sp join buildings b on b.id = sp.building_id join products p on p.id = sp.product_id where b.company_id in ${idList}
      union all
      select b.company_id, bi.quantity * p.current_price_cents
      from building_inventory_items bi join buildings b on b.id = bi.building_id join products p on p.id = bi.product_id where b.company_id in ${idList}
      union all
      select pe.holder_company_id, pe.shares_owned * s.share_price_cents
      from portfolio_entries pe join share_records s on s.company_id = pe.issuer_company_id and s.is_listed
      where pe.holder_company_id in ${idList}
    ) assets
    group by company_id
    having round(sum(value) * ${LIQUIDATION_VALUE_RATE}::numeric) > 0`);

  await tx.execute(sql`delete from buildings where company_id in ${idList}`);
  await tx.execute(sql`delete from inventory_items where company_id in ${idList}`);
  await tx.execute(sql`delete from portfolio_entries where holder_company_id in ${idList} or issuer_company_id in ${idList}`);
  await tx.execute(sql`update share_records set is_listed = false, updated_at = now() where company_id in ${idList}`);
  await tx.execute(sql`update companies set status = 'bankrupt', bankrupt_at = now() where id in ${idList}`);
  return ids;
}
