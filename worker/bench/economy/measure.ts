/**
 * What the economy benchmark measures, read from the game's own tables and its one net-worth
 * function (valuationSql through listCompanies): per company and for the whole world.
 */
import { sql } from 'drizzle-orm';
import { listCompanies, worldProductsSql, type DbExecutor } from '@marketcraft/db';
import { MAX_PRICE_FACTOR, MIN_PRICE_FACTOR } from '@marketcraft/shared';

/** Net worth (cents) of every active company; bankrupt companies are worth 0 to their player. */
export async function netWorths(db: DbExecutor): Promise<Map<number, number>> {
  const rows = await listCompanies(db, 1, null);
  return new Map(rows.map((row) => [row.id, Math.round(row.net_worth * 100)]));
}

export async function cashByCompany(db: DbExecutor): Promise<Map<number, number>> {
  const rows = await db.execute<{ id: number; cash_cents: number }>(sql`select id, cash_cents from companies`);
  return new Map(rows.map((row) => [Number(row.id), Number(row.cash_cents)]));
}

export async function maxLedgerId(db: DbExecutor): Promise<number> {
  const [row] = await db.execute<{ id: number }>(sql`select coalesce(max(id), 0)::bigint as id from transactions`);
  return Number(row?.id ?? 0);
}

/** Cents spent on buildings, hires, equipment and research (the capital a strategy sank). */
export async function capitalSpentCents(db: DbExecutor, companyIds: number[]): Promise<number> {
  const [row] = await db.execute<{ spent: number }>(sql`
    select coalesce(-sum(amount_cents), 0)::bigint as spent from transactions
    where company_id in ${sql.raw(`(${companyIds.join(',')})`)} and reason in ('build', 'hire', 'equipment', 'research')`);
  return Number(row?.spent ?? 0);
}

/** The same per company. */
export async function capitalSpentByCompany(db: DbExecutor, companyIds: number[]): Promise<Map<number, number>> {
  if (companyIds.length === 0) return new Map();
  const rows = await db.execute<{ company_id: number; spent: number }>(sql`
    select company_id, coalesce(-sum(amount_cents), 0)::bigint as spent from transactions
    where company_id in ${sql.raw(`(${companyIds.join(',')})`)} and reason in ('build', 'hire', 'equipment', 'research')
    group by company_id`);
  return new Map(rows.map((row) => [Number(row.company_id), Number(row.spent)]));
}

/** Mean weekly profit after tax (the books' figure) of the companies over their last `weeks` weeks. */
export async function meanWeeklyProfitCents(db: DbExecutor, companyIds: number[], weeks: number): Promise<number> {
  const [row] = await db.execute<{ mean: number | null }>(sql`
    select avg(total)::float8 as mean from (
      select week, sum(profit_cents) as total from financial_history
      where company_id in ${sql.raw(`(${companyIds.join(',')})`)}
      group by week order by week desc limit ${weeks}) recent`);
  return Number(row?.mean ?? 0);
}

export interface PriceFigures {
  /** Median over products of |current / base - 1|. */
  medianDeviation: number;
  /** Products at (within 0.5% of) their floor or ceiling, by name. */
  atFloor: string[];
  atCeiling: string[];
  products: number;
}

export async function priceFigures(db: DbExecutor): Promise<PriceFigures> {
  const rows = await db.execute<{ name: string; current_price_cents: number; base_price_cents: number }>(sql`
    select name, current_price_cents, base_price_cents from ${worldProductsSql(1)} p order by id`);
  const ratios = rows.map((row) => Number(row.current_price_cents) / Number(row.base_price_cents));
  const deviations = ratios.map((ratio) => Math.abs(ratio - 1)).sort((a, b) => a - b);
  const middle = Math.floor(deviations.length / 2);
  const median = deviations.length % 2 ? deviations[middle]! : (deviations[middle - 1]! + deviations[middle]!) / 2;
  return {
    medianDeviation: median,
    atFloor: rows.filter((_, index) => ratios[index]! <= MIN_PRICE_FACTOR * 1.005).map((row) => row.name),
    atCeiling: rows.filter((_, index) => ratios[index]! >= MAX_PRICE_FACTOR * 0.995).map((row) => row.name),
    products: ratios.length,
  };
}

