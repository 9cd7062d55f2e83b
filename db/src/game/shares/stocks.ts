/**
 * The stock exchange (docs/economy.md, "Shares"). Every listed company's shares trade with the
 * company itself: buying issues new shares (the buyer's cash goes to the issuer, raising its
 * capital) and selling is a buyback paid from the issuer's cash. The price walks a curve like the
 * goods market (marketBuyCostRule / marketSellProceedsRule on the share's posted price, its depth
 * shareDepthRule and this week's net flow), so a large order costs more per share, buying is dearer
 * than selling (the spread), and a round trip or a pump-and-dump loses money; the turn moves the
 * posted price to the company's book value per share times the decaying buying pressure.
 *
 * Concurrency: a trade alone is one statement (tradeStatement): it locks both companies' rows in id
 * order (the turn locks companies in id order too), then moves the issuer's share record, the cash
 * of both with their ledger rows and the holder's position, each a conditional write; when one of
 * them does not happen the statement fails as a whole and nothing moves. A list of trades locks
 * every company of the list first, in id order, and is decided set-based (tradeSharesTogether).
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
  type StockTradeAction,
  type PortfolioEntryView,
  type ShareQuote,
  type ShareRecordView,
  type StockPriceView,
  type StockTradeResult,
} from '@marketcraft/shared';
import { companies, portfolioEntries, shareRecords, stockPriceHistory } from '../../schema/index.ts';
import type { DbExecutor } from '../../client.ts';
import { ruleSql } from '../../ruleSql.ts';
import { sqlTemplate } from '../../sqlTemplate.ts';
import { cashMovesCtes, changeCashOfMany, notEnoughCashMessage, type CashChange } from '../books/ledger.ts';
import { LEDGER_STAND_INS, fillLedgerText, fillLedgerTextSql } from '../../moneySql.ts';
import { runAction, weekUnchangedSql } from '../../statements.ts';
import { companyFilterSql, pageSql, type ListPage } from '../companies/lists.ts';
import { Purses, applied, idList, inTransaction, lockCompanies, refused, type ActionRequest, type Outcome, type PlayerAction } from '../action.ts';

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
  const [company] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(and(eq(companies.worldId, worldId), eq(companies.id, companyId)));
  if (!company) throw new GameError('NOT_FOUND', `No company found with id ${companyId}`);
  const rows = await db
    .select({ week: stockPriceHistory.week, priceCents: stockPriceHistory.priceCents })
    .from(stockPriceHistory)
    .where(and(eq(stockPriceHistory.worldId, worldId), eq(stockPriceHistory.companyId, companyId)))
    .orderBy(desc(stockPriceHistory.week))
    .limit(STOCK_HISTORY_ENTRIES);
  return rows.reverse().map((row) => ({ week: row.week, price: centsToDollars(row.priceCents) }));
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
  if (Number(issuer.share_price_cents) <= 0)
    throw new GameError('RULE_BROKEN', `${issuer.name} is insolvent: its shares cannot be traded until its book value is positive again`);
  return issuer;
}

/** An order of `quantity` shares on the issuer's curve now: the inputs of the market rules (quote, refusal). */
function shareOrderValues(issuer: IssuerState, quantity: number) {
  return {
    price: Number(issuer.share_price_cents),
    depth: shareDepthRule.evaluate({ totalShares: Number(issuer.total_shares) }),
    flow: Number(issuer.week_flow),
    quantity,
  };
}

/** A company never trades its own shares (its cash would pay itself). */
const OWN_SHARES_MESSAGE = "You cannot trade your own company's shares";

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
  const values = shareOrderValues(issuer, input.shares);
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

/** The ledger texts of a trade, for the holder and for the issuer; the statement fills the stand-ins (fillLedgerTextSql). */
function tradeDescriptions(action: StockTradeAction, shares: number): { holder: string; issuer: string } {
  const { name: ISSUER_NAME, total: TOTAL, each: EACH } = LEDGER_STAND_INS;
  return action === 'buy'
    ? {
        holder: `Bought ${sharesWord(shares)} of ${ISSUER_NAME} for ${TOTAL} (${EACH} each)`,
        issuer: `Issued ${sharesWord(shares)} to a shareholder for ${TOTAL}`,
      }
    : {
        holder: `Sold ${sharesWord(shares)} of ${ISSUER_NAME} for ${TOTAL} (${EACH} each)`,
        issuer: `Bought back ${sharesWord(shares)} from a shareholder for ${TOTAL}`,
      };
}

