/**
 * The stock exchange (docs/economy.md, "Shares"). Every listed company's shares trade with the
 * company itself: buying issues new shares (the buyer's cash goes to the issuer, raising its
 * capital) and selling is a buyback paid from the issuer's cash. The price walks a curve like the
 * goods market (marketBuyCostRule / marketSellProceedsRule on the share's posted price, its depth
 * shareDepthRule and this week's net flow), so a large order costs more per share, buying is dearer
 * than selling (the spread), and a round trip or a pump-and-dump loses money; the turn moves the
 * posted price to the company's book value per share times the decaying buying pressure.
 *
 * Concurrency: a trade, alone or in a list, locks the rows of every company of its list first, in
 * id order (the turn locks companies in id order too), and is decided on them (tradeShares): one
 * write path whatever the list's length.
 */
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import {
  GameError,
  MAX_ORDER_VALUE_CENTS,
  STOCK_HISTORY_ENTRIES,
  centsToDollars,
  formatCents,
  liquidationValueRule,
  marketBuyCostRule,
  marketMidPriceRule,
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
import { changeCashOfMany, notEnoughCashMessage, type CashChange } from '../books/ledger.ts';
import { LEDGER_STAND_INS, fillLedgerText } from '../../moneySql.ts';
import { companyFilterSql, pageSql, type ListPage } from '../companies/lists.ts';
import { Purses, applied, idList, inOneRoundTrip, inTransaction, lockCompanies, refused, type Outcome, type PlayerAction } from '../action.ts';

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
 * fix them. The one decision of a trade, on the record, the position and the cash the earlier trades of
 * its list left (tradeShares).
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

/** `numerator / denominator` rounded half away from zero, as PostgreSQL rounds a numeric (both positive, whole). */
function roundedQuotient(numerator: number, denominator: number): number {
  const [n, d] = [BigInt(numerator), BigInt(denominator)];
  return Number((2n * n + d) / (2n * d));
}

type ShareTradeInput = { company_id: number; shares: number; action: StockTradeAction };

/**
 * POST /api/stocks/trade, the player action, for a list of trades (the API's trade alone, the API's
 * trades sent together: actTogether, the bots' week), one way whatever the list's length, as market
 * trades go: every holder and issuer locked first, in id order (as the turn locks them: two lists
 * never wait for each other in a cycle), the issuers' records and the holders' positions read in
 * the same round trip (each statement reads after the locks before it); each trade decided in the
 * list's order in TypeScript (priceShareTrade on the record, the position and the cash the earlier
 * trades left, exactly as one after the other would meet them); then the records and positions
 * written in one statement and the cash with its ledger rows in another (changeCashOfMany, a row
 * per change in the list's order, a debit never below zero), sent together. The rows read are
 * those of locked companies, so nothing changes them meanwhile; a turn that closed the week while
 * the locks waited is seen whole by the reads that follow them.
 */
export const tradeShares: PlayerAction<ShareTradeInput, StockTradeResult> = (db, requests) =>
  inTransaction(db, async (tx) => {
    const issuerIds = [...new Set(requests.map((request) => request.input.company_id))];
    const [companiesLocked, issuerRows, positionRows] = await inOneRoundTrip(
      lockCompanies(
        tx,
        requests.flatMap(({ companyId, input }) => [companyId, input.company_id]),
      ),
      tx.execute<IssuerState & { id: number; world_id: number; total_shares: number | null }>(sql`
        select c.id, c.world_id, c.name, c.status, s.total_shares, s.share_price_cents, s.week_flow, s.is_listed
        from companies c left join share_records s on s.world_id = c.world_id and s.company_id = c.id
        where c.id in ${idList(issuerIds)}`),
      tx.execute<{ holder_company_id: number; issuer_company_id: number; shares_owned: number; average_price_cents: number }>(sql`
        select holder_company_id, issuer_company_id, shares_owned, average_price_cents from portfolio_entries
        where holder_company_id in ${idList(requests.map((request) => request.companyId))} and issuer_company_id in ${idList(issuerIds)}`),
    );
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
      // Both writes in one round trip: the companies are locked, the cash was checked (Purses).
      await Promise.all([
        tx.execute(sql`
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
          shares_owned = excluded.shares_owned, average_price_cents = excluded.average_price_cents`),
        changeCashOfMany(tx, changes),
      ]);
    }
    return outcomes;
  });
