/**
 * Bots (owned by the bots engineer): the 25 seeded bots on a fresh copy of the seeded world.
 * Bots act only through the players' operations, so every check here reads what those operations
 * wrote: the ledger, buildings, shelves, market activity, portfolios.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PUBLIC_WORLD_ID, mulberry32 } from '@marketcraft/shared';
import { changeCash, cityMarketsSql, ledgerMismatches, shareMismatches, type Database, act } from '@marketcraft/db';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { runBotTurn, type BotTurnSummary } from '../src/bots/index.ts';
import { BOT_BUILDING_CAP, BOT_CASH_RESERVE_CENTS, BOT_MAX_MARKUP, BOT_MIN_MARKUP, BOT_SPEND_SHARE_PER_TURN } from '../src/bots/budget.ts';
import { SNAPSHOT_QUERIES, loadBotsSnapshot } from '../src/bots/snapshot.ts';
import { runTurn } from '../src/turn/index.ts';

interface BotRow {
  id: number;
  name: string;
  strategy: string;
  cash: number;
  buildings: number;
}

async function botRows(db: Database): Promise<BotRow[]> {
  const rows = await db.execute<{ id: number; name: string; strategy: string; cash_cents: number; buildings: number }>(sql`
    select c.id, c.name, c.strategy, c.cash_cents, (select count(*) from buildings b where b.company_id = c.id)::int as buildings
    from companies c where c.is_bot order by c.id`);
  return rows.map((row) => ({ id: Number(row.id), name: row.name, strategy: row.strategy, cash: Number(row.cash_cents), buildings: Number(row.buildings) }));
}

async function maxTransactionId(db: Database): Promise<number> {
  const [row] = await db.execute<{ id: number }>(sql`select coalesce(max(id), 0)::bigint as id from transactions`);
  return Number(row?.id ?? 0);
}

/** Per company: the sum of debits and the sum of all ledger rows written after `afterId`. */
async function ledgerSince(db: Database, afterId: number): Promise<Map<number, { debits: number; total: number; reasons: string[] }>> {
  const rows = await db.execute<{ company_id: number; debits: number; total: number; reasons: string[] }>(sql`
    select company_id, coalesce(sum(-amount_cents) filter (where amount_cents < 0), 0)::bigint as debits,
           sum(amount_cents)::bigint as total, array_agg(distinct reason order by reason) as reasons
    from transactions where id > ${afterId} group by company_id`);
  return new Map(rows.map((row) => [Number(row.company_id), { debits: Number(row.debits), total: Number(row.total), reasons: row.reasons }]));
}

async function botWeek(db: Database, week: number): Promise<BotTurnSummary> {
  return db.transaction((tx) => runBotTurn(tx, PUBLIC_WORLD_ID, week, mulberry32(week)));
}

/** What the bots change, as plain rows (ids of new rows depend on nothing but the order of actions). */
async function botEffects(db: Database) {
  const q = async (query: ReturnType<typeof sql>) => (await db.execute(query)).map((row) => ({ ...row }));
  return {
    companies: await q(sql`select id, cash_cents from companies order by id`),
    ledger: await q(sql`select company_id, type, reason, amount_cents, description, week from transactions order by id`),
    buildings: await q(sql`select id, company_id, type, city_id, employees, equipment_level, selected_recipe_id, selected_category from buildings order by id`),
    inventory: await q(sql`select company_id, product_id, quantity, average_cost_cents from inventory_items order by 1, 2`),
    backRooms: await q(sql`select building_id, product_id, quantity, purchase_price_cents from building_inventory_items order by 1, 2`),
    shelves: await q(sql`select building_id, product_id, quantity, retail_price_cents, cost_price_cents from store_products order by 1, 2`),
    marketActivity: await q(sql`select week, product_id, units_bought, units_sold from market_activity order by 1, 2`),
    portfolios: await q(sql`select holder_company_id, issuer_company_id, shares_owned from portfolio_entries order by 1, 2`),
    influence: await q(sql`select company_id, country_id, influence_points from influence_records order by 1, 2`),
    research: await q(sql`select company_id, upgrade_id from company_research order by 1, 2`),
  };
}

