/**
 * Phase 8, share prices (docs/economy.md, "Net worth" and "Shares"). Every company is valued with
 * valuationSql (db/src/game/companies/valuation.ts), the same definition the leaderboard, the dashboard and
 * the profile use, at the new market prices and the cash after the turn; shares it holds count at
 * last week's share prices (so no price depends on itself). Each listed company's share record then
 * gets:
 * - fundamental = shareFundamentalRule (equity per share, cut 20% per turn in a row in debt);
 * - sentiment = nextSentimentRule (this week's net buying from the issuer, decaying by half);
 * - price = sharePriceRule (fundamental x e^sentiment); this week's flow back to 0;
 * - last dividend = the dividend per share the dividends phase declared (0 when none);
 * and a stock_price_history row records the price for the processed week. Finally every company is
 * valued again at the new share prices (`turn_valuation`): the net worth the books record.
 */
import { sql } from 'drizzle-orm';
import { nextSentimentRule, shareDepthRule, shareFundamentalRule, sharePriceRule } from '@marketcraft/shared';
import { assetsSql, ruleSql, valuationSql } from '@marketcraft/db';
import type { TurnContext } from './context.ts';
import { companyKey, fillTurnTable } from './turnTables.ts';
import { turnBalancesSql } from './ledgerBatch.ts';

export async function runStocks(ctx: TurnContext): Promise<void> {
  const { tx, week, worldId } = ctx;
  // Goods and buildings are valued once (the costly part); holdings and claims before and after prices move.
  await fillTurnTable(tx, 'turn_assets', sql`select * from ${assetsSql({ worldId })} a`, { key: companyKey(ctx.largeWorld) });
  await fillTurnTable(tx, 'turn_equity', sql`select * from ${valuationSql(turnBalancesSql, { worldId, assets: sql`turn_assets` })} v`, {
    key: companyKey(ctx.largeWorld),
  });
  await fillTurnTable(
    tx,
    'turn_share_prices',
    sql`with next as (
      select s.company_id,
             ${ruleSql(shareFundamentalRule, {
               equityCents: sql`v.equity_cents`,
               totalShares: sql`s.total_shares`,
               negativeTurns: sql`least(c.negative_cash_turns, 5)`,
             })} as fundamental_cents,
             ${ruleSql(nextSentimentRule, {
               sentiment: sql`s.sentiment`,
               flow: sql`s.week_flow`,
               depth: ruleSql(shareDepthRule, { totalShares: sql`s.total_shares` }),
             })} as sentiment
      from share_records s
      join turn_equity v on v.company_id = s.company_id
      join companies c on c.world_id = s.world_id and c.id = s.company_id
      where s.world_id = ${worldId}::int and s.is_listed and c.status = 'active'
    )
    select company_id, fundamental_cents, sentiment,
           ${ruleSql(sharePriceRule, { fundamentalCents: sql`fundamental_cents`, sentiment: sql`sentiment` })} as price_cents
    from next`,
  );
  // ONE update of each share record a turn: the new price and the week's dividend per share
  // (dividends.ts left it in turn_dividends). A second update of a row in the same transaction
  // finds no room on its page for a HOT update and doubled the table within the turn. The
  // companies that went bankrupt this turn (delisted, so not priced) still get their dividend
  // figure, as they had when the dividends phase wrote it; an unchanged one is not rewritten.
  await tx.execute(sql`
    update share_records s
    set last_dividend_cents = coalesce(d.per_share_cents, 0),
        fundamental_cents = coalesce(p.fundamental_cents, s.fundamental_cents), sentiment = coalesce(p.sentiment, s.sentiment),
        share_price_cents = coalesce(p.price_cents, s.share_price_cents),
        week_flow = case when p.company_id is null then s.week_flow else 0 end,
        updated_at = case when p.company_id is null then s.updated_at else now() end
    from turn_companies tc
    left join turn_share_prices p on p.company_id = tc.company_id
    left join turn_dividends d on d.payer_id = tc.company_id
    where s.world_id = ${worldId}::int and s.company_id = tc.company_id
      and (p.company_id is not null or s.last_dividend_cents <> coalesce(d.per_share_cents, 0))`);
  await tx.execute(sql`
    insert into stock_price_history (world_id, company_id, week, price_cents)
    select ${worldId}::int, company_id, ${week}::int, price_cents from turn_share_prices`);
  // The cash is what it was for turn_equity (nothing between moves it): read from there, not summed from the turn's rows again.
  await fillTurnTable(
    tx,
    'turn_valuation',
    sql`select * from ${valuationSql(sql`(select company_id, cash_cents from turn_equity)`, { worldId, assets: sql`turn_assets` })} v`,
    { key: companyKey(ctx.largeWorld) },
  );
}