export async function bankruptcies(db: DbExecutor): Promise<{ name: string; isBot: boolean }[]> {
  const rows = await db.execute<{ name: string; is_bot: boolean }>(sql`select name, is_bot from companies where status = 'bankrupt' order by id`);
  return rows.map((row) => ({ name: row.name, isBot: row.is_bot }));
}

/**
 * Where money came from and went (docs/economy.md, "Money in and out"; docs/invariants.md): every
 * ledger reason is a documented source, sink or transfer between companies.
 */
export const MONEY_SOURCES = ['store_sales', 'market_sell', 'liquidation', 'subsidy', 'sell_building'] as const;
export const MONEY_SINKS = [
  'market_buy',
  'store_stock',
  'raw_materials',
  'build',
  'hire',
  'equipment',
  'research',
  'politics',
  'wages',
  'operating_costs',
  'tax',
] as const;
/** Pairs that move money between companies: each pair nets to zero (share buybacks also pay bankrupt holders' liquidation). */
const MONEY_TRANSFERS = [
  ['dividend', 'dividend_paid'],
  ['stock_buy', 'share_issue'],
  ['stock_sell', 'share_buyback'],
  // What a bankruptcy left, moved to its player's next company (both rows have this reason).
  ['restart_capital', 'restart_capital'],
  // A contract between companies: the buyer pays exactly what the seller receives (docs/exchange.md).
  ['contract_sell', 'contract_buy'],
] as const;
/**
 * The exchange's auction (docs/exchange.md): a fill against another player moves money between
 * companies, against the market maker it enters (a sale) or leaves (a purchase) as an instant trade
 * does, and the fee leaves; escrow rows move money between a company's cash and what its orders
 * hold (their net is what live orders still hold at the end).
 */
const MONEY_EXCHANGE = ['exchange_buy', 'exchange_sell', 'exchange_escrow', 'exchange_release'] as const;

export async function ledgerByReason(db: DbExecutor, afterId: number): Promise<Map<string, number>> {
  const rows = await db.execute<{ reason: string; total: number }>(sql`
    select reason, sum(amount_cents)::bigint as total from transactions where id > ${afterId} group by reason order by reason`);
  return new Map(rows.map((row) => [row.reason, Number(row.total)]));
}

export interface MoneyCheck {
  startCents: number;
  endCents: number;
  ledgerCents: number;
  byReason: Map<string, number>;
  undocumented: string[];
  /** Transfer pairs that do not net to zero (stock_sell/share_buyback may differ by what liquidations took). */
  unbalanced: string[];
  ok: boolean;
}

export function checkMoney(startCents: number, endCents: number, byReason: Map<string, number>): MoneyCheck {
  const documented = new Set<string>([...MONEY_SOURCES, ...MONEY_SINKS, ...MONEY_TRANSFERS.flat(), ...MONEY_EXCHANGE, 'production']);
  const undocumented = [...byReason.keys()].filter((reason) => !documented.has(reason));
  const unbalanced: string[] = [];
  for (const [credit, debit] of MONEY_TRANSFERS) {
    const net = (byReason.get(credit) ?? 0) + (byReason.get(debit) ?? 0);
    // Buybacks of a bankrupt company's holdings are paid into its liquidation, not a stock_sell.
    const allowed = credit === 'stock_sell' ? -(byReason.get('liquidation') ?? 0) : 0;
    if (net > 0 || net < allowed) unbalanced.push(`${credit} + ${debit} = ${net}`);
  }
  const ledgerCents = [...byReason.values()].reduce((sum, value) => sum + value, 0);
  return {
    startCents,
    endCents,
    ledgerCents,
    byReason,
    undocumented,
    unbalanced,
    ok: endCents - startCents === ledgerCents && undocumented.length === 0 && unbalanced.length === 0,
  };
}

/** The companies' ledger by reason over their last `weeks` weeks of turns, per week (where a strategy's money comes from). */
export async function weeklyLedgerByReason(db: DbExecutor, companyIds: number[], weeks: number): Promise<Map<string, number>> {
  const rows = await db.execute<{ reason: string; per_week: number }>(sql`
    select reason, (sum(amount_cents) / ${weeks})::float8 as per_week from transactions
    where company_id in ${sql.raw(`(${companyIds.join(',')})`)}
      and week > (select max(current_week) from worlds) - ${weeks + 1} and week < (select max(current_week) from worlds)
    group by reason order by reason`);
  return new Map(rows.map((row) => [row.reason, Number(row.per_week)]));
}
