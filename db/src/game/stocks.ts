/**
 * The stock exchange (docs/economy.md, "Shares"). Every listed company's shares trade with the
 * company itself: buying issues new shares (the buyer's cash goes to the issuer, raising its
 * capital) and selling is a buyback paid from the issuer's cash. The price walks a curve like the
 * goods market (marketBuyCostRule / marketSellProceedsRule on the share's posted price, its depth
 * shareDepthRule and this week's net flow), so a large order costs more per share, buying is dearer
 * than selling (the spread), and a round trip or a pump-and-dump loses money; the turn moves the
 * posted price to the company's book value per share times the decaying buying pressure.
 *
 * Concurrency: a trade locks both companies' rows in id order (the turn locks companies in id order
 * too), then reads, checks and moves the issuer's share record in one statement that also computes
 * the money; the cash of both moves through changeCashOfTwo (conditional updates, one statement).
 */
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import {
  GameError,
  MAX_ORDER_VALUE_CENTS,
  STOCK_HISTORY_ENTRIES,
  centsToDollars,
  formatCents,
  liquidationValueRule,
  marketBuyCostRule,
  marketMidPriceRule,
  marketOrderFitsRule,
  marketSellProceedsRule,
  orderWithinMarket,
  priceChangePercent,
  shareDepthRule,
  type CompanyListPage,
  type Figure,
  type StockTradeAction,
} from '@marketcraft/shared';
import { companies, portfolioEntries, shareRecords, stockPriceHistory } from '../schema/index.ts';
import type { DbExecutor } from '../client.ts';
import { ruleSql } from '../ruleSql.ts';
import { sqlTemplate } from '../sqlTemplate.ts';
import { changeCashOfTwo } from './ledger.ts';
import { companyFilterSql, pageSql, type ListPage } from './companyLists.ts';

export interface ShareRecordView {
  company_id: number;
  company_name: string;
  is_bot: boolean;
  total_shares: number;
  share_price: number;
  last_dividend: number;
  updated_at: string;
  /** Book value per share at the last turn (the price's anchor). */
  book_value_per_share: number;
  /** Shares held by other companies (the rest belong to the company's own player). */
  shares_held_by_companies: number;
  /** What one share costs to buy and pays to sell right now (spread and this week's flow included). */
  buy_price: number;
  sell_price: number;
}

/** GET /api/shares and /api/company-shares: a page of the share records of the listed, active companies, by name (then id). */
export async function listShareRecords(db: DbExecutor, worldId: number, page: CompanyListPage): Promise<ListPage<ShareRecordView>> {
  const depth = ruleSql(shareDepthRule, { totalShares: sql`s.total_shares` });
  const rows = await db.execute<{
    company_id: number;
    company_name: string;
    is_bot: boolean;
    total_shares: number;
    share_price_cents: number;
    last_dividend_cents: number;
    updated_at: Date | string;
    fundamental_cents: number;
    held: number;
    buy_cents: number | null;
    sell_cents: number | null;
  }>(sql`
    select s.company_id, c.name as company_name, c.is_bot, s.total_shares, s.share_price_cents, s.last_dividend_cents, s.updated_at,
           s.fundamental_cents,
           coalesce((select sum(pe.shares_owned) from portfolio_entries pe where pe.world_id = s.world_id and pe.issuer_company_id = s.company_id), 0)::bigint as held,
           case when s.share_price_cents > 0 and abs(s.week_flow) + 1 <= 10 * ${depth} then
             ${ruleSql(marketBuyCostRule, { price: sql`s.share_price_cents`, depth, flow: sql`s.week_flow`, quantity: sql`1` })} end as buy_cents,
           case when s.share_price_cents > 0 and abs(s.week_flow) + 1 <= 10 * ${depth} then
             ${ruleSql(marketSellProceedsRule, { price: sql`s.share_price_cents`, depth, flow: sql`s.week_flow`, quantity: sql`1` })} end as sell_cents
    from share_records s join companies c on c.world_id = s.world_id and c.id = s.company_id
    where s.world_id = ${worldId} and s.is_listed and c.status = 'active' and ${companyFilterSql('c', page)}
    order by c.name, c.id
    ${pageSql(page)}`);
  const rowsOfPage = rows.map((row) => ({
    company_id: Number(row.company_id),
    company_name: row.company_name,
    is_bot: row.is_bot,
    total_shares: Number(row.total_shares),
    share_price: centsToDollars(Number(row.share_price_cents)),
    last_dividend: centsToDollars(Number(row.last_dividend_cents)),
    updated_at: new Date(row.updated_at).toISOString(),
    book_value_per_share: centsToDollars(Number(row.fundamental_cents)),
    shares_held_by_companies: Number(row.held),
    buy_price: centsToDollars(Number(row.buy_cents ?? 0)),
    sell_price: centsToDollars(Number(row.sell_cents ?? 0)),
  }));
  return { rows: rowsOfPage, total: await countListedCompanies(db, worldId, page) };
}

