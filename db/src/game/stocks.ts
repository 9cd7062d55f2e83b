/**
 * The stock exchange. Every listed company has a share record (total_shares, share_price). Shares
 * not held by anybody are the market's float: a buyer takes shares from the float and a seller
 * returns them to it, paying or receiving the current share price to or from the market (the
 * issuer's cash does not change). Buyers get at most the float; sellers at most what they own; a
 * company never trades its own shares.
 *
 * Concurrency: a trade locks the issuer's share record (`for update`) first, so every trade in one
 * issuer's shares runs one after another; the cash moves through changeCash (conditional update).
 */
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import {
  GameError,
  STOCK_HISTORY_ENTRIES,
  centsToDollars,
  formatCents,
  priceChangePercent,
  sharesAvailable,
  type StockTradeAction,
} from '@marketcraft/shared';
import { companies, portfolioEntries, shareRecords, stockPriceHistory } from '../schema/index.ts';
import type { DbExecutor } from '../client.ts';
import { changeCash } from './ledger.ts';

export interface ShareRecordView {
  company_id: number;
  company_name: string;
  is_bot: boolean;
  total_shares: number;
  share_price: number;
  last_dividend: number;
  updated_at: string;
  shares_available: number;
}

/** GET /api/shares and /api/company-shares: the share records of every listed, active company. */
export async function listShareRecords(db: DbExecutor): Promise<ShareRecordView[]> {
  const held = db
    .select({ issuerCompanyId: portfolioEntries.issuerCompanyId, held: sql<number>`sum(${portfolioEntries.sharesOwned})::bigint`.as('held') })
    .from(portfolioEntries)
    .groupBy(portfolioEntries.issuerCompanyId)
    .as('held');
  const rows = await db
    .select({
      companyId: shareRecords.companyId,
      companyName: companies.name,
      isBot: companies.isBot,
      totalShares: shareRecords.totalShares,
      sharePriceCents: shareRecords.sharePriceCents,
      lastDividendCents: shareRecords.lastDividendCents,
      updatedAt: shareRecords.updatedAt,
      held: held.held,
    })
    .from(shareRecords)
    .innerJoin(companies, eq(companies.id, shareRecords.companyId))
    .leftJoin(held, eq(held.issuerCompanyId, shareRecords.companyId))
    .where(and(eq(shareRecords.isListed, true), eq(companies.status, 'active')))
    .orderBy(asc(companies.name), asc(companies.id));
  return rows.map((row) => ({
    company_id: row.companyId,
    company_name: row.companyName,
    is_bot: row.isBot,
    total_shares: row.totalShares,
    share_price: centsToDollars(row.sharePriceCents),
    last_dividend: centsToDollars(row.lastDividendCents),
    updated_at: row.updatedAt.toISOString(),
    shares_available: sharesAvailable(row.totalShares, Number(row.held ?? 0)),
  }));
}

export interface PortfolioEntryView {
  company_id: number;
  company_name: string;
  is_bot: boolean;
  shares_owned: number;
  average_price: number;
  current_price: number;
  value: number;
}

