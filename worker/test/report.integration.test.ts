/**
 * "Week N results": after a real turn, a player's week report tells the week's story with the
 * figures the turn applied (the shelves, the warehouse, the ledger, the books, the leaderboard), and
 * past weeks stay readable after the next turn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { getWeekReport, listCompanies, listWeekReports, act } from '@marketcraft/db';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { runTurn } from '../src/turn/index.ts';
import { BANKRUPTCY_TURNS, PUBLIC_WORLD_ID } from '@marketcraft/shared';
import { cashOf, createCompany, createTurnWorld, insertBuilding, warehouse, worldWeek, type TurnWorld } from './fixtures.ts';

/** Dollars (the API's unit) to whole cents. */
const cents = (dollars: number) => Math.round(dollars * 100);

describe('week reports', () => {
  let database: TestDatabase;
  let world: TurnWorld;
  beforeAll(async () => {
    database = await createTestDatabase();
    world = await createTurnWorld(database.db);
  });
  afterAll(async () => {
    await database.drop();
  });

  it('tell the week: cash at start and end, sales by store and product, production by building, the ledger by reason, research, rank; past weeks stay', async () => {
    const { db } = database;
    const player = await createCompany(db, { name: `Reporter ${world.tag}`, cashCents: 50_000_000 });
    const bot = await createCompany(db, { name: `Bot ${world.tag}`, cashCents: 50_000_000, bot: true });
    const week = await worldWeek(db);

    const farm = await act(db, 'buildBuilding', { companyId: player, actingUserId: null, input: { type: 'farm', city_id: world.farmCityId } });
    await act(db, 'selectRecipe', { companyId: player, actingUserId: null, input: { id: farm.id, recipe_id: world.farmRecipeId } });
    await act(db, 'hireEmployees', { companyId: player, actingUserId: null, input: { id: farm.id, count: 5 } });
    const store = await act(db, 'buildBuilding', { companyId: player, actingUserId: null, input: { type: 'store', city_id: world.retailCityId } });
    await act(db, 'purchaseForBuilding', { companyId: player, actingUserId: null, input: { id: store.id, product_id: world.bread, quantity: 300 } });
    await act(db, 'transferToStore', {
      companyId: player,
      actingUserId: null,
      input: { id: store.id, product_id: world.bread, quantity: 300, retail_price: 3_900 / 100 },
    });
    const [upgrade] = await db.execute<{ id: number; name: string }>(sql`
      select id, name from research_upgrades where prerequisite_id is null order by research_cost_cents, id limit 1`);
    expect(upgrade, 'the seed has research upgrades').toBeDefined();
    await act(db, 'purchaseResearch', { companyId: player, actingUserId: null, input: { upgrade_id: Number(upgrade!.id) } });

    expect((await runTurn(db)).status).toBe('advanced');

    const report = await getWeekReport(db, player, week);
    expect(report.week).toBe(week);
    // Cash: the company started the week with its 500,000 (no ledger line yet) and ends it with what it holds now.
    expect(report.cash_start).toBe(500_000);
    expect(cents(report.cash_end)).toBe(await cashOf(db, player));
    // The week's ledger by reason adds up to the change of cash, line for line; the $0 production
    // line (what the farm made: report.production) is no cash flow.
    const ledger = await db.execute<{ reason: string; total: number; lines: number }>(sql`
      select reason, sum(amount_cents)::bigint as total, count(*)::int as lines from transactions
      where company_id = ${player} and week = ${week} and type <> 'production' group by reason`);
    const [made] = await db.execute<{ lines: number }>(sql`
      select count(*)::int as lines from transactions where company_id = ${player} and week = ${week} and type = 'production'`);
    expect(Number(made?.lines), 'the turn wrote its production line').toBe(1);
    expect(report.cash_flows.map((flow) => flow.type)).not.toContain('production');
    expect(report.cash_flows.map((flow) => [flow.reason, cents(flow.amount), flow.lines]).sort()).toEqual(
      ledger.map((row) => [row.reason, Number(row.total), Number(row.lines)]).sort(),
    );
    expect(report.cash_flows.reduce((sum, flow) => sum + cents(flow.amount), 0)).toBe(cents(report.cash_end) - cents(report.cash_start));

    // Sales: the shelf's units sold and the store revenue the ledger got.
    const [shelf] = await db.execute<{ units_sold_last_turn: number }>(sql`select units_sold_last_turn from store_products where building_id = ${store.id}`);
    expect(Number(shelf?.units_sold_last_turn)).toBeGreaterThan(0);
    expect(report.sales).toEqual([
      expect.objectContaining({ building_id: store.id, building: 'Store', product_id: world.bread, units: Number(shelf?.units_sold_last_turn) }),
    ]);
    const storeSales = ledger.find((row) => row.reason === 'store_sales');
    expect(cents(report.sales[0]!.revenue)).toBe(Number(storeSales?.total));
    expect(report.store_revenue).toBe(report.sales[0]!.revenue);

    // Production: what entered the warehouse, by building.
    const wheat = await warehouse(db, player, world.wheat);
    expect(wheat).toBeGreaterThan(0);
    expect(report.production).toEqual([expect.objectContaining({ building_id: farm.id, product_id: world.wheat, role: 'output', units: wheat })]);

    // Costs and taxes as the ledger has them; the books' profit and net worth.
    const total = (reason: string) => Math.abs(Number(ledger.find((row) => row.reason === reason)?.total ?? 0)) / 100;
    expect(report.wages).toBe(total('wages'));
    expect(report.operating_costs).toBe(total('operating_costs'));
    expect(report.taxes).toBe(total('tax'));
    const [books] = await db.execute<{ profit_cents: number; net_worth_cents: number }>(sql`
      select profit_cents, net_worth_cents from financial_history where company_id = ${player} and week = ${week}`);
    expect(cents(report.profit)).toBe(Number(books?.profit_cents));
    expect(cents(report.net_worth)).toBe(Number(books?.net_worth_cents));

    expect(report.research).toEqual([{ upgrade_id: Number(upgrade!.id), name: upgrade!.name }]);

    // Rank: its place on the leaderboard right after the turn (before the bots' moves for next week the order can differ only by them).
    const ranked = await db.execute<{ company_id: number }>(sql`
      select company_id from financial_history f join companies c on c.id = f.company_id
      where f.week = ${week} and c.status = 'active' order by f.net_worth_cents desc, f.company_id`);
    expect(report.rank).toBe(ranked.findIndex((row) => Number(row.company_id) === player) + 1);
    expect(report.companies_ranked).toBe(ranked.length);
    expect(report.rank_before).toBeNull();
    expect((await listCompanies(db, 1, player)).length).toBeGreaterThanOrEqual(report.rank!);

    // Bots get no report; a week without a turn has none.
    await expect(getWeekReport(db, bot, week)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(getWeekReport(db, player, week + 1)).rejects.toMatchObject({ code: 'NOT_FOUND' });

    // The next turn: a second report, the rank before is last week's, and last week's report is unchanged.
    expect((await runTurn(db)).status).toBe('advanced');
    const next = await getWeekReport(db, player, week + 1);
    expect(next.rank_before).toBe(report.rank);
    expect(next.cash_start).toBe(report.cash_end);
    expect(await getWeekReport(db, player, week)).toEqual(report);
    const list = await listWeekReports(db, player);
    expect(list.map((entry) => entry.week)).toEqual([week, week + 1]);
    expect(list[0]).toEqual({
      week,
      cash_start: report.cash_start,
      cash_end: report.cash_end,
      net_worth: report.net_worth,
      profit: report.profit,
      store_revenue: report.store_revenue,
      rank: report.rank,
      rank_before: null,
    });
  });

  it("tell a company founded after a week's turn that it has no results for that week, rather than 'yet'", async () => {
    const { db } = database;
    expect((await runTurn(db)).status).toBe('advanced');
    const newcomer = await createCompany(db, { name: `Newcomer ${world.tag}`, cashCents: 10_000_000 });
    const week = await worldWeek(db);
    await expect(getWeekReport(db, newcomer, week - 1)).rejects.toThrow(
      `Your company has no results for week ${week - 1}: it was founded after that week's turn (its first results are week ${week}'s)`,
    );
    await expect(getWeekReport(db, newcomer, week)).rejects.toThrow(`No report for week ${week} yet: a week's report is written by the turn that ends it`);
  });
  it("list the week's political events of the countries where the player has buildings, and none of them for a company the turn closed", async () => {
    const { db } = database;
    const week = await worldWeek(db);
    const [elsewhere] = await db.execute<{ id: number }>(sql`select id from cities where country_id = ${world.countryIds[1]!} order by id limit 1`);
    const [event] = await db.execute<{ id: number }>(sql`
      insert into political_events (world_id, country_id, event_type, description, started_week, active_until_week)
      values (${PUBLIC_WORLD_ID}, ${world.countryIds[0]!}, 'election', ${`Election ${world.tag}`}, ${week}, ${week + 2}) returning id`);
    const there = await createCompany(db, { name: `Farmer here ${world.tag}`, cashCents: 50_000_000 });
    await insertBuilding(db, { companyId: there, type: 'farm', cityId: world.farmCityId });
    const away = await createCompany(db, { name: `Farmer away ${world.tag}`, cashCents: 50_000_000 });
    await insertBuilding(db, { companyId: away, type: 'farm', cityId: Number(elsewhere!.id) });
    // In debt for the last allowed turn: this turn closes it (and its farm in the event's country).
    const closed = await createCompany(db, { name: `Farmer in debt ${world.tag}`, cashCents: 50_000_000 });
    await insertBuilding(db, { companyId: closed, type: 'farm', cityId: world.farmCityId });
    await db.execute(sql`update companies set cash_cents = -10000000, negative_cash_turns = ${BANKRUPTCY_TURNS - 1} where id = ${closed}`);

    expect((await runTurn(db)).status).toBe('advanced');

    const eventIds = async (companyId: number) => (await getWeekReport(db, companyId, week)).events.map((item) => (item as { id: number }).id);
    expect(await eventIds(there)).toContain(Number(event!.id));
    expect((await getWeekReport(db, there, week)).events.find((item) => (item as { id: number }).id === Number(event!.id))).toMatchObject({
      event_type: 'election',
      yours: false,
    });
    expect(await eventIds(away)).not.toContain(Number(event!.id));
    const [status] = await db.execute<{ status: string }>(sql`select status from companies where id = ${closed}`);
    expect(status?.status).toBe('bankrupt');
    expect(await eventIds(closed)).not.toContain(Number(event!.id));
  });
});