/** How many listed, active companies the page's filters keep (the size of every share list). */
export async function countListedCompanies(db: DbExecutor, worldId: number, page: CompanyListPage): Promise<number> {
  const [row] = await db.execute<{ total: number }>(sql`
    select count(*)::int as total
    from share_records s join companies c on c.world_id = s.world_id and c.id = s.company_id
    where s.world_id = ${worldId} and s.is_listed and c.status = 'active' and ${companyFilterSql('c', page)}`);
  return Number(row?.total ?? 0);
}

export interface PortfolioEntryView {
  company_id: number;
  company_name: string;
  is_bot: boolean;
  shares_owned: number;
  average_price: number;
  current_price: number;
  /** What selling the whole position back now would pay (the curve walked down, less the spread): its value in net worth. */
  value: number;
}

/** GET /api/portfolio: the shares the company holds, each position at what selling it back would pay. */
export async function getPortfolio(db: DbExecutor, holderCompanyId: number): Promise<PortfolioEntryView[]> {
  const rows = await db
    .select({
      companyId: portfolioEntries.issuerCompanyId,
      companyName: companies.name,
      isBot: companies.isBot,
      sharesOwned: portfolioEntries.sharesOwned,
      averagePriceCents: portfolioEntries.averagePriceCents,
      sharePriceCents: shareRecords.sharePriceCents,
      totalShares: shareRecords.totalShares,
    })
    .from(portfolioEntries)
    .innerJoin(companies, and(eq(companies.worldId, portfolioEntries.worldId), eq(companies.id, portfolioEntries.issuerCompanyId)))
    .leftJoin(shareRecords, and(eq(shareRecords.worldId, portfolioEntries.worldId), eq(shareRecords.companyId, portfolioEntries.issuerCompanyId)))
    .where(and(eq(portfolioEntries.holderCompanyId, holderCompanyId), sql`${portfolioEntries.sharesOwned} > 0`))
    .orderBy(asc(companies.name));
  return rows.map((row) => {
    const priceCents = row.sharePriceCents ?? 0;
    const depth = shareDepthRule.evaluate({ totalShares: Math.max(1, row.totalShares ?? 1) });
    const valueCents = priceCents > 0 ? liquidationValueRule.evaluate({ price: priceCents, depth, quantity: Math.min(row.sharesOwned, 10 * depth) }) : 0;
    return {
      company_id: row.companyId,
      company_name: row.companyName,
      is_bot: row.isBot,
      shares_owned: row.sharesOwned,
      average_price: centsToDollars(row.averagePriceCents),
      current_price: centsToDollars(priceCents),
      value: centsToDollars(valueCents),
    };
  });
}

export interface StockPriceView {
  company_id: number;
  company_name: string;
  is_bot: boolean;
  week: number | null;
  price: number;
  previous_price: number | null;
  change_percent: number;
}

/**
 * GET /api/stock-prices: a page of the listed companies, each with its latest recorded price and the
 * one before it (from stock_price_history, two rows per company at most; the current share price when
 * nothing is recorded yet), biggest movers first: by the absolute change between the two, then name,
 * then id. A company without a previous price has not moved (0 %) and comes after those that have
 * one (the dashboard's movers panel reads the first page and shows only companies with a previous price).
 */
