/**
 * Phase 5, dividends (docs/economy.md, "Dividends"). The week's profit after tax = store revenue +
 * exchange sales - exchange purchases - wages - operating costs - tax + subsidies. A listed company
 * with a positive profit pays dividendPerShareRule (20% of it, per share) to every active company
 * holding its shares; the shares its own player holds (those no company holds) pay nothing, so it is
 * debited only what holders receive, and only when its cash covers that. The per-share dividend (0
 * when none) is left in turn_dividends: the stocks phase writes it to share_records.last_dividend_cents
 * in the same update as the share price (one update of each record a turn).
 */
import { sql } from 'drizzle-orm';
import { dividendPerShareRule } from '@marketcraft/shared';
import { ruleSql } from '@marketcraft/db';
import type { TurnContext } from './context.ts';
import { companyKey, fillTurnTable } from './turnTables.ts';
import { turnBalancesSql } from './ledgerBatch.ts';

export async function runDividends(ctx: TurnContext): Promise<void> {
  const { tx, worldId } = ctx;
  await fillTurnTable(
    tx,
    'turn_profit',
    sql`select company_id,
           sum(store_revenue_cents + market_sales_cents - market_purchases_cents - wages_cents - operating_cents + goods_change_cents - tax_cents + subsidy_cents)::bigint as profit_cents
    from turn_pnl group by company_id`,
    { key: companyKey(ctx.largeWorld) },
  );
  // A payer whose cash does not cover what its holders would receive pays nothing: filtered here,
  // with its cash now (the turn's rows so far), instead of declared and deleted again (one pass over
  // the payers and the turn's ledger rows, not two).
  await fillTurnTable(
    tx,
    'turn_dividends',
    sql`with declared as (
      select s.company_id as payer_id, c.name as payer_name,
             ${ruleSql(dividendPerShareRule, { profitCents: sql`tp.profit_cents`, totalShares: sql`s.total_shares` })} as per_share_cents
      from turn_profit tp
      join share_records s on s.world_id = ${worldId}::int and s.company_id = tp.company_id and s.is_listed
      join companies c on c.world_id = ${worldId}::int and c.id = tp.company_id
      where tp.profit_cents > 0
    ), payouts as (
      select d.*, coalesce(sum(pe.shares_owned), 0)::bigint * d.per_share_cents as payout_cents
      from declared d
      left join portfolio_entries pe on pe.world_id = ${worldId}::int and pe.issuer_company_id = d.payer_id and pe.shares_owned > 0
        and exists (select 1 from turn_companies h where h.company_id = pe.holder_company_id)
      where d.per_share_cents > 0
      group by d.payer_id, d.payer_name, d.per_share_cents
    )
    select p.* from payouts p join ${turnBalancesSql} b on b.company_id = p.payer_id
    where b.cash_cents >= p.payout_cents`,
  );
  await fillTurnTable(
    tx,
    'turn_dividend_payments',
    sql`select d.payer_id, d.payer_name, pe.holder_company_id, pe.shares_owned, d.per_share_cents,
           (pe.shares_owned * d.per_share_cents)::bigint as amount_cents
    from turn_dividends d
    join portfolio_entries pe on pe.world_id = ${worldId}::int and pe.issuer_company_id = d.payer_id and pe.shares_owned > 0
    join turn_companies h on h.company_id = pe.holder_company_id`,
  );
  await tx.execute(sql`
    insert into turn_cash (company_id, type, reason, amount_cents, description)
    select holder_company_id, 'other', 'dividend', amount_cents,
           'Dividend from ' || payer_name || ': ' || shares_owned || ' shares'
    from turn_dividend_payments
    union all
    select payer_id, 'other', 'dividend_paid', -sum(amount_cents)::bigint, 'Dividends paid to ' || count(*) || ' shareholders'
    from turn_dividend_payments group by payer_id`);
}