type TradeSlot = 'holderCompanyId' | 'issuerCompanyId' | 'shares' | 'holderDescription' | 'issuerDescription';

/**
 * A whole share trade in ONE statement (one round trip, no BEGIN/COMMIT): rendered once per action
 * (sqlTemplate). In order:
 * - `locked`: both companies' rows, in id order (as the turn locks them), before anything else
 *   (every write below waits for its count); a row locked this way is read as it is now, not as
 *   the statement's snapshot had it;
 * - `moved`: the issuer's share record in the holder's world, moved only when the trade is allowed
 *   (listed, active, price above zero, the order fits the market; its value within the limit is
 *   checked at the end); the
 *   money is computed on the record as it was before this trade (its new values less the order);
 * - the cash of both companies with their ledger rows (cashMovesCtes: a debit never overdraws),
 *   and the holder's position (a sale only from shares held: a conditional update).
 * PostgreSQL re-checks each conditional write on the row as it is when the write locks it. When one
 * of them did not happen (no cash, no shares, not tradable, or a row changed since the statement
 * began), the final select calls refuse_statement and the whole statement is undone: the caller
 * reads why (tradeRefusal).
 */
function tradeStatementTemplate(action: StockTradeAction) {
  const rule = action === 'buy' ? marketBuyCostRule : marketSellProceedsRule;
  return sqlTemplate<TradeSlot>((slot) => {
    const holderId = sql`${slot('holderCompanyId')}::int`;
    const issuerId = sql`${slot('issuerCompanyId')}::int`;
    const shares = sql`${slot('shares')}::bigint`;
    const signed = action === 'buy' ? shares : sql`(-${shares})`;
    // The market curve of the record before this order: `before` subtracts what the update added.
    const curve = (totalShares: SQL, flow: SQL) => ({
      price: sql`s.share_price_cents`,
      depth: ruleSql(shareDepthRule, { totalShares }),
      flow,
      quantity: shares,
    });
    const now = curve(sql`s.total_shares`, sql`s.week_flow`);
    const before = curve(sql`(s.total_shares - ${signed})`, sql`(s.week_flow - ${signed})`);
    const fill = (description: SQL) =>
      fillLedgerTextSql(description, { name: sql`priced.issuer_name`, totalCents: sql`priced.total_cents`, eachCents: sql`priced.each_cents` });
    const [holderGets, issuerGets] =
      action === 'buy' ? [sql`(-priced.total_cents)`, sql`priced.total_cents`] : [sql`priced.total_cents`, sql`(-priced.total_cents)`];
    const holderReason = action === 'buy' ? 'stock_buy' : 'stock_sell';
    const issuerReason = action === 'buy' ? 'share_issue' : 'share_buyback';
    const where = sql`pe.world_id = priced.world_id and pe.holder_company_id = ${holderId} and pe.issuer_company_id = ${issuerId}`;
    const position =
      action === 'buy'
        ? // The average price paid per share is weighted by the shares held before (rounded half up).
          sql`position as (
            insert into portfolio_entries as pe (world_id, holder_company_id, issuer_company_id, shares_owned, average_price_cents)
            select priced.world_id, ${holderId}, ${issuerId}, ${shares}, priced.each_cents from priced
            on conflict (world_id, holder_company_id, issuer_company_id) do update set
              average_price_cents = round((pe.shares_owned::numeric * pe.average_price_cents + (select total_cents from priced)) / (pe.shares_owned + ${shares})),
              shares_owned = pe.shares_owned + excluded.shares_owned
            returning pe.shares_owned
          )`
        : // The position shrinks, or goes when it is sold out: only from shares still held.
          sql`gone as (
            delete from portfolio_entries pe using priced where ${where} and pe.shares_owned = ${shares} returning 0::bigint as shares_owned
          ), kept as (
            update portfolio_entries pe set shares_owned = pe.shares_owned - ${shares} from priced where ${where} and pe.shares_owned > ${shares}
            returning pe.shares_owned
          ), position as (
            select shares_owned from gone union all select shares_owned from kept
          )`;
    return sql`
      with locked as (
        select id, world_id, name, status from companies where id in (${holderId}, ${issuerId}) order by id for update
      ), parties as (
        select h.world_id, i.name as issuer_name, i.status as issuer_status
        from locked h join locked i on i.id = ${issuerId} and i.world_id = h.world_id
        where h.id = ${holderId}
      ), moved as (
        update share_records s
        set total_shares = s.total_shares + ${signed}, week_flow = s.week_flow + ${signed}, ${action === 'buy' ? sql`week_bought = s.week_bought + ${shares}` : sql`week_sold = s.week_sold + ${shares}`},
            updated_at = now()
        from parties p
        where (select count(*) from locked) = 2
          and s.world_id = p.world_id and s.company_id = ${issuerId} and p.issuer_status = 'active'
          and s.is_listed and s.share_price_cents > 0
          and ${ruleSql(marketOrderFitsRule, now)} = 1
        returning p.world_id, p.issuer_name, (${ruleSql(rule, before)})::bigint as total_cents
      ), priced as (
        select world_id, issuer_name, total_cents, round(total_cents::numeric / ${shares})::bigint as each_cents from moved
      ), money (company_id, amount, type, reason, description, counterparty_company_id, product_id) as (
        select ${holderId}, ${holderGets}, 'stock_trade', ${holderReason}::text, ${fill(slot('holderDescription'))}, ${issuerId}, null::int from priced
        union all
        select ${issuerId}, ${issuerGets}, 'stock_trade', ${issuerReason}::text, ${fill(slot('issuerDescription'))}, ${holderId}, null::int from priced
      ), ${cashMovesCtes}, ${position}
      -- One row whatever moved, so that the check always runs.
      select case when (select count(*) from moved) = 1 and (select total_cents from priced) <= ${MAX_ORDER_VALUE_CENTS}::bigint
                       and (select count(*) from paid) = 2 and (select count(*) from position) = 1
                       and ${weekUnchangedSql(sql`priced.world_id`)}
                  then 0 else refuse_statement('share trade refused') end as refused,
             priced.total_cents, priced.each_cents, priced.issuer_name,
             (select cash_cents from paid where paid.id = ${holderId}) as cash_cents,
             (select shares_owned from position) as shares_owned
      from (select 1) as one left join priced on true`;
  });
}
const tradeStatement = { buy: tradeStatementTemplate('buy'), sell: tradeStatementTemplate('sell') };

