/**
 * The seeded world as the database holds it (issue 2): counts, uniqueness, chains, research tree,
 * market data, bots, and idempotence (seeding an empty database twice, even concurrently, gives
 * the same rows as seeding it once).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import postgres from 'postgres';
import { sql as drizzleSql } from 'drizzle-orm';
import { cityMarketsSql } from '../src/game/goods/prices.ts';
import {
  BUILDING_TYPES,
  CITY_BONUS_TYPES,
  PRODUCT_CATEGORIES,
  RESEARCH_CATEGORIES,
  RESEARCH_EFFECT_KEYS,
  BUILDING_TYPE_NAMES,
  dollarsToCents,
} from '@marketcraft/shared';
import { createTestDatabase, type TestDatabase } from '../src/testing/freshDatabase.ts';
import { migrateDatabase } from '../src/migrate.ts';
import { connectDatabase } from '../src/client.ts';
import { replaceDatabase } from '../src/testing/urls.ts';
import { seedWorld } from '../src/seed/index.ts';

const EXTRACTION_TYPES = Object.entries(BUILDING_TYPES)
  .filter(([, spec]) => spec.category === 'extraction')
  .map(([type]) => type);

describe('the seeded world', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('has 304 products with unique names in exactly the 7 categories, current price = base price', async () => {
    const rows = await database.sql<{ name: string; category: string; subcategory: string; base_price_cents: number; current_price_cents: number }[]>`
      select name, category, subcategory, base_price_cents, current_price_cents
      from products p join world_products wp on wp.world_id = 1 and wp.product_id = p.id`;
    expect(rows).toHaveLength(304);
    expect(new Set(rows.map((row) => row.name.toLowerCase())).size).toBe(304);
    expect(new Set(rows.map((row) => row.category))).toEqual(new Set(PRODUCT_CATEGORIES));
    for (const row of rows) {
      expect(row.subcategory.trim().length, row.name).toBeGreaterThan(0);
      expect(row.base_price_cents, row.name).toBeGreaterThan(0);
      expect(row.current_price_cents, row.name).toBe(row.base_price_cents);
    }
  });

  it('has the 17 building types of the build schema with their costs in cents', async () => {
    const rows = await database.sql<
      { type: string; name: string; category: string; construction_cost_cents: number; base_capacity: number; weekly_operating_cost_cents: number }[]
    >`
      select * from building_types order by type`;
    expect(rows).toHaveLength(17);
    expect(rows.map((row) => row.type).sort()).toEqual([...BUILDING_TYPE_NAMES].sort());
    for (const row of rows) {
      const spec = BUILDING_TYPES[row.type as keyof typeof BUILDING_TYPES];
      expect(row).toEqual({
        type: row.type,
        name: spec.name,
        category: spec.category,
        construction_cost_cents: dollarsToCents(spec.constructionCost),
        base_capacity: spec.baseCapacity,
        weekly_operating_cost_cents: dollarsToCents(spec.weeklyOperatingCost),
      });
    }
  });

  it('has recipes for every non-retail building type and none for stores; extraction recipes take no inputs', async () => {
    const rows = await database.sql<{ building_type: string; recipes: number; with_inputs: number; without_inputs: number }[]>`
      select r.building_type, count(*)::int as recipes,
             count(*) filter (where exists (select 1 from recipe_inputs i where i.recipe_id = r.id))::int as with_inputs,
             count(*) filter (where not exists (select 1 from recipe_inputs i where i.recipe_id = r.id))::int as without_inputs
      from recipes r group by r.building_type`;
    const byType = new Map(rows.map((row) => [row.building_type, row]));
    expect(byType.has('store')).toBe(false);
    for (const type of BUILDING_TYPE_NAMES.filter((name) => name !== 'store')) {
      const row = byType.get(type);
      expect(row?.recipes ?? 0, type).toBeGreaterThan(0);
      if (EXTRACTION_TYPES.includes(type)) expect(row?.with_inputs, type).toBe(0);
      else expect(row?.without_inputs, type).toBe(0);
    }
    const farmOutputs = await database.sql<{ name: string }[]>`
      select p.name from recipes r join products p on p.id = r.output_product_id where r.building_type = 'farm'`;
    expect(farmOutputs.map((row) => row.name)).toEqual(expect.arrayContaining(['Wheat', 'Corn', 'Barley', 'Hops', 'Cotton', 'Milk']));
  });

  it('makes every product obtainable: walking the recipe graph from extraction reaches all 304', async () => {
    const recipeRows = await database.sql<{ id: number; output_product_id: number }[]>`select id, output_product_id from recipes`;
    const inputRows = await database.sql<{ recipe_id: number; product_id: number }[]>`select recipe_id, product_id from recipe_inputs`;
    const productRows = await database.sql<{ id: number }[]>`select id from products`;
    const inputsByRecipe = new Map<number, number[]>();
    for (const input of inputRows) inputsByRecipe.set(input.recipe_id, [...(inputsByRecipe.get(input.recipe_id) ?? []), input.product_id]);
    const obtainable = new Set<number>();
    let grew = true;
    while (grew) {
      grew = false;
      for (const recipe of recipeRows) {
        if (obtainable.has(recipe.output_product_id)) continue;
        if ((inputsByRecipe.get(recipe.id) ?? []).every((productId) => obtainable.has(productId))) {
          obtainable.add(recipe.output_product_id);
          grew = true;
        }
      }
    }
    const missing = productRows.filter((row) => !obtainable.has(row.id));
    expect(missing).toEqual([]);
    expect(obtainable.size).toBe(304);
  });

  it('runs the spec chain farm wheat -> mill flour -> bakery bread', async () => {
    const chain = await database.sql<{ flour_input: string; bread_input: string }[]>`
      select wheat.name as flour_input, flour.name as bread_input
      from recipes mill_recipe
      join products flour on flour.id = mill_recipe.output_product_id and flour.name = 'Wheat Flour'
      join recipe_inputs mi on mi.recipe_id = mill_recipe.id
      join products wheat on wheat.id = mi.product_id
      join recipe_inputs bi on bi.product_id = flour.id
      join recipes bakery_recipe on bakery_recipe.id = bi.recipe_id and bakery_recipe.building_type = 'bakery'
      join products bread on bread.id = bakery_recipe.output_product_id and bread.name = 'White Bread'
      where mill_recipe.building_type = 'mill'`;
    expect(chain).toEqual([{ flour_input: 'Wheat', bread_input: 'Wheat Flour' }]);
  });

  it('has 50 uniquely named cities across countries with tax rates, every bonus type used at least twice', async () => {
    const cityRows = await database.sql<{ name: string; bonus_type: string; bonus_value: number; population: number; country: string }[]>`
      select c.name, c.bonus_type, c.bonus_value, c.population, k.name as country from cities c join countries k on k.id = c.country_id`;
    expect(cityRows).toHaveLength(50);
    expect(new Set(cityRows.map((row) => row.name)).size).toBe(50);
    for (const bonusType of CITY_BONUS_TYPES) {
      expect(cityRows.filter((row) => row.bonus_type === bonusType).length, bonusType).toBeGreaterThanOrEqual(2);
    }
    for (const row of cityRows) {
      expect(row.bonus_value).toBeGreaterThanOrEqual(5);
      expect(row.bonus_value).toBeLessThanOrEqual(25);
      expect(row.population).toBeGreaterThan(0);
    }
    const countryRows = await database.sql<{ name: string; tax_rate: number; base_tax_rate: number }[]>`
      select name, tax_rate, base_tax_rate from countries c join world_countries wc on wc.world_id = 1 and wc.country_id = c.id`;
    expect(countryRows.length).toBeGreaterThanOrEqual(8);
    expect(countryRows.length).toBeLessThanOrEqual(10);
    for (const country of countryRows) {
      expect(country.tax_rate).toBe(country.base_tax_rate);
      expect(country.tax_rate).toBeGreaterThanOrEqual(10);
      expect(country.tax_rate).toBeLessThanOrEqual(35);
      expect(
        cityRows.some((city) => city.country === country.name),
        country.name,
      ).toBe(true);
    }
  });

  it("has market data for every city and product: demand 0-100, a reference price of 130% of the market price x the city's 85-115% level", async () => {
    // The reference price is computed where it is read (cityMarketsSql): checked here against the
    // spec's formula written out by hand.
    const [summary] = await database.db.execute<{ rows: number; pairs: number; bad_demand: number; bad_price: number }>(drizzleSql`
      select count(*)::int as rows,
             count(distinct (m.city_id, m.product_id))::int as pairs,
             count(*) filter (where m.demand_level not between 0 and 100 or m.base_demand_level not between 0 and 100
                              or m.demand_level <> m.base_demand_level)::int as bad_demand,
             count(*) filter (where m.price_factor_bp not between 8500 and 11500
                              or m.market_price_cents <> greatest(1, round(p.current_price_cents * 130 * m.price_factor_bp / 1000000.0)))::int as bad_price
      from ${cityMarketsSql(1)} m join world_products p on p.world_id = m.world_id and p.product_id = m.product_id`);
    expect(summary).toEqual({ rows: 15_200, pairs: 15_200, bad_demand: 0, bad_price: 0 });
    const perCity = await database.sql<{ products: number }[]>`
      select count(m.product_id)::int as products from cities c left join city_market_data m on m.city_id = c.id group by c.id`;
    expect(perCity).toHaveLength(50);
    expect(perCity.every((row) => row.products === 304)).toBe(true);
    const [variety] = await database.sql<{ levels: number }[]>`select count(distinct demand_level)::int as levels from city_market_data`;
    expect(variety?.levels).toBeGreaterThan(30);
  });

  it('has 15 research upgrades in 5 tiers of 3, prerequisites one tier lower, only the spec effect keys', async () => {
    const rows = await database.sql<
      {
        id: number;
        name: string;
        category: string;
        tier: number;
        research_cost_cents: number;
        prerequisite_tier: number | null;
        building_type: string | null;
        effects: Record<string, unknown>;
      }[]
    >`
      select u.id, u.name, u.category, u.tier, u.research_cost_cents, p.tier as prerequisite_tier, u.building_type, u.effects
      from research_upgrades u left join research_upgrades p on p.id = u.prerequisite_id order by u.tier, u.id`;
    expect(rows).toHaveLength(15);
    for (let tier = 1; tier <= 5; tier += 1)
      expect(
        rows.filter((row) => row.tier === tier),
        `tier ${tier}`,
      ).toHaveLength(3);
    expect(new Set(rows.map((row) => row.category))).toEqual(new Set(RESEARCH_CATEGORIES));
    for (const row of rows) {
      expect(row.prerequisite_tier, row.name).toBe(row.tier === 1 ? null : row.tier - 1);
      expect(Object.keys(row.effects).length, row.name).toBeGreaterThan(0);
      for (const [key, value] of Object.entries(row.effects)) {
        expect(RESEARCH_EFFECT_KEYS, `${row.name}: ${key}`).toContain(key);
        expect(typeof value, `${row.name}: ${key}`).toBe(key === 'unlock_feature' ? 'string' : 'number');
      }
      if (row.building_type !== null) expect(BUILDING_TYPE_NAMES).toContain(row.building_type);
    }
    const maxCostByTier = (tier: number) => Math.max(...rows.filter((row) => row.tier === tier).map((row) => row.research_cost_cents));
    const minCostByTier = (tier: number) => Math.min(...rows.filter((row) => row.tier === tier).map((row) => row.research_cost_cents));
    for (let tier = 2; tier <= 5; tier += 1) expect(minCostByTier(tier)).toBeGreaterThan(maxCostByTier(tier - 1));
  });

  it('has 25 bot companies with strategies, share records, starting cash and 2-5 fitting buildings', async () => {
    const bots = await database.sql<
      {
        id: number;
        name: string;
        user_id: number | null;
        strategy: string;
        cash_cents: number;
        starting_cash_cents: number;
        total_shares: number | null;
        share_price_cents: number | null;
        buildings: number;
      }[]
    >`
      select c.id, c.name, c.user_id, c.strategy, c.cash_cents, c.starting_cash_cents, s.total_shares, s.share_price_cents,
             (select count(*)::int from buildings b where b.company_id = c.id) as buildings
      from companies c left join share_records s on s.company_id = c.id where c.is_bot`;
    expect(bots).toHaveLength(25);
    expect(new Set(bots.map((bot) => bot.name)).size).toBe(25);
    expect(new Set(bots.map((bot) => bot.strategy)).size).toBeGreaterThanOrEqual(5);
    for (const bot of bots) {
      expect(bot.user_id, bot.name).toBeNull();
      expect(bot.strategy, bot.name).toMatch(/^[a-z]+(_[a-z]+)+$/);
      expect(bot.cash_cents, bot.name).toBe(bot.starting_cash_cents);
      expect(bot.cash_cents).toBeGreaterThanOrEqual(25_000_000);
      expect(bot.cash_cents).toBeLessThanOrEqual(150_000_000);
      // Listed at its book value (cash + buildings at half their cost): about $100 a share.
      expect(bot.total_shares!, bot.name).toBeGreaterThan(1_000);
      expect(bot.share_price_cents!, bot.name).toBeGreaterThan(9_900);
      expect(bot.share_price_cents!, bot.name).toBeLessThan(10_100);
      expect(bot.buildings, bot.name).toBeGreaterThanOrEqual(2);
      expect(bot.buildings, bot.name).toBeLessThanOrEqual(5);
    }

    const buildingRows = await database.sql<
      {
        id: number;
        type: string;
        built_week: number;
        construction_cost_cents: number;
        type_cost_cents: number;
        recipe_type: string | null;
        store_products: number;
      }[]
    >`
      select b.id, b.type, b.built_week, b.construction_cost_cents, t.construction_cost_cents as type_cost_cents, r.building_type as recipe_type,
             (select count(*)::int from store_products sp where sp.building_id = b.id) as store_products
      from buildings b join companies c on c.id = b.company_id join building_types t on t.type = b.type
      left join recipes r on r.id = b.selected_recipe_id where c.is_bot`;
    for (const building of buildingRows) {
      expect(building.built_week).toBe(1);
      expect(building.construction_cost_cents).toBe(building.type_cost_cents);
      if (building.type === 'store') {
        expect(building.recipe_type).toBeNull();
        expect(building.store_products).toBeGreaterThan(0);
      } else {
        expect(building.recipe_type, `building ${building.id}`).toBe(building.type);
      }
    }
    expect(buildingRows.some((building) => building.type === 'store')).toBe(true);
    expect(buildingRows.some((building) => EXTRACTION_TYPES.includes(building.type))).toBe(true);

    const stock = await database.sql<{ quantity: number; retail_price_cents: number; base_price_cents: number; is_active: boolean }[]>`
      select sp.quantity, sp.retail_price_cents, p.base_price_cents, sp.is_active
      from store_products sp join products p on p.id = sp.product_id`;
    for (const item of stock) {
      expect(item.quantity).toBeGreaterThanOrEqual(50);
      expect(item.quantity).toBeLessThanOrEqual(200);
      expect(item.retail_price_cents).toBe(Math.round(item.base_price_cents * 1.5));
      expect(item.is_active).toBe(true);
    }
  });

  it('starts the world at week 1 with the next turn at 00:30 or 12:30 UTC', async () => {
    const [row] = await database.sql<
      { current_week: number; last_turn_at: Date | null; next_turn_at: Date }[]
    >`select current_week, last_turn_at, next_turn_at from worlds where id = 1`;
    expect(row?.current_week).toBe(1);
    expect(row?.last_turn_at).toBeNull();
    const next = new Date(row!.next_turn_at);
    expect(next.getUTCMinutes()).toBe(30);
    expect([0, 12]).toContain(next.getUTCHours());
  });
});

/** Row count and an md5 over every row of every table, ordered: equal snapshots mean equal data. */
async function snapshot(sql: postgres.Sql): Promise<Record<string, { rows: number; checksum: string }>> {
  const tables = await sql<{ tablename: string }[]>`select tablename from pg_tables where schemaname = 'public' order by tablename`;
  const result: Record<string, { rows: number; checksum: string }> = {};
  for (const { tablename } of tables) {
    const [row] = await sql.unsafe<{ rows: number; checksum: string | null }[]>(
      `select count(*)::int as rows, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as checksum from "${tablename}" t`,
    );
    result[tablename] = { rows: row?.rows ?? 0, checksum: row?.checksum ?? '' };
  }
  return result;
}