export async function listStockPrices(db: DbExecutor, worldId: number, page: CompanyListPage): Promise<ListPage<StockPriceView>> {
  const rows = await db.execute<{
    company_id: number;
    company_name: string;
    is_bot: boolean;
    week: number | null;
    price_cents: number;
    previous_cents: number | null;
  }>(sql`
    select c.id as company_id, c.name as company_name, c.is_bot,
           latest.week, coalesce(latest.price_cents, s.share_price_cents) as price_cents,
           previous.price_cents as previous_cents
    from share_records s
    join companies c on c.world_id = s.world_id and c.id = s.company_id
    left join lateral (
      select week, price_cents from stock_price_history h
      where h.world_id = s.world_id and h.company_id = s.company_id order by week desc limit 1
    ) latest on true
    left join lateral (
      select price_cents from stock_price_history h
      where h.world_id = s.world_id and h.company_id = s.company_id order by week desc offset 1 limit 1
    ) previous on true
    where s.world_id = ${worldId} and s.is_listed and c.status = 'active' and ${companyFilterSql('c', page)}
    order by case when previous.price_cents > 0
                  then abs(coalesce(latest.price_cents, s.share_price_cents) - previous.price_cents)::numeric / previous.price_cents
                  else 0 end desc,
             previous.price_cents is null, c.name, c.id
    ${pageSql(page)}`);
  const rowsOfPage = rows.map((row) => {
    const price = Number(row.price_cents);
    const previous = row.previous_cents === null ? null : Number(row.previous_cents);
    return {
      company_id: Number(row.company_id),
      company_name: row.company_name,
      is_bot: row.is_bot,
      week: row.week === null ? null : Number(row.week),
      price: centsToDollars(price),
      previous_price: previous === null ? null : centsToDollars(previous),
      change_percent: priceChangePercent(price, previous),
    };
  });
  return { rows: rowsOfPage, total: await countListedCompanies(db, worldId, page) };
}

/** GET /api/stocks/history?company_id=N: the last 52 recorded weekly prices, oldest first. */
export async function getStockHistory(db: DbExecutor, worldId: number, companyId: number): Promise<{ week: number; price: number }[]> {
  // A company of another world answers like an unknown one.
  const [company] = await db.select({ id: companies.id }).from(companies).where(and(eq(companies.worldId, worldId), eq(companies.id, companyId)));
  if (!company) throw new GameError('NOT_FOUND', `No company found with id ${companyId}`);
  const rows = await db
    .select({ week: stockPriceHistory.week, priceCents: stockPriceHistory.priceCents })
    .from(stockPriceHistory)
    .where(and(eq(stockPriceHistory.worldId, worldId), eq(stockPriceHistory.companyId, companyId)))
    .orderBy(desc(stockPriceHistory.week))
    .limit(STOCK_HISTORY_ENTRIES);
  return rows.reverse().map((row) => ({ week: row.week, price: centsToDollars(row.priceCents) }));
}

export interface StockTradeResult {
  action: StockTradeAction;
  company_id: number;
  company_name: string;
  shares: number;
  /** Average dollars per share of the trade. */
  price: number;
  total: number;
  shares_owned: number;
  cash: number;
}