/** What a share trade is decided on, as it is now: the issuer in the holder's world (undefined: none, or no share record), the holder's position and both companies' cash. */
interface TradeState {
  issuer: IssuerState | undefined;
  owned: number;
  holderCashCents: number;
  issuerCashCents: number;
}

/**
 * A share trade priced on the state it meets, or why it is refused: the checks of a quote, then the
 * shares held (a sale), the order's value and the cash on both sides, in the order a player would
 * fix them. The one decision of both paths: a list's trades (tradeSharesTogether) and a refused
 * statement's reason (tradeRefusal).
 */
function priceShareTrade(
  state: TradeState,
  input: { issuerCompanyId: number; shares: number; action: StockTradeAction },
): GameError | { issuer: IssuerState; totalCents: number } {
  const { issuerCompanyId, shares, action } = input;
  let issuer: IssuerState;
  try {
    issuer = checkTradable(state.issuer, issuerCompanyId);
  } catch (error) {
    return error as GameError;
  }
  const values = shareOrderValues(issuer, shares);
  if (!orderWithinMarket(values)) {
    return new GameError('RULE_BROKEN', `That order is too large for ${issuer.name}'s shares: split it over several weeks`);
  }
  if (action === 'sell' && shares > state.owned) return new GameError('NOT_ENOUGH_SHARES', `You own only ${sharesWord(state.owned)} of ${issuer.name}`);
  const totalCents = (action === 'buy' ? marketBuyCostRule : marketSellProceedsRule).evaluate(values);
  if (totalCents > MAX_ORDER_VALUE_CENTS) return new GameError('INVALID_INPUT', 'That trade is too large');
  if (action === 'buy' && state.holderCashCents < totalCents) return new GameError('NOT_ENOUGH_CASH', notEnoughCashMessage(totalCents, state.holderCashCents));
  if (action === 'sell' && state.issuerCashCents < totalCents) {
    return new GameError('RULE_BROKEN', `${issuer.name} cannot buy back ${sharesWord(shares)} now: it does not have ${formatCents(totalCents)} in cash`);
  }
  return { issuer, totalCents };
}

