/**
 * Phase 6, share prices (docs/economy.md). Net worth = cash + what companyAssetsSql counts (goods at
 * current prices, buildings at 50% of their construction cost; not shares held). Each listed
 * company's share price moves 30% of the way to max(0, net worth / total shares), and a
 * stock_price_history row records it for the processed week (share_records is written in phase 7).
 */
import { sql } from 'drizzle-orm';
import { SHARE_PRICE_SMOOTHING } from '@marketcraft/shared';
import type { TurnContext } from './context.ts';
import { turnBalancesSql } from './ledgerBatch.ts';
import { companyAssetsSql } from './netWorth.ts';

export async function runStocks(ctx: TurnContext): Promise<void> {
  const { tx, week } = ctx;
  await tx.execute(sql`
    create temp table turn_net_worth on commit drop as
    select tc.company_id, tc.cash_cents + coalesce(a.assets_cents, 0) as net_worth_cents
    from ${turnBalancesSql} tc
    left join ${companyAssetsSql} a on a.company_id = tc.company_id`);
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
    select company_id, ${week}::int, price_cents from turn_share_prices`);
}
