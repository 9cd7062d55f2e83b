/**
 * Phase 7, dividends (docs/economy.md). Profit of the turn = store revenue - wages - operating
 * costs - taxes + subsidies. A listed company with a positive profit and at least 20% of it in cash
 * pays floor(20% x profit / total shares) cents per share to every active holder of its shares
 * (portfolio_entries); it is debited only what holders receive (shares nobody holds pay nothing).
 * share_records.last_dividend_cents = the per-share dividend (0 when none); the same statement
 * writes the share price computed in phase 6.
 */
import { sql } from 'drizzle-orm';
import { DIVIDEND_RATE } from '@marketcraft/shared';
import type { TurnContext } from './context.ts';
import { turnBalancesSql } from './ledgerBatch.ts';

export async function runDividends(ctx: TurnContext): Promise<void> {
  const { tx } = ctx;
  await tx.execute(sql`
    create temp table turn_profit on commit drop as
    select company_id,
           sum(revenue_cents - wages_cents - operating_cents - tax_cents + subsidy_cents)::bigint as profit_cents
    from turn_pnl group by company_id`);
  await tx.execute(sql`
    create temp table turn_dividends on commit drop as
    select s.company_id as payer_id, c.name as payer_name,
           floor(tp.profit_cents * ${DIVIDEND_RATE}::numeric / s.total_shares)::bigint as per_share_cents
    from turn_profit tp
    join share_records s on s.company_id = tp.company_id and s.is_listed
    join turn_share_prices sp on sp.company_id = tp.company_id
    join companies c on c.id = tp.company_id
    join ${turnBalancesSql} tc on tc.company_id = tp.company_id
    where tp.profit_cents > 0 and tc.cash_cents >= floor(tp.profit_cents * ${DIVIDEND_RATE}::numeric)`);
  await tx.execute(sql`
    create temp table turn_dividend_payments on commit drop as
    select d.payer_id, d.payer_name, pe.holder_company_id, pe.shares_owned, d.per_share_cents,
           (pe.shares_owned * d.per_share_cents)::bigint as amount_cents
    from turn_dividends d
    join portfolio_entries pe on pe.issuer_company_id = d.payer_id and pe.shares_owned > 0
    join turn_companies h on h.company_id = pe.holder_company_id
    where d.per_share_cents > 0`);
  await tx.execute(sql`
    insert into turn_cash (company_id, type, reason, amount_cents, description)
    select holder_company_id, 'other', 'dividend', amount_cents,
           'Dividend from ' || payer_name || ': ' || shares_owned || ' shares'
    from turn_dividend_payments
    union all
    select payer_id, 'other', 'dividend_paid', -sum(amount_cents)::bigint, 'Dividends paid to ' || count(*) || ' shareholders'
    from turn_dividend_payments group by payer_id`);
  await tx.execute(sql`
    update share_records s
    set share_price_cents = p.price_cents, last_dividend_cents = coalesce(d.per_share_cents, 0), updated_at = now()
    from turn_share_prices p
    left join turn_dividends d on d.payer_id = p.company_id
    where s.company_id = p.company_id`);
}