/**
 * Why a trade was refused, read after its statement undid itself (tradeStatement): priceShareTrade
 * on the rows as they are now. Null when nothing refuses it now: a row changed while the statement
 * ran, and the trade is tried again.
 */
async function tradeRefusal(
  db: DbExecutor,
  input: { holderCompanyId: number; issuerCompanyId: number; shares: number; action: StockTradeAction },
): Promise<GameError | null> {
  const { holderCompanyId, issuerCompanyId } = input;
  const [row] = await db.execute<Partial<IssuerState> & { holder_cash_cents: number; issuer_cash_cents: number | null; owned: number }>(sql`
    select h.cash_cents as holder_cash_cents, c.cash_cents as issuer_cash_cents, c.name, c.status,
           s.total_shares, s.share_price_cents, s.week_flow, s.is_listed, coalesce(pe.shares_owned, 0) as owned
    from companies h
    left join companies c on c.id = ${issuerCompanyId} and c.world_id = h.world_id
    left join share_records s on s.world_id = h.world_id and s.company_id = c.id
    left join portfolio_entries pe on pe.world_id = h.world_id and pe.holder_company_id = h.id and pe.issuer_company_id = c.id
    where h.id = ${holderCompanyId}`);
  if (!row) return new GameError('NOT_FOUND', 'No company found');
  const priced = priceShareTrade(
    {
      issuer: row.name === null || row.total_shares === null ? undefined : (row as IssuerState),
      owned: Number(row.owned),
      holderCashCents: Number(row.holder_cash_cents),
      issuerCashCents: Number(row.issuer_cash_cents),
    },
    input,
  );
  return priced instanceof GameError ? priced : null;
}

/**
 * Buys shares of `issuerCompanyId` from the company (new shares) or sells them back to it, for
 * `holderCompanyId`: one statement (tradeStatement), all or nothing (see the file comment for the
 * rules and the locking).
 */
async function tradeSharesOne(
  db: DbExecutor,
  input: { holderCompanyId: number; issuerCompanyId: number; shares: number; action: StockTradeAction },
): Promise<StockTradeResult> {
  const { holderCompanyId, issuerCompanyId, shares, action } = input;
  if (!Number.isSafeInteger(shares) || shares <= 0) throw new GameError('INVALID_INPUT', 'Share count must be a positive whole number');
  if (holderCompanyId === issuerCompanyId) throw new GameError('RULE_BROKEN', OWN_SHARES_MESSAGE);
  const descriptions = tradeDescriptions(action, shares);
  const statement = tradeStatement[action]({
    holderCompanyId,
    issuerCompanyId,
    shares,
    holderDescription: descriptions.holder,
    issuerDescription: descriptions.issuer,
  });
  const row = await runAction<{ total_cents: number; each_cents: number; issuer_name: string; cash_cents: number; shares_owned: number }>(db, {
    key: `shares:${issuerCompanyId}`,
    statement,
    whyRefused: () => tradeRefusal(db, input),
  });
  return {
    action,
    company_id: issuerCompanyId,
    company_name: row.issuer_name,
    shares,
    price: centsToDollars(Number(row.each_cents)),
    total: centsToDollars(Number(row.total_cents)),
    shares_owned: Number(row.shares_owned),
    cash: centsToDollars(Number(row.cash_cents)),
  };
}

/** `numerator / denominator` rounded half away from zero, as PostgreSQL rounds a numeric (both positive, whole). */
function roundedQuotient(numerator: number, denominator: number): number {
  const [n, d] = [BigInt(numerator), BigInt(denominator)];
  return Number((2n * n + d) / (2n * d));
}

type ShareTradeInput = { company_id: number; shares: number; action: StockTradeAction };

/**
 * A list of share trades (the API's trades sent together: actTogether; the bots' week) set-based,
 * as market trades go: every holder and issuer locked first, in id order (as the turn locks them:
 * two lists never wait for each other in a cycle); the issuers' records and the holders' positions
 * read in two statements; each trade decided in the list's order in TypeScript (priceShareTrade on
 * the record, the position and the cash the earlier trades left, exactly as one after the other
 * would meet them); then the records and positions written in one statement and the cash with its
 * ledger rows in another (changeCashOfMany, a row per change in the list's order), whatever the
 * list's length. The rows read are those of locked companies, so nothing changes them meanwhile.
 */
