/**
 * A new world's first turns are planned on statistics that know it: createWorld analyzes the
 * tables it filled (its products and 15,200 city markets). Without that the planner, until
 * autovacuum came by, expected one city market for the new world and the store sales joined the
 * markets to the products row by row (1-6 s of CPU a turn instead of about 30 ms).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createWorld, users } from '../src/index.ts';
import { cityMarketsSql } from '../src/game/goods/prices.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing/freshDatabase.ts';

describe("a new world's statistics", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ max: 2 });
  });
  afterAll(async () => {
    await database.drop();
  });

  it("the planner expects the new world's city markets, as many as there are, from its first turn", async () => {
    const [admin] = await database.db.insert(users).values({ email: 'statistics@example.com', isAdmin: true }).returning({ id: users.id });
    const world = await createWorld(
      database.db,
      { id: admin!.id, isAdmin: true },
      {
        name: 'Planned class',
        turnIntervalMinutes: null,
        startingCashDollars: 100_000,
        bots: 2,
        maxPlayers: 30,
        seed: 7,
      },
    );
    const [count] = await database.db.execute<{ markets: number }>(sql`select count(*)::int as markets from city_market_data where world_id = ${world.id}`);
    const markets = Number(count!.markets);
    expect(markets).toBeGreaterThan(10_000);
    // The store sales' read of the world's city markets (each joined to its product's price).
    const [plan] = await database.db.execute<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
      sql`explain (format json) select * from ${cityMarketsSql(world.id)} cmd`,
    );
    const expected = plan!['QUERY PLAN'][0].Plan['Plan Rows'];
    expect(expected).toBeGreaterThan(markets / 2);
    expect(expected).toBeLessThan(markets * 2);
  });
});