describe('bots on the seeded world (runBotTurn called directly)', () => {
  let database: TestDatabase;
  const summaries: BotTurnSummary[] = [];
  let start: BotRow[] = [];
  const WEEKS = 6;

  beforeAll(async () => {
    database = await createTestDatabase();
    const { db } = database;
    start = await botRows(db);
    for (let week = 1; week <= WEEKS; week += 1) {
      const before = await botRows(db);
      const afterId = await maxTransactionId(db);
      const summary = await botWeek(db, week);
      summaries.push(summary);
      const ledger = await ledgerSince(db, afterId);
      const after = await botRows(db);
      for (const bot of before) {
        const moved = ledger.get(bot.id) ?? { debits: 0, total: 0, reasons: [] };
        const now = after.find((row) => row.id === bot.id);
        // Budget: at most 30% of the cash it started the turn with, and never under the reserve.
        expect(moved.debits, `${bot.name} week ${week}`).toBeLessThanOrEqual(Math.floor(bot.cash * BOT_SPEND_SHARE_PER_TURN));
        if (moved.debits > 0) expect(now!.cash, `${bot.name} week ${week}`).toBeGreaterThanOrEqual(BOT_CASH_RESERVE_CENTS);
        expect(now!.cash).toBe(bot.cash + moved.total);
        expect(now!.buildings).toBeLessThanOrEqual(BOT_BUILDING_CAP);
      }
    }
  });
  afterAll(async () => {
    await database.drop();
  });

  it('every bot takes its turn and acts', () => {
    for (const summary of summaries) {
      expect(summary.bots).toBe(25);
      expect(summary.actions).toBeGreaterThan(0);
      // Planned from the locked snapshot, nothing is refused; each kind is one call of its action.
      expect(summary.refused).toBe(0);
      expect(summary.batches).toBeGreaterThan(0);
    }
    // The first week sets every bot up (categories, staff, inputs, shelves): many actions.
    expect(summaries[0]!.actions).toBeGreaterThan(100);
    const kinds = new Set(summaries.flatMap((summary) => Object.keys(summary.byKind)));
    for (const kind of ['build', 'hire', 'buy_inputs', 'restock', 'reprice', 'buy_shares', 'select_category']) expect(kinds).toContain(kind);
  });

  it('builders build: vertical integrators and aggressive expanders own more buildings, within the cap', async () => {
    const now = await botRows(database.db);
    const count = (rows: BotRow[], strategy: string) => rows.filter((row) => row.strategy === strategy).reduce((sum, row) => sum + row.buildings, 0);
    expect(count(now, 'aggressive_expansion')).toBeGreaterThan(count(start, 'aggressive_expansion'));
    expect(count(now, 'vertical_integration')).toBeGreaterThan(count(start, 'vertical_integration'));
    expect(count(now, 'value_investor')).toBe(count(start, 'value_investor'));
    for (const row of now) expect(row.buildings).toBeLessThanOrEqual(BOT_BUILDING_CAP);
    // New production buildings have a recipe of their own type; new stores a category.
    const unassigned = await database.db.execute(sql`
      select b.id from buildings b join companies c on c.id = b.company_id
      left join recipes r on r.id = b.selected_recipe_id
      where c.is_bot and ((b.type <> 'store' and (r.id is null or lower(r.building_type) <> b.type)))`);
    expect(unassigned).toHaveLength(0);
  });

  it('trades goods and shares, stocks shelves and prices them within the markup range on the city reference price', async () => {
    const { db } = database;
    const [activity] = await db.execute<{ rows: number }>(sql`select count(*)::int as rows from market_activity where units_bought > 0`);
    expect(Number(activity?.rows)).toBeGreaterThan(0);
    const [holdings] = await db.execute<{ rows: number; max_share: number }>(sql`
      select count(*)::int as rows, coalesce(max(p.shares_owned::numeric / s.total_shares), 0)::float as max_share
      from portfolio_entries p join companies c on c.id = p.holder_company_id join share_records s on s.company_id = p.issuer_company_id
      where c.is_bot`);
    expect(Number(holdings?.rows)).toBeGreaterThan(0);
    expect(Number(holdings?.max_share)).toBeLessThanOrEqual(0.2);
    // Bots together leave at least half of every company's shares on the market.
    const [botHeld] = await db.execute<{ max_share: number }>(sql`
      select coalesce(max(held::numeric / total_shares), 0)::float as max_share from (
        select s.total_shares, sum(p.shares_owned) as held
        from portfolio_entries p join companies c on c.id = p.holder_company_id join share_records s on s.company_id = p.issuer_company_id
        where c.is_bot group by s.company_id, s.total_shares) per_issuer`);
    expect(Number(botHeld?.max_share)).toBeLessThanOrEqual(0.5);
    const [restocked] = await db.execute<{ rows: number }>(sql`
      select count(*)::int as rows from transactions t join companies c on c.id = t.company_id where c.is_bot and t.reason = 'store_stock'`);
    expect(Number(restocked?.rows)).toBeGreaterThan(0);
    const prices = await db.execute<{ ratio: number }>(sql`
      select sp.retail_price_cents::float / cmd.market_price_cents as ratio
      from store_products sp join buildings b on b.id = sp.building_id join companies c on c.id = b.company_id
      join ${cityMarketsSql(PUBLIC_WORLD_ID)} cmd on cmd.city_id = b.city_id and cmd.product_id = sp.product_id
      where c.is_bot and sp.is_active`);
    expect(prices.length).toBeGreaterThan(0);
    for (const price of prices) {
      expect(Number(price.ratio)).toBeGreaterThanOrEqual(BOT_MIN_MARKUP - 0.01);
      expect(Number(price.ratio)).toBeLessThanOrEqual(BOT_MAX_MARKUP + 0.01);
    }
  });

  it('keeps the books: every cash change has its ledger row, no share is over-held, no cash is negative', async () => {
    const { db } = database;
    expect(await ledgerMismatches(db)).toEqual([]);
    expect(await shareMismatches(db)).toEqual([]);
    const [negative] = await db.execute<{ rows: number }>(sql`select count(*)::int as rows from companies where cash_cents < 0`);
    expect(Number(negative?.rows)).toBe(0);
    const [badStock] = await db.execute<{ rows: number }>(sql`
      select ((select count(*) from inventory_items where quantity < 0) + (select count(*) from store_products where quantity < 0)
              + (select count(*) from building_inventory_items where quantity < 0))::int as rows`);
    expect(Number(badStock?.rows)).toBe(0);
  });
});