async function tradeSharesTogether(db: DbExecutor, requests: readonly ActionRequest<ShareTradeInput>[]): Promise<Outcome<StockTradeResult>[]> {
  return inTransaction(db, async (tx) => {
    const companiesLocked = await lockCompanies(
      tx,
      requests.flatMap(({ companyId, input }) => [companyId, input.company_id]),
    );
    const issuerIds = [...new Set(requests.map((request) => request.input.company_id))];
    const issuerRows = await tx.execute<IssuerState & { id: number; world_id: number; total_shares: number | null }>(sql`
      select c.id, c.world_id, c.name, c.status, s.total_shares, s.share_price_cents, s.week_flow, s.is_listed
      from companies c left join share_records s on s.world_id = c.world_id and s.company_id = c.id
      where c.id in ${idList(issuerIds)}`);
    const issuers = new Map(
      issuerRows.map((row) => [
        Number(row.id),
        {
          worldId: Number(row.world_id),
          state:
            row.total_shares === null
              ? undefined
              : {
                  name: row.name,
                  status: row.status,
                  total_shares: Number(row.total_shares),
                  share_price_cents: Number(row.share_price_cents),
                  week_flow: Number(row.week_flow),
                  is_listed: row.is_listed,
                },
        },
      ]),
    );
    const positionRows = await tx.execute<{ holder_company_id: number; issuer_company_id: number; shares_owned: number; average_price_cents: number }>(sql`
      select holder_company_id, issuer_company_id, shares_owned, average_price_cents from portfolio_entries
      where holder_company_id in ${idList(requests.map((request) => request.companyId))} and issuer_company_id in ${idList(issuerIds)}`);
    /** Each holder's position in each issuer as the list leaves it (shares 0: sold out). */
    const positions = new Map<string, { worldId: number; holder: number; issuer: number; shares: number; averageCents: number; changed: boolean }>();
    for (const row of positionRows) {
      const holder = Number(row.holder_company_id);
      const issuer = Number(row.issuer_company_id);
      positions.set(`${holder}:${issuer}`, {
        worldId: companiesLocked.get(holder)!.worldId,
        holder,
        issuer,
        shares: Number(row.shares_owned),
        averageCents: Number(row.average_price_cents),
        changed: false,
      });
    }
    /** Each issuer's shares issued (+) or bought back (-) by the list, and its gross volumes. */
    const moves = new Map<number, { worldId: number; signed: number; bought: number; sold: number }>();
    const purses = new Purses(companiesLocked);
    const changes: CashChange[] = [];
    const outcomes = requests.map(({ companyId: holderId, input }): Outcome<StockTradeResult> => {
      const { company_id: issuerId, shares, action } = input;
      if (!Number.isSafeInteger(shares) || shares <= 0) return refused(new GameError('INVALID_INPUT', 'Share count must be a positive whole number'));
      if (holderId === issuerId) return refused(new GameError('RULE_BROKEN', OWN_SHARES_MESSAGE));
      const holder = companiesLocked.get(holderId);
      if (!holder) return refused(new GameError('NOT_FOUND', 'No company found'));
      const issuer = issuers.get(issuerId);
      const inWorld = issuer && issuer.worldId === holder.worldId ? issuer.state : undefined;
      const key = `${holderId}:${issuerId}`;
      const position = positions.get(key);
      const priced = priceShareTrade(
        { issuer: inWorld, owned: position?.shares ?? 0, holderCashCents: purses.of(holderId), issuerCashCents: purses.of(issuerId) },
        { issuerCompanyId: issuerId, shares, action },
      );
      if (priced instanceof GameError) return refused(priced);
      const { totalCents } = priced;
      const eachCents = roundedQuotient(totalCents, shares);
      const signed = action === 'buy' ? shares : -shares;
      // The money: checked above on both sides (priceShareTrade), so neither spend refuses.
      purses.spend(holderId, action === 'buy' ? totalCents : -totalCents);
      purses.spend(issuerId, action === 'buy' ? -totalCents : totalCents);
      const descriptions = tradeDescriptions(action, shares);
      const fill = (text: string) => fillLedgerText(text, { name: priced.issuer.name, totalCents, eachCents });
      changes.push(
        {
          companyId: holderId,
          amountCents: action === 'buy' ? -totalCents : totalCents,
          type: 'stock_trade',
          reason: action === 'buy' ? 'stock_buy' : 'stock_sell',
          description: fill(descriptions.holder),
          ref: { counterpartyCompanyId: issuerId },
        },
        {
          companyId: issuerId,
          amountCents: action === 'buy' ? totalCents : -totalCents,
          type: 'stock_trade',
          reason: action === 'buy' ? 'share_issue' : 'share_buyback',
          description: fill(descriptions.issuer),
          ref: { counterpartyCompanyId: holderId },
        },
      );
      // The record walks its curve: the next trade of this issuer meets the moved flow and count.
      const record = inWorld!;
      record.total_shares += signed;
      record.week_flow += signed;
      const move = moves.get(issuerId) ?? { worldId: holder.worldId, signed: 0, bought: 0, sold: 0 };
      move.signed += signed;
      if (action === 'buy') move.bought += shares;
      else move.sold += shares;
      moves.set(issuerId, move);
      // The position: a purchase averages its price per share with what was held (rounded half up).
      const held = position ?? { worldId: holder.worldId, holder: holderId, issuer: issuerId, shares: 0, averageCents: 0, changed: true };
      if (action === 'buy') {
        held.averageCents = held.shares === 0 ? eachCents : roundedQuotient(held.shares * held.averageCents + totalCents, held.shares + shares);
        held.shares += shares;
      } else {
        held.shares -= shares;
      }
      held.changed = true;
      positions.set(key, held);
      return applied({
        action,
        company_id: issuerId,
        company_name: priced.issuer.name,
        shares,
        price: centsToDollars(eachCents),
        total: centsToDollars(totalCents),
        shares_owned: held.shares,
        cash: centsToDollars(purses.of(holderId)),
      });
    });
    if (moves.size > 0) {
      const records = [...moves].map(([companyId, move]) => ({
        world_id: move.worldId,
        company_id: companyId,
        signed: move.signed,
        bought: move.bought,
        sold: move.sold,
      }));
      const held = [...positions.values()]
        .filter((position) => position.changed)
        .map((position) => ({
          world_id: position.worldId,
          holder: position.holder,
          issuer: position.issuer,
          shares: position.shares,
          average: position.averageCents,
        }));
      await tx.execute(sql`
        with moved as (
          update share_records s
          set total_shares = s.total_shares + m.signed, week_flow = s.week_flow + m.signed,
              week_bought = s.week_bought + m.bought, week_sold = s.week_sold + m.sold, updated_at = now()
          from jsonb_to_recordset(${JSON.stringify(records)}::text::jsonb) as m(world_id int, company_id int, signed bigint, bought bigint, sold bigint)
          where s.world_id = m.world_id and s.company_id = m.company_id
        ), position as (
          select * from jsonb_to_recordset(${JSON.stringify(held)}::text::jsonb) as p(world_id int, holder int, issuer int, shares bigint, average bigint)
        ), sold_out as (
          delete from portfolio_entries pe using position p
          where p.shares = 0 and pe.world_id = p.world_id and pe.holder_company_id = p.holder and pe.issuer_company_id = p.issuer
        )
        insert into portfolio_entries as pe (world_id, holder_company_id, issuer_company_id, shares_owned, average_price_cents)
        select world_id, holder, issuer, shares, average from position where shares > 0 order by holder, issuer
        on conflict (world_id, holder_company_id, issuer_company_id) do update set
          shares_owned = excluded.shares_owned, average_price_cents = excluded.average_price_cents`);
      await changeCashOfMany(tx, changes);
    }
    return outcomes;
  });
}

/**
 * POST /api/stocks/trade, the player action. A list of one (the API's trade alone): one statement
 * (tradeStatement), in its own savepoint when inside a transaction (runAction), so a refusal undoes
 * only its own. A longer list (the bots' week, or the API's share trades sent together:
 * actTogether): set-based (tradeSharesTogether).
 */
export const tradeShares: PlayerAction<ShareTradeInput, StockTradeResult> = async (db, requests) => {
  if (requests.length > 1) return tradeSharesTogether(db, requests);
  const outcomes: Outcome<StockTradeResult>[] = [];
  for (const { companyId, input } of requests) {
    try {
      outcomes.push(
        applied(await tradeSharesOne(db, { holderCompanyId: companyId, issuerCompanyId: input.company_id, shares: input.shares, action: input.action })),
      );
    } catch (error) {
      if (!(error instanceof GameError)) throw error;
      outcomes.push(refused(error));
    }
  }
  return outcomes;
};
