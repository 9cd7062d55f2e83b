/**
 * The stock exchange's table (GET /stocks/overview): each listed company's share price, this week's
 * change, a sparkline of the recent weeks and market value, with the player's position in it.
 * Share prices per week come from stock_price_history, as GET /stocks/history.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  SPARKLINE_WEEKS,
  centsToDollars,
  priceChangePercent,
  type StockOverview,
  type StockOverviewPage,
  type StockOverviewSort,
  type StockOverviewView,
} from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { companyWorld } from '../clock/state.ts';
import { companyFilterSql, pageSql } from '../companies/lists.ts';
import { countListedCompanies, getPortfolio } from './stocks.ts';

/**
 * The order of the overview's table: the column, then name, then id (stable across pages). "change"
 * is the last two recorded prices' change (as change_percent reports it); companies with fewer than
 * two recorded prices have none and come last either way.
 */
function overviewOrderKeySql(sort: StockOverviewSort): SQL {
  switch (sort) {
    case 'company_name':
      return sql`c.name`;
    case 'share_price':
      return sql`s.share_price_cents`;
    case 'market_cap':
      return sql`s.share_price_cents::bigint * s.total_shares`;
    case 'change_percent':
      return sql`case when last2.prices[2] > 0 then (last2.prices[1] - last2.prices[2])::numeric / last2.prices[2]
                      when last2.prices[2] is not null then 0 end`;
  }
}

/** GET /stocks/overview: a page of the listed companies with price, change, sparkline, market value and your position's gain; your portfolio's totals. */
export async function listStockOverview(db: DbExecutor, companyId: number, page: StockOverviewPage): Promise<StockOverview> {
  const worldId = await companyWorld(db, companyId);
  const direction = sql.raw(page.order === 'desc' ? 'desc' : 'asc');
  const rows = await db.execute<{
    company_id: number;
    company_name: string;
    is_bot: boolean;
    share_price_cents: number;
    total_shares: number;
    history: Array<{ week: number; price_cents: number }> | null;
  }>(sql`
    select p.company_id, p.company_name, p.is_bot, p.share_price_cents, p.total_shares,
           (select json_agg(json_build_object('week', recent.week, 'price_cents', recent.price_cents) order by recent.week)
              from (select week, price_cents from stock_price_history h where h.world_id = ${worldId} and h.company_id = p.company_id order by week desc limit ${SPARKLINE_WEEKS}) recent) as history
    from (
      select c.id as company_id, c.name as company_name, c.is_bot, s.share_price_cents, s.total_shares, ${overviewOrderKeySql(page.sort)} as sort_key
      from share_records s join companies c on c.world_id = s.world_id and c.id = s.company_id
      left join lateral (
        select array_agg(price_cents order by week desc) as prices
        from (select week, price_cents from stock_price_history h where h.world_id = s.world_id and h.company_id = s.company_id order by week desc limit 2) two
      ) last2 on true
      where s.world_id = ${worldId} and s.is_listed and c.status = 'active' and ${companyFilterSql('c', page)}
      order by sort_key ${direction} nulls last, c.name, c.id
      ${pageSql(page)}
    ) p
    order by p.sort_key ${direction} nulls last, p.company_name, p.company_id`);
  // The position's value is the portfolio's own (GET /api/portfolio): one definition of what shares are worth.
  const portfolio = await getPortfolio(db, companyId);
  const positions = new Map(portfolio.map((entry) => [entry.company_id, entry]));
  const companies = rows.map((row): StockOverviewView => {
    const priceCents = Number(row.share_price_cents);
    const history = (row.history ?? []).map((point) => Number(point.price_cents));
    const previous = history.length >= 2 ? history[history.length - 2]! : null;
    const latest = history.length >= 1 ? history[history.length - 1]! : null;
    const entry = positions.get(Number(row.company_id));
    let position: StockOverviewView['position'] = null;
    if (entry) {
      const costCents = Math.round(entry.average_price * 100) * entry.shares_owned;
      const gainCents = Math.round(entry.value * 100) - costCents;
      position = {
        shares_owned: entry.shares_owned,
        average_price: entry.average_price,
        value: entry.value,
        cost: centsToDollars(costCents),
        gain: centsToDollars(gainCents),
        gain_percent: costCents > 0 ? Math.round((gainCents / costCents) * 10_000) / 100 : null,
      };
    }
    return {
      company_id: Number(row.company_id),
      company_name: row.company_name,
      is_bot: row.is_bot,
      is_you: Number(row.company_id) === companyId,
      share_price: centsToDollars(priceCents),
      total_shares: Number(row.total_shares),
      market_cap: centsToDollars(priceCents * Number(row.total_shares)),
      change_percent: previous !== null && latest !== null ? priceChangePercent(latest, previous) : null,
      // Each turn records the price it set, so the last recorded price is the current one (until trades move it).
      sparkline: history.length > 0 ? history.map((cents) => centsToDollars(cents)) : [centsToDollars(priceCents)],
      position,
    };
  });
  // Totals over every position, listed or not (a delisted company's shares are still held).
  const valueCents = portfolio.reduce((sum, entry) => sum + Math.round(entry.value * 100), 0);
  const costCents = portfolio.reduce((sum, entry) => sum + Math.round(entry.average_price * 100) * entry.shares_owned, 0);
  return {
    companies,
    total: await countListedCompanies(db, worldId, page),
    limit: page.limit,
    offset: page.offset,
    portfolio: {
      shares: portfolio.reduce((sum, entry) => sum + entry.shares_owned, 0),
      value: centsToDollars(valueCents),
      cost: centsToDollars(costCents),
      gain: centsToDollars(valueCents - costCents),
    },
  };
}