describe('bot limits', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('a bot at the building cap builds nothing; a bot under the reserve spends nothing', async () => {
    const { db } = database;
    const bots = await botRows(db);
    const expander = bots.find((bot) => bot.strategy === 'aggressive_expansion')!;
    const poor = bots.find((bot) => bot.strategy === 'retail_focus')!;
    const [city] = await db.execute<{ id: number }>(sql`select id from cities where bonus_type = 'retail' order by id limit 1`);
    for (let count = expander.buildings; count < BOT_BUILDING_CAP; count += 1) {
      await act(db, 'buildBuilding', { companyId: expander.id, actingUserId: null, input: { type: 'store', city_id: Number(city!.id) } });
    }
    // Down to $40,000 through the ledger (as if it had spent it).
    await changeCash(db, { companyId: poor.id, amountCents: -(poor.cash - 4_000_000), type: 'other', reason: 'test', description: 'test: spent elsewhere' });

    const afterId = await maxTransactionId(db);
    await botWeek(db, 1);
    await botWeek(db, 2);
    const ledger = await ledgerSince(db, afterId);
    const now = await botRows(db);
    expect(now.find((bot) => bot.id === expander.id)!.buildings).toBe(BOT_BUILDING_CAP);
    expect(ledger.get(expander.id)?.reasons ?? []).not.toContain('build');
    expect(ledger.get(poor.id)?.debits ?? 0).toBe(0);
    expect(await ledgerMismatches(db)).toEqual([]);
  });
});

describe('determinism', () => {
  it('the same world, weeks and seeds give the same actions and rows', async () => {
    const first = await createTestDatabase();
    const second = await createTestDatabase();
    try {
      const run = async (db: Database) => {
        const summaries: Omit<BotTurnSummary, 'timings'>[] = [];
        for (let week = 1; week <= 3; week += 1) {
          const { timings: _timings, ...summary } = await botWeek(db, week);
          summaries.push(summary);
        }
        return { summaries, effects: await botEffects(db) };
      };
      const a = await run(first.db);
      const b = await run(second.db);
      expect(a.summaries).toEqual(b.summaries);
      expect(a.effects).toEqual(b.effects);
    } finally {
      await first.drop();
      await second.drop();
    }
  });
});