/** GET /api/portfolio: the shares the company holds, valued at the current share price. */
export async function getPortfolio(db: DbExecutor, holderCompanyId: number): Promise<PortfolioEntryView[]> {
  const rows = await db
    .select({
      companyId: portfolioEntries.issuerCompanyId,
      companyName: companies.name,
      isBot: companies.isBot,
      sharesOwned: portfolioEntries.sharesOwned,
      averagePriceCents: portfolioEntries.averagePriceCents,
      sharePriceCents: shareRecords.sharePriceCents,
    })
    .from(portfolioEntries)
    .innerJoin(companies, eq(companies.id, portfolioEntries.issuerCompanyId))
    .leftJoin(shareRecords, eq(shareRecords.companyId, portfolioEntries.issuerCompanyId))
    .where(and(eq(portfolioEntries.holderCompanyId, holderCompanyId), sql`${portfolioEntries.sharesOwned} > 0`))
    .orderBy(asc(companies.name));
  return rows.map((row) => {
    const priceCents = row.sharePriceCents ?? 0;
    return {
      company_id: row.companyId,
      company_name: row.companyName,
      is_bot: row.isBot,
      shares_owned: row.sharesOwned,
      average_price: centsToDollars(row.averagePriceCents),
      current_price: centsToDollars(priceCents),
      value: centsToDollars(row.sharesOwned * priceCents),
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
 * GET /api/stock-prices: per listed company, the latest recorded price and the one before it
 * (from stock_price_history; the current share price when nothing is recorded yet), ordered by
 * the absolute percent change, biggest movers first.
 */
export async function listStockPrices(db: DbExecutor): Promise<StockPriceView[]> {
  const rows = await db.execute<{
    company_id: number;
    company_name: string;
    is_bot: boolean;
    week: number | null;
    price_cents: number;
    previous_cents: number | null;
  }>(sql`
    with ranked as (
      select company_id, week, price_cents,
             row_number() over (partition by company_id order by week desc) as rank
      from stock_price_history
    )
    select c.id as company_id, c.name as company_name, c.is_bot,
           latest.week, coalesce(latest.price_cents, s.share_price_cents) as price_cents,
           previous.price_cents as previous_cents
    from share_records s
    join companies c on c.id = s.company_id
    left join ranked latest on latest.company_id = s.company_id and latest.rank = 1
    left join ranked previous on previous.company_id = s.company_id and previous.rank = 2
    where s.is_listed and c.status = 'active'`);
  return rows
    .map((row) => {
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
    })
    .sort((a, b) => Math.abs(b.change_percent) - Math.abs(a.change_percent) || a.company_name.localeCompare(b.company_name));
}

/** GET /api/stocks/history?company_id=N: the last 52 recorded weekly prices, oldest first. */
export async function getStockHistory(db: DbExecutor, companyId: number): Promise<{ week: number; price: number }[]> {
  const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
  if (!company) throw new GameError('NOT_FOUND', `No company found with id ${companyId}`);
  const rows = await db
    .select({ week: stockPriceHistory.week, priceCents: stockPriceHistory.priceCents })
    .from(stockPriceHistory)
    .where(eq(stockPriceHistory.companyId, companyId))
    .orderBy(desc(stockPriceHistory.week))
    .limit(STOCK_HISTORY_ENTRIES);
  return rows.reverse().map((row) => ({ week: row.week, price: centsToDollars(row.priceCents) }));
}

export interface StockTradeResult {
  action: StockTradeAction;
  company_id: number;
  company_name: string;
  shares: number;
  price: number;
  total: number;
  shares_owned: number;
  cash: number;
}

function sharesWord(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'share' : 'shares'}`;
}

/**
 * Buys or sells `shares` shares of `issuerCompanyId` for `holderCompanyId` at the current share
 * price, in one transaction (see the file comment for the rules and the locking).
 */
export async function tradeShares(
  db: DbExecutor,
  input: { holderCompanyId: number; issuerCompanyId: number; shares: number; action: StockTradeAction },
): Promise<StockTradeResult> {
  const { holderCompanyId, issuerCompanyId, shares, action } = input;
  if (!Number.isSafeInteger(shares) || shares <= 0) throw new GameError('INVALID_INPUT', 'Share count must be a positive whole number');
  if (holderCompanyId === issuerCompanyId) throw new GameError('RULE_BROKEN', "You cannot trade your own company's shares");
  return db.transaction(async (tx) => {
    const [issuer] = await tx.execute<{ name: string; status: string; total_shares: number; share_price_cents: number; is_listed: boolean }>(sql`
      select c.name, c.status, s.total_shares, s.share_price_cents, s.is_listed
      from share_records s join companies c on c.id = s.company_id
      where s.company_id = ${issuerCompanyId}
      for update of s`);
    if (!issuer) throw new GameError('NOT_FOUND', `No company found with id ${issuerCompanyId}`);
    if (!issuer.is_listed || issuer.status !== 'active') throw new GameError('RULE_BROKEN', `${issuer.name} is no longer listed on the stock exchange`);
    const priceCents = Number(issuer.share_price_cents);
    const totalCents = shares * priceCents;
    if (!Number.isSafeInteger(totalCents)) throw new GameError('INVALID_INPUT', 'That trade is too large');

    const [entry] = await tx.execute<{ shares_owned: number; average_price_cents: number }>(sql`
      select shares_owned, average_price_cents from portfolio_entries
      where holder_company_id = ${holderCompanyId} and issuer_company_id = ${issuerCompanyId}
      for update`);
    const owned = Number(entry?.shares_owned ?? 0);

    let sharesOwned: number;
    let cashCents: number;
    if (action === 'buy') {
      const [heldRow] = await tx.execute<{ held: number }>(sql`
        select coalesce(sum(shares_owned), 0)::bigint as held from portfolio_entries where issuer_company_id = ${issuerCompanyId}`);
      const available = sharesAvailable(Number(issuer.total_shares), Number(heldRow?.held ?? 0));
      if (shares > available) {
        throw new GameError('NOT_ENOUGH_SHARES', `Only ${sharesWord(available)} of ${issuer.name} ${available === 1 ? 'is' : 'are'} available`);
      }
      cashCents = await changeCash(tx, {
        companyId: holderCompanyId,
        amountCents: -totalCents,
        type: 'stock_trade',
        reason: 'stock_buy',
        description: `Bought ${sharesWord(shares)} of ${issuer.name} at ${formatCents(priceCents)}`,
      });
      sharesOwned = owned + shares;
      const averageCents = Math.round((owned * Number(entry?.average_price_cents ?? 0) + totalCents) / sharesOwned);
      await tx
        .insert(portfolioEntries)
        .values({ holderCompanyId, issuerCompanyId, sharesOwned, averagePriceCents: averageCents })
        .onConflictDoUpdate({
          target: [portfolioEntries.holderCompanyId, portfolioEntries.issuerCompanyId],
          set: { sharesOwned, averagePriceCents: averageCents },
        });
    } else {
      if (shares > owned) {
        throw new GameError('NOT_ENOUGH_SHARES', `You own only ${sharesWord(owned)} of ${issuer.name}`);
      }
      cashCents = await changeCash(tx, {
        companyId: holderCompanyId,
        amountCents: totalCents,
        type: 'stock_trade',
        reason: 'stock_sell',
        description: `Sold ${sharesWord(shares)} of ${issuer.name} at ${formatCents(priceCents)}`,
      });
      sharesOwned = owned - shares;
      const where = and(eq(portfolioEntries.holderCompanyId, holderCompanyId), eq(portfolioEntries.issuerCompanyId, issuerCompanyId));
      if (sharesOwned === 0) await tx.delete(portfolioEntries).where(where);
      else await tx.update(portfolioEntries).set({ sharesOwned }).where(where);
    }
    return {
      action,
      company_id: issuerCompanyId,
      company_name: issuer.name,
      shares,
      price: centsToDollars(priceCents),
      total: centsToDollars(totalCents),
      shares_owned: sharesOwned,
      cash: centsToDollars(cashCents),
    };
  });
}
