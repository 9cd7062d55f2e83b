/**
 * The dashboard's news feed (spec section 9): the 5 latest political events, the 5 latest ledger
 * rows of any company whose absolute amount is over $10,000, and the 3 latest stock price updates
 * of player (non-bot) companies; merged newest first, at most 15 items. Transactions are shown by
 * company name with a public phrase chosen from the ledger row's type and reason (never the
 * company's own description, which may name private details).
 */
import { sql } from 'drizzle-orm';
import {
  LARGE_TRANSACTION_THRESHOLD,
  NEWS_LARGE_TRANSACTIONS,
  NEWS_MAX_ITEMS,
  NEWS_POLITICAL_EVENTS,
  NEWS_STOCK_UPDATES,
  centsToDollars,
  dollarsToCents,
  formatCents,
  priceChangePercent,
  type PoliticalEventType,
  type NewsItem,
} from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';

/** Shocks and announcements of a classroom world in the feed, each. */
const NEWS_CLASSROOM_ITEMS = 3;

const REASON_PHRASES: Record<string, [spent: string, received: string]> = {
  build: ['Built a new building', 'Built a new building'],
  building_sale: ['Sold a building', 'Sold a building'],
  stock_buy: ['Bought shares', 'Bought shares'],
  stock_sell: ['Sold shares', 'Sold shares'],
  research: ['Funded research', 'Funded research'],
  politics: ['Invested in politics', 'Invested in politics'],
  dividend: ['Paid dividends', 'Received dividends'],
  tax: ['Paid taxes', 'Received a tax refund'],
  subsidy: ['Repaid a subsidy', 'Received a subsidy'],
  wages: ['Paid wages', 'Paid wages'],
  hire: ['Hired employees', 'Hired employees'],
  equipment: ['Upgraded equipment', 'Upgraded equipment'],
  market_buy: ['Bought goods on the market', 'Bought goods on the market'],
  market_sell: ['Sold goods on the market', 'Sold goods on the market'],
};

const TYPE_PHRASES: Record<string, [spent: string, received: string]> = {
  production: ['Paid production costs', 'Earned from production'],
  sale: ['Refunded sales', 'Made big sales'],
  purchase: ['Made a large purchase', 'Was refunded a purchase'],
  stock_trade: ['Bought shares', 'Sold shares'],
  building: ['Built a new building', 'Sold a building'],
  other: ['Made a large payment', 'Received a large payment'],
};

/** The public phrase for a ledger row: by reason when known, else by type. */
function publicTransactionPhrase(type: string, reason: string, amountCents: number): string {
  const phrases = REASON_PHRASES[reason] ?? TYPE_PHRASES[type] ?? TYPE_PHRASES.other!;
  return amountCents < 0 ? phrases[0] : phrases[1];
}