function sharesWord(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'share' : 'shares'}`;
}

type IssuerState = {
  name: string;
  status: string;
  total_shares: number;
  share_price_cents: number;
  week_flow: number;
  is_listed: boolean;
};

function checkTradable(issuer: IssuerState | undefined, issuerCompanyId: number): IssuerState {
  if (!issuer) throw new GameError('NOT_FOUND', `No company found with id ${issuerCompanyId}`);
  if (!issuer.is_listed || issuer.status !== 'active') throw new GameError('RULE_BROKEN', `${issuer.name} is no longer listed on the stock exchange`);
  if (Number(issuer.share_price_cents) <= 0) throw new GameError('RULE_BROKEN', `${issuer.name} is insolvent: its shares cannot be traded until its book value is positive again`);
  return issuer;
}

export interface ShareQuote {
  company_id: number;
  company_name: string;
  action: StockTradeAction;
  shares: number;
  total: number;
  price: number;
  posted_price: number;
  price_after: number;
  why: Figure;
}

/** A company never trades its own shares (its cash would pay itself). */
export const OWN_SHARES_MESSAGE = "You cannot trade your own company's shares";

/** GET /api/stocks/quote: what a share order would cost or pay now (nothing is placed). */
export async function quoteShares(
  db: DbExecutor,
  input: { worldId: number; holderCompanyId: number; issuerCompanyId: number; shares: number; action: StockTradeAction },
): Promise<ShareQuote> {
  // A quote promises what the trade would do: never a price for an order the trade refuses.
  if (input.holderCompanyId === input.issuerCompanyId) throw new GameError('RULE_BROKEN', OWN_SHARES_MESSAGE);
  const [row] = await db.execute<IssuerState>(sql`
    select c.name, c.status, s.total_shares, s.share_price_cents, s.week_flow, s.is_listed
    from share_records s join companies c on c.world_id = s.world_id and c.id = s.company_id
    where s.world_id = ${input.worldId} and s.company_id = ${input.issuerCompanyId}`);
  const issuer = checkTradable(row, input.issuerCompanyId);
  const values = {
    price: Number(issuer.share_price_cents),
    depth: shareDepthRule.evaluate({ totalShares: Number(issuer.total_shares) }),
    flow: Number(issuer.week_flow),
    quantity: input.shares,
  };
  if (!orderWithinMarket(values)) throw new GameError('RULE_BROKEN', `That order is too large for ${issuer.name}'s shares`);
  const rule = input.action === 'buy' ? marketBuyCostRule : marketSellProceedsRule;
  const totalCents = rule.evaluate(values);
  const flowAfter = values.flow + (input.action === 'buy' ? input.shares : -input.shares);
  return {
    company_id: input.issuerCompanyId,
    company_name: issuer.name,
    action: input.action,
    shares: input.shares,
    total: centsToDollars(totalCents),
    price: centsToDollars(Math.round(totalCents / input.shares)),
    posted_price: centsToDollars(values.price),
    price_after: centsToDollars(marketMidPriceRule.evaluate({ price: values.price, depth: values.depth, flow: flowAfter })),
    why: rule.explain(values),
  };
}

/**
 * tradeShares' statement that reads, checks and moves the issuer's share record, rendered once per
 * action (sqlTemplate: rendering its rules' SQL on every trade cost more CPU than running it). The
 * checks gate the update and come back as columns (fits, and for a sale the shares owned) for the
 * error to answer; the money is computed on the record as it was before this trade.
 */
function moveShareRecordTemplate(action: StockTradeAction) {
  const rule = action === 'buy' ? marketBuyCostRule : marketSellProceedsRule;
  return sqlTemplate<'holderCompanyId' | 'issuerCompanyId' | 'shares'>((slot) => {
    const shares = sql`${slot('shares')}::bigint`;
    // The holder's world (the statement is sent before the holder's lock answers: tradeShares).
    const worldId = sql`(select h.world_id from companies h where h.id = ${slot('holderCompanyId')}::int)`;
    const signed = action === 'buy' ? shares : sql`(-${shares})`;
    const curve = (alias: SQL) => ({
      price: sql`${alias}.share_price_cents`,
      depth: ruleSql(shareDepthRule, { totalShares: sql`${alias}.total_shares` }),
      flow: sql`${alias}.week_flow`,
      quantity: shares,
    });
    return sql`
      with issuer as (
        select c.name, c.status, s.total_shares, s.share_price_cents, s.week_flow, s.is_listed,
               ${ruleSql(marketOrderFitsRule, curve(sql`s`))} as fits,
               ${
                 action === 'sell'
                   ? sql`coalesce((select pe.shares_owned from portfolio_entries pe
                         where pe.world_id = s.world_id and pe.holder_company_id = ${slot('holderCompanyId')}::int and pe.issuer_company_id = s.company_id), 0)::bigint`
                   : sql`0::bigint`
               } as owned
        from share_records s join companies c on c.world_id = s.world_id and c.id = s.company_id
        where s.world_id = ${worldId} and s.company_id = ${slot('issuerCompanyId')}::int
      ), priced as (
        select i.*,
               case when i.is_listed and i.status = 'active' and i.share_price_cents > 0 and i.fits = 1
                         and ${action === 'sell' ? sql`i.owned >= ${shares}` : sql`true`}
                    then ${ruleSql(rule, curve(sql`i`))} end as total_cents
        from issuer i
      ), moved as (
        update share_records s
        set total_shares = s.total_shares + ${signed}, week_flow = s.week_flow + ${signed}, updated_at = now()
        from priced where s.world_id = ${worldId} and s.company_id = ${slot('issuerCompanyId')}::int and priced.total_cents is not null
        returning 1
      )
      select priced.*, (select count(*) from moved)::int as moved from priced`;
  });
}
const moveShareRecordSql = { buy: moveShareRecordTemplate('buy'), sell: moveShareRecordTemplate('sell') };

