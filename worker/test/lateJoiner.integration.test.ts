/**
 * The economy benchmark's late joiner (issue 26 item 4, docs/economy.md "A late joiner"): a newcomer
 * reading the market builds the steps of the taught chain the exchange is not glutted with and buys the
 * rest, so its $100,000 staffs the buildings it has; in a fresh world (every price at its base) the same
 * reading builds all four steps, as the Learning Base teaches.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PUBLIC_WORLD_ID, mulberry32 } from '@marketcraft/shared';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { chainStrategy } from '../bench/economy/strategies/chain.ts';
import { loadCatalogue, type StrategyContext } from '../bench/economy/strategies/common.ts';
import { foundPlayer } from '../bench/economy/world.ts';

const GRANT_CENTS = 10_000_000;

let database: TestDatabase;
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await database.drop();
});

/** Founds a $100,000 company and plays the newcomer's first week; its buildings as type: employees. */
async function firstWeek(): Promise<{ buildings: Record<string, number>; cashCents: number }> {
  const { db } = database;
  const company = await foundPlayer(db, 'Newcomer', GRANT_CENTS);
  const ctx: StrategyContext = {
    db,
    companyId: company.id,
    partnerIds: [],
    catalogue: await loadCatalogue(db),
    rng: mulberry32(1),
    newcomers: () => [],
    note: () => {},
  };
  const strategy = chainStrategy({ name: 'late joiner', pricing: 'reference', reserveCents: 2_000_000, reading: 'market', buildOrBuy: true });
  await strategy.play(ctx, 1);
  const rows = await db.execute<{ type: string; employees: number }>(sql`
    select type, employees from buildings where company_id = ${company.id} order by id`);
  const [cash] = await db.execute<{ cash_cents: number }>(sql`select cash_cents from companies where id = ${company.id}`);
  return { buildings: Object.fromEntries(rows.map((row) => [row.type, Number(row.employees)])), cashCents: Number(cash!.cash_cents) };
}

/** Sets the exchange price of the named products to `percent` of their base price. */
async function priceAt(names: string[], percent: number): Promise<void> {
  await database.db.execute(sql`
    update world_products wp set current_price_cents = greatest(1, round(p.base_price_cents * ${percent}::int / 100.0))
    from products p where p.id = wp.product_id and wp.world_id = ${PUBLIC_WORLD_ID} and p.name in ${sql`(${sql.join(
      names.map((name) => sql`${name}`),
      sql`, `,
    )})`}`);
}

describe("the economy benchmark's late joiner", () => {
  it('in a fresh world builds the taught chain: farm, mill, bakery and store, and cannot staff them', async () => {
    await priceAt(['Wheat', 'Wheat Flour', 'Whole Wheat Flour', 'Rye', 'Rye Flour'], 100);
    const { buildings } = await firstWeek();
    expect(Object.keys(buildings).sort()).toEqual(['bakery', 'farm', 'mill', 'store']);
    // $80,000 of buildings leave $10,000 above the inputs' floor: two hires, efficiency 25-35%.
    expect(Object.values(buildings).reduce((sum, employees) => sum + employees, 0)).toBe(6);
  });

  it('with the grain and flour glutted (70% of base) buys them, and staffs its bakery to 100% with the money saved', async () => {
    await priceAt(['Wheat', 'Wheat Flour', 'Whole Wheat Flour', 'Rye', 'Rye Flour'], 70);
    const { buildings, cashCents } = await firstWeek();
    expect(Object.keys(buildings).sort()).toEqual(['bakery', 'store']);
    expect(buildings.bakery).toBe(9);
    expect(buildings.store).toBeGreaterThan(1);
    expect(cashCents).toBeGreaterThanOrEqual(0);
  });
});