export async function recentNews(db: DbExecutor, worldId: number): Promise<NewsItem[]> {
  const thresholdCents = dollarsToCents(LARGE_TRANSACTION_THRESHOLD);
  const [events, transactions, stocks, shocks, announcements] = await Promise.all([
    db.execute<{
      id: number;
      country_id: number;
      country_name: string;
      event_type: PoliticalEventType;
      description: string;
      week: number;
      created_at: Date | string;
    }>(sql`
      select e.id, e.country_id, c.name as country_name, e.event_type, e.description, e.started_week as week, e.created_at
      from political_events e join countries c on c.id = e.country_id
      where e.world_id = ${worldId}
      order by e.created_at desc, e.id desc limit ${NEWS_POLITICAL_EVENTS}`),
    db.execute<{
      id: number;
      company_id: number;
      company_name: string;
      type: string;
      reason: string;
      amount_cents: number;
      week: number;
      created_at: Date | string;
    }>(sql`
      select t.id, t.company_id, c.name as company_name, t.type, t.reason, t.amount_cents, t.week, t.created_at
      from transactions t join companies c on c.world_id = t.world_id and c.id = t.company_id
      where t.world_id = ${worldId} and abs(t.amount_cents) > ${thresholdCents}
      order by t.created_at desc, t.id desc limit ${NEWS_LARGE_TRANSACTIONS}`),
    db.execute<{ company_id: number; company_name: string; week: number; price_cents: number; previous_cents: number | null; created_at: Date | string }>(sql`
      select h.company_id, c.name as company_name, h.week, h.price_cents, h.created_at,
             (select p.price_cents from stock_price_history p
               where p.world_id = h.world_id and p.company_id = h.company_id and p.week < h.week order by p.week desc limit 1) as previous_cents
      from stock_price_history h join companies c on c.world_id = h.world_id and c.id = h.company_id
      where h.world_id = ${worldId} and not c.is_bot
      order by h.created_at desc, h.week desc limit ${NEWS_STOCK_UPDATES}`),
    db.execute<{ id: number; description: string; country_id: number | null; week: number; created_at: Date | string }>(sql`
      select id, description, country_id, start_week as week, created_at from world_shocks
      where world_id = ${worldId} order by created_at desc, id desc limit ${NEWS_CLASSROOM_ITEMS}`),
    db.execute<{ id: number; message: string; week: number; created_at: Date | string }>(sql`
      select id, message, week, created_at from world_announcements
      where world_id = ${worldId} order by created_at desc, id desc limit ${NEWS_CLASSROOM_ITEMS}`),
  ]);
  const items: NewsItem[] = [];
  for (const shock of shocks) {
    items.push({
      id: `shock-${shock.id}`,
      kind: 'shock',
      event_type: null,
      description: `Shock: ${shock.description}`,
      amount: null,
      company_id: null,
      country_id: shock.country_id === null ? null : Number(shock.country_id),
      week: Number(shock.week),
      created_at: new Date(shock.created_at).toISOString(),
    });
  }
  for (const announcement of announcements) {
    items.push({
      id: `announcement-${announcement.id}`,
      kind: 'announcement',
      event_type: null,
      description: `Instructor: ${announcement.message}`,
      amount: null,
      company_id: null,
      country_id: null,
      week: Number(announcement.week),
      created_at: new Date(announcement.created_at).toISOString(),
    });
  }
  for (const event of events) {
    items.push({
      id: `political-${event.id}`,
      kind: 'political',
      event_type: event.event_type,
      // The turn's events name their country already ('Fenwick Isles raises taxes by 2 points'): 'Fenwick Isles: Fenwick Isles raises ...' read twice.
      description: event.description.startsWith(event.country_name) ? event.description : `${event.country_name}: ${event.description}`,
      amount: null,
      company_id: null,
      country_id: Number(event.country_id),
      week: Number(event.week),
      created_at: new Date(event.created_at).toISOString(),
    });
  }
  for (const row of transactions) {
    const amountCents = Number(row.amount_cents);
    items.push({
      id: `transaction-${row.id}`,
      kind: 'transaction',
      event_type: null,
      description: `${row.company_name}: ${publicTransactionPhrase(row.type, row.reason, amountCents)} (${formatCents(Math.abs(amountCents))})`,
      amount: centsToDollars(amountCents),
      company_id: Number(row.company_id),
      country_id: null,
      week: Number(row.week),
      created_at: new Date(row.created_at).toISOString(),
    });
  }
  for (const row of stocks) {
    const price = Number(row.price_cents);
    const previous = row.previous_cents === null ? null : Number(row.previous_cents);
    const change = priceChangePercent(price, previous);
    const trend =
      previous === null
        ? `listed at ${formatCents(price)}`
        : change === 0
          ? `unchanged at ${formatCents(price)}`
          : `${change > 0 ? 'up' : 'down'} to ${formatCents(price)} (${change > 0 ? '+' : ''}${change}%)`;
    items.push({
      id: `stock-${row.company_id}-${row.week}`,
      kind: 'stock',
      event_type: null,
      description: `${row.company_name} shares ${trend} in week ${row.week}`,
      amount: null,
      company_id: Number(row.company_id),
      country_id: null,
      week: Number(row.week),
      created_at: new Date(row.created_at).toISOString(),
    });
  }
  return items.sort((a, b) => b.created_at.localeCompare(a.created_at)).slice(0, NEWS_MAX_ITEMS);
}