describe('seedWorld on an empty database', () => {
  const name = `${inject('testRunId')}_seed_empty`;
  const serverUrl = inject('testServerUrl');
  const url = replaceDatabase(serverUrl, name);
  let template: TestDatabase;

  beforeAll(async () => {
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`create database "${name}"`);
    } finally {
      await admin.end();
    }
    await migrateDatabase(url);
    template = await createTestDatabase();
  });
  afterAll(async () => {
    await template.drop();
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
    } finally {
      await admin.end();
    }
  });

  it('seeds, and seeding again (also twice at once) inserts and changes nothing', async () => {
    const first = connectDatabase(url, { max: 2 });
    const second = connectDatabase(url, { max: 2 });
    try {
      // Two processes seeding the same empty database at once: the advisory lock serialises them.
      await Promise.all([seedWorld(first.db), seedWorld(second.db)]);
      const once = await snapshot(first.sql);
      expect(once.products?.rows).toBe(304);
      expect(once.city_market_data?.rows).toBe(15_200);
      expect(once.companies?.rows).toBe(25);

      await seedWorld(first.db);
      const twice = await snapshot(first.sql);
      expect(twice).toEqual(once);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('is deterministic: an empty database seeds to the same world as the test template', async () => {
    const seeded = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const mine = await snapshot(seeded);
      const theirs = await snapshot(template.sql);
      for (const table of [
        'products',
        'building_types',
        'recipes',
        'recipe_inputs',
        'countries',
        'cities',
        'city_market_data',
        'research_upgrades',
        'share_records',
      ]) {
        if (table === 'share_records') {
          expect(mine[table]?.rows, table).toBe(theirs[table]?.rows);
          continue; // updated_at differs between the two seedings
        }
        expect(mine[table], table).toEqual(theirs[table]);
      }
    } finally {
      await seeded.end();
    }
  });
});
