/**
 * Politics in real turns (docs/economy.md, "8. Politics" and "4. Costs, taxes and subsidies"):
 * active events change the cash of the turns they cover, and every 12th week an election moves
 * each country's tax rate and halves influence. The bots are switched off in this file's own
 * database so that nobody but the test lobbies in its countries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { act } from '@marketcraft/db';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { ELECTION_INTERVAL_WEEKS, SUBSIDY_PER_BUILDING, dollarsToCents } from '@marketcraft/shared';
import { runTurn } from '../src/turn/index.ts';
import { createCompany, createTurnWorld, insertBuilding, worldWeek, type TurnWorld } from './fixtures.ts';

async function ledger(db: TestDatabase['db'], companyId: number, week: number, reason: string): Promise<number> {
  const [row] = await db.execute<{ total: number | null }>(sql`
    select sum(amount_cents)::bigint as total from transactions where company_id = ${companyId} and week = ${week} and reason = ${reason}`);
  return Number(row?.total ?? 0);
}

async function firstCityOf(db: TestDatabase['db'], countryId: number): Promise<number> {
  const [row] = await db.execute<{ id: number }>(sql`select id from cities where country_id = ${countryId} order by id limit 1`);
  return Number(row?.id);
}

async function taxRate(db: TestDatabase['db'], countryId: number): Promise<number> {
  const [row] = await db.execute<{ tax_rate: number }>(sql`select tax_rate from world_countries where world_id = 1 and country_id = ${countryId}`);
  return Number(row?.tax_rate);
}

describe('politics in real turns', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await database.db.execute(sql`update companies set status = 'bankrupt' where is_bot`);
  });
  afterAll(async () => {
    await database.drop();
  });

  it("an active subsidy pays $500 per building there; an active tax cut lowers the tax on that week's profit", async () => {
    const { db } = database;
    const world: TurnWorld = await createTurnWorld(db);
    const week = await worldWeek(db);
    const [home, subsidised] = world.countryIds as [number, number];

    // Two farms in the subsidised country (no recipe: they only cost wages and upkeep).
    const farmer = await createCompany(db, { name: `Farmer ${world.tag}`, cashCents: 10_000_000 });
    const subsidisedCity = await firstCityOf(db, subsidised);
    await insertBuilding(db, { companyId: farmer, type: 'farm', cityId: subsidisedCity });
    await insertBuilding(db, { companyId: farmer, type: 'farm', cityId: subsidisedCity });

    // A store selling bread at the market price in the home country (tax 20%), which cuts taxes by 5 points this week.
    const shopkeeper = await createCompany(db, { name: `Shopkeeper ${world.tag}`, cashCents: 10_000_000 });
    const store = await insertBuilding(db, { companyId: shopkeeper, type: 'store', cityId: world.retailCityId });
    await db.execute(sql`
      insert into store_products (world_id, building_id, product_id, quantity, retail_price_cents, cost_price_cents)
      values (1, ${store}, ${world.bread}, 500, 2625, 2625)`);
    // Bread the fixture put on the shelf, never bought: no goods taxed yet (as after the 0022 upgrade),
    // so this week's tax is on the sales alone (the accrual's goods change starts next week).
    await db.execute(sql`update companies set taxed_goods_cents = null where id = ${shopkeeper}`);

    await db.execute(sql`
      insert into political_events (world_id, country_id, event_type, description, effect_value, started_week, active_until_week) values
        (1, ${subsidised}, 'subsidy', 'Test subsidy', ${SUBSIDY_PER_BUILDING}, ${week}, ${week}),
        (1, ${home}, 'tax_cut', 'Test tax cut', 5, ${week}, ${week})`);

    const result = await runTurn(db);
    expect(result.status).toBe('advanced');

    expect(await ledger(db, farmer, week, 'subsidy')).toBe(2 * dollarsToCents(SUBSIDY_PER_BUILDING));
    const sales = await ledger(db, shopkeeper, week, 'store_sales');
    const profit = sales + (await ledger(db, shopkeeper, week, 'wages')) + (await ledger(db, shopkeeper, week, 'operating_costs'));
    expect(sales).toBeGreaterThan(0);
    expect(profit).toBeGreaterThan(0);
    // 20% base rate - 5 points of the active cut = 15%.
    expect(await ledger(db, shopkeeper, week, 'tax')).toBe(-Math.round((profit * 15) / 100));
    // The test's events were for this week only: next week pays only for subsidies active then (rolled by the turn, if any).
    const next = await runTurn(db);
    expect(next.status).toBe('advanced');
    const [active] = await db.execute<{ count: number }>(sql`
      select count(*)::int as count from political_events
      where country_id = ${subsidised} and event_type = 'subsidy' and started_week <= ${week + 1} and active_until_week >= ${week + 1}`);
    expect(await ledger(db, farmer, week + 1, 'subsidy')).toBe(Number(active?.count) * 2 * dollarsToCents(SUBSIDY_PER_BUILDING));
  });

  it('every 12th week each country votes: lobbied rates move 3 points, others return toward base, influence halves', async () => {
    const { db } = database;
    const world: TurnWorld = await createTurnWorld(db);
    const [lobbied, atBase, aboveBase] = world.countryIds as [number, number, number];
    // Rates 20 (base 20), 25 (base 25), and 35 above its base of 30.
    await db.execute(sql`update world_countries set tax_rate = 35 where world_id = 1 and country_id = ${aboveBase}`);
    const lobbyist = await createCompany(db, { name: `Lobbyist ${world.tag}`, cashCents: 10_000_000 });
    await act(db, 'investInPolitics', { companyId: lobbyist, actingUserId: null, input: { country_id: lobbied, amount: 5_000 } });
    // Contested: a rival backs higher taxes where the rate is at its base, with more points than the lobby for lower.
    const rival = await createCompany(db, { name: `Rival ${world.tag}`, cashCents: 10_000_000 });
    const contested = (await createTurnWorld(db, { countries: 1 })).countryIds[0]!;
    await act(db, 'investInPolitics', { companyId: lobbyist, actingUserId: null, input: { country_id: contested, amount: 2_000 } });
    await act(db, 'investInPolitics', { companyId: rival, actingUserId: null, input: { country_id: contested, amount: 4_000, platform: 'higher_taxes' } });

    // Jump to the election week.
    const electionWeek = Math.ceil((await worldWeek(db)) / ELECTION_INTERVAL_WEEKS) * ELECTION_INTERVAL_WEEKS;
    await db.execute(sql`update worlds set current_week = ${electionWeek} where id = 1`);
    const result = await runTurn(db);
    expect(result.status).toBe('advanced');

    expect(await taxRate(db, lobbied)).toBe(17);
    expect(await taxRate(db, atBase)).toBe(25);
    // Above its base: the citizens' 300 points win a return toward it.
    expect(await taxRate(db, aboveBase)).toBe(32);
    // 40 points for higher taxes beat 20 for lower: the rate rises 3 points.
    expect(await taxRate(db, contested)).toBe(23);
    const [influence] = await db.execute<{ influence_points: number }>(sql`
      select influence_points from influence_records where company_id = ${lobbyist} and country_id = ${lobbied}`);
    expect(Number(influence?.influence_points)).toBe(25);
    const elections = await db.execute<{ country_id: number; description: string; beneficiary_company_id: number | null }>(sql`
      select country_id, description, beneficiary_company_id from political_events
      where event_type = 'election' and started_week = ${electionWeek} and country_id in (${lobbied}, ${atBase}, ${aboveBase}) order by country_id`);
    expect(elections).toHaveLength(3);
    expect(elections[0]).toMatchObject({ country_id: lobbied, beneficiary_company_id: lobbyist });
    expect(elections[0]!.description).toContain('20% -> 17%');
    expect(elections[2]!.description).toContain('35% -> 32%');

    // Not an election week: rates stay and influence is kept.
    await act(db, 'investInPolitics', { companyId: lobbyist, actingUserId: null, input: { country_id: lobbied, amount: 1_000 } });
    const after = await runTurn(db);
    expect(after.status).toBe('advanced');
    expect(await taxRate(db, lobbied)).toBe(17);
    const [kept] = await db.execute<{ influence_points: number }>(sql`
      select influence_points from influence_records where company_id = ${lobbyist} and country_id = ${lobbied}`);
    expect(Number(kept?.influence_points)).toBe(35);
  });
});