describe('one snapshot', () => {
  it('the bots read the world in the same few statements whether there are 25 bots or 50', async () => {
    const database = await createTestDatabase();
    try {
      const { db } = database;
      const count = async () => {
        let statements = 0;
        const counting = { execute: (query: Parameters<Database['execute']>[0]) => ((statements += 1), db.execute(query)) } as unknown as Database;
        const snapshot = await loadBotsSnapshot(counting, 1, 1);
        return { statements, bots: snapshot.bots.length };
      };
      expect(await count()).toEqual({ statements: SNAPSHOT_QUERIES, bots: 25 });
      // 25 more bots, each with a store (copies of the seeded ones).
      await db.execute(sql`
        with copies as (
          insert into companies (world_id, name, cash_cents, starting_cash_cents, is_bot, strategy)
          select 1, name || ' II', cash_cents, starting_cash_cents, true, strategy from companies where is_bot order by id
          returning id)
        insert into buildings (world_id, company_id, type, city_id, construction_cost_cents, built_week)
        select 1, id, 'store', (select min(id) from cities), 1500000, 1 from copies`);
      expect(await count()).toEqual({ statements: SNAPSHOT_QUERIES, bots: 50 });
    } finally {
      await database.drop();
    }
  });
});

describe('bots inside whole turns', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('three turns advance with bots producing, shelving and selling; the books balance', async () => {
    const { db } = database;
    for (let turn = 0; turn < 3; turn += 1) {
      const result = await runTurn(db);
      expect(result.status).toBe('advanced');
    }
    expect(await ledgerMismatches(db)).toEqual([]);
    expect(await shareMismatches(db)).toEqual([]);
    const reasons = await db.execute<{ reason: string }>(sql`
      select distinct t.reason from transactions t join companies c on c.id = t.company_id where c.is_bot order by 1`);
    const seen = reasons.map((row) => row.reason);
    for (const reason of ['build', 'hire', 'market_buy', 'market_sell', 'store_stock']) expect(seen).toContain(reason);
    const [shelved] = await db.execute<{ units: number }>(sql`
      select coalesce(sum(sp.quantity), 0)::bigint as units from store_products sp join buildings b on b.id = sp.building_id
      join companies c on c.id = b.company_id where c.is_bot`);
    expect(Number(shelved?.units)).toBeGreaterThan(0);
  });

  it('over more weeks, makers sell what they make in their own stores, and no bot ever overdraws', { timeout: 240_000 }, async () => {
    const { db } = database;
    for (let turn = 0; turn < 5; turn += 1) {
      expect((await runTurn(db)).status).toBe('advanced');
      const [negative] = await db.execute<{ rows: number }>(sql`select count(*)::int as rows from companies where is_bot and cash_cents < 0`);
      expect(Number(negative?.rows)).toBe(0);
    }
    // Goods a bot made itself (a production line of its own) sold last week in its own stores.
    const own = await db.execute<{ name: string; units: number }>(sql`
      select c.name, sum(sp.units_sold_last_turn)::bigint as units
      from store_products sp join buildings s on s.id = sp.building_id join companies c on c.id = s.company_id
      where c.is_bot and exists (
        select 1 from buildings b join recipes r on r.id = b.selected_recipe_id
        where b.company_id = c.id and r.output_product_id = sp.product_id)
      group by c.name having sum(sp.units_sold_last_turn) > 0`);
    expect(own.length).toBeGreaterThanOrEqual(5);
    const [sales] = await db.execute<{ cents: number }>(sql`
      select coalesce(sum(t.amount_cents), 0)::bigint as cents from transactions t join companies c on c.id = t.company_id
      where c.is_bot and t.reason = 'store_sales'`);
    expect(Number(sales?.cents)).toBeGreaterThan(0);
    expect(await ledgerMismatches(db)).toEqual([]);
  });
});