/**
 * Buys shares of `issuerCompanyId` from the company (new shares) or sells them back to it, for
 * `holderCompanyId`, in one transaction (see the file comment for the rules and the locking).
 */
export async function tradeShares(
  db: DbExecutor,
  input: { holderCompanyId: number; issuerCompanyId: number; shares: number; action: StockTradeAction },
): Promise<StockTradeResult> {
  const { holderCompanyId, issuerCompanyId, shares, action } = input;
  if (!Number.isSafeInteger(shares) || shares <= 0) throw new GameError('INVALID_INPUT', 'Share count must be a positive whole number');
  if (holderCompanyId === issuerCompanyId) throw new GameError('RULE_BROKEN', OWN_SHARES_MESSAGE);
  return db.transaction(async (tx) => {
    // Both companies, in id order (as the turn locks them), then the share record. Only companies of
    // the holder's world trade with it: another world's company is unknown here (the share record is
    // read in the holder's world). The share record is read, checked and moved in ONE statement: the
    // checks gate its update (a refused trade writes nothing) and tell which error to answer; the
    // money is computed by PostgreSQL on the record as it was before this trade (the issuer's row
    // lock, taken by the statement before it, keeps every other trade of its shares waiting). A sale
    // also needs the shares held.
    //
    // The two statements go out together (pipelined by postgres.js: one round trip). They are sent
    // in the array's order (both are plain tx.execute calls, started by Promise.all in turn) and
    // PostgreSQL runs them in the order sent, so the locks are taken before the record moves;
    // whatever the checks below refuse rolls the transaction back, the move included.
    const [locked, [row]] = await Promise.all([
      tx.execute<{ id: number; world_id: number }>(sql`
        select id, world_id from companies where id in (${holderCompanyId}, ${issuerCompanyId}) order by id for update`),
      tx.execute<IssuerState & { fits: number; owned: number; total_cents: number | null; moved: number }>(
        moveShareRecordSql[action]({ holderCompanyId, issuerCompanyId, shares }),
      ),
    ]);
    const holder = locked.find((company) => Number(company.id) === holderCompanyId);
    if (!holder) throw new GameError('NOT_FOUND', 'No company found');
    const worldId = Number(holder.world_id);
    const issuer = checkTradable(row, issuerCompanyId);
    if (Number(row?.fits) !== 1) {
      throw new GameError('RULE_BROKEN', `That order is too large for ${issuer.name}'s shares: split it over several weeks`);
    }
    const owned = Number(row?.owned ?? 0);
    if (action === 'sell' && shares > owned) throw new GameError('NOT_ENOUGH_SHARES', `You own only ${sharesWord(owned)} of ${issuer.name}`);
    if (row?.total_cents === null || row?.total_cents === undefined || Number(row.moved) !== 1) throw new Error('tradeShares: the share record did not move');
    const totalCents = Number(row.total_cents);
    if (!Number.isSafeInteger(totalCents) || totalCents > MAX_ORDER_VALUE_CENTS) throw new GameError('INVALID_INPUT', 'That trade is too large');
    const averageCents = Math.round(totalCents / shares);

    // The cash of both companies moves in one statement, with both ledger rows; the position moves in
    // another, sent with it (both rows are guarded by the holder's lock; a refused cash change
    // throws, and the transaction rolls the position back with it).
    let cashCents: number;
    let sharesOwned: number;
    if (action === 'buy') {
      // The position grows in one statement: the average price paid per share is weighted by the
      // shares held before (rounded half up, as weightedAverageCents), on the row as it is now.
      const [[cashAfter], [position]] = await Promise.all([
        changeCashOfTwo(
          tx,
          {
            companyId: holderCompanyId,
            amountCents: -totalCents,
            type: 'stock_trade',
            reason: 'stock_buy',
            description: `Bought ${sharesWord(shares)} of ${issuer.name} for ${formatCents(totalCents)} (${formatCents(averageCents)} each)`,
            ref: { counterpartyCompanyId: issuerCompanyId },
          },
          {
            companyId: issuerCompanyId,
            amountCents: totalCents,
            type: 'stock_trade',
            reason: 'share_issue',
            description: `Issued ${sharesWord(shares)} to a shareholder for ${formatCents(totalCents)}`,
            ref: { counterpartyCompanyId: holderCompanyId },
          },
        ),
        tx.execute<{ shares_owned: number }>(sql`
          insert into portfolio_entries as pe (world_id, holder_company_id, issuer_company_id, shares_owned, average_price_cents)
          values (${worldId}, ${holderCompanyId}, ${issuerCompanyId}, ${shares}, ${averageCents})
          on conflict (world_id, holder_company_id, issuer_company_id) do update set
            average_price_cents = round((pe.shares_owned::numeric * pe.average_price_cents + ${totalCents}::bigint) / (pe.shares_owned + ${shares}::bigint)),
            shares_owned = pe.shares_owned + excluded.shares_owned
          returning shares_owned`),
      ]);
      cashCents = cashAfter;
      sharesOwned = Number(position?.shares_owned);
    } else {
      // The position shrinks, or goes when it is sold out: one statement, conditional on the
      // shares still being held (the holder's row lock keeps them so; the condition is the guard).
      const where = sql`world_id = ${worldId} and holder_company_id = ${holderCompanyId} and issuer_company_id = ${issuerCompanyId}`;
      const [cashAfter, [position]] = await Promise.all([
        changeCashOfTwo(
          tx,
          {
            companyId: issuerCompanyId,
            amountCents: -totalCents,
            type: 'stock_trade',
            reason: 'share_buyback',
            description: `Bought back ${sharesWord(shares)} from a shareholder for ${formatCents(totalCents)}`,
            ref: { counterpartyCompanyId: holderCompanyId },
          },
          {
            companyId: holderCompanyId,
            amountCents: totalCents,
            type: 'stock_trade',
            reason: 'stock_sell',
            description: `Sold ${sharesWord(shares)} of ${issuer.name} for ${formatCents(totalCents)} (${formatCents(averageCents)} each)`,
            ref: { counterpartyCompanyId: issuerCompanyId },
          },
        ).catch((error: unknown) => {
          if (error instanceof GameError && error.code === 'NOT_ENOUGH_CASH') {
            throw new GameError('RULE_BROKEN', `${issuer.name} cannot buy back ${sharesWord(shares)} now: it does not have ${formatCents(totalCents)} in cash`);
          }
          throw error;
        }),
        tx.execute<{ shares_owned: number }>(sql`
          with gone as (
            delete from portfolio_entries where ${where} and shares_owned = ${shares}::bigint returning 0::bigint as shares_owned
          ), kept as (
            update portfolio_entries set shares_owned = shares_owned - ${shares}::bigint where ${where} and shares_owned > ${shares}::bigint
            returning shares_owned
          )
          select shares_owned from gone union all select shares_owned from kept`),
      ]);
      if (!position) throw new GameError('NOT_ENOUGH_SHARES', `You own only ${sharesWord(owned)} of ${issuer.name}`);
      cashCents = cashAfter[1];
      sharesOwned = Number(position.shares_owned);
    }
    return {
      action,
      company_id: issuerCompanyId,
      company_name: issuer.name,
      shares,
      price: centsToDollars(averageCents),
      total: centsToDollars(totalCents),
      shares_owned: sharesOwned,
      cash: centsToDollars(cashCents),
    };
  });
}
