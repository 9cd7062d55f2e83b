/**
 * The seeded world (issue 2): building types, 304 products, recipes, countries, 50 cities with
 * market data for every product, the research tree, 25 bot companies and the world row.
 *
 * Idempotent: everything is keyed by a natural key (product, country, city and upgrade names,
 * building type keys, (building type, output) for recipes, (city, product) for market data, bot
 * names) and inserted with ON CONFLICT DO NOTHING or only when missing, so running it on a seeded
 * database inserts nothing and changes nothing. The catalogue's economics (building type costs,
 * product base prices and market depths, recipe quantities) are kept in step with the code: a game
 * started by an older release gets the new numbers, its current prices scaled by the same ratio as
 * their base (docs/economy.md, "Upgrading an existing game"). A bot gets its share record, buildings and store
 * stock only when the bot itself is inserted. The whole seed runs in one transaction under a
 * transaction-level advisory lock, so two processes seeding at once cannot both insert.
 */
import { sql } from 'drizzle-orm';
import {
  BOT_STARTING_EMPLOYEES,
  BUILDING_TYPES,
  SUGGESTED_RETAIL_MARKUP,
  buildingSaleRefund,
  dollarsToCents,
  nextScheduledTurnAt,
  PUBLIC_WORLD_ID,
  PUBLIC_WORLD_NAME,
} from '@marketcraft/shared';
import type { Database, DbExecutor } from '../client.ts';
import {
  buildingTypes,
  buildings,
  cities,
  cityMarketData,
  companies,
  countries,
  products,
  recipeInputs,
  recipes,
  researchUpgrades,
  storeProducts,
  worldCountries,
  worldProducts,
  worlds,
} from '../schema/index.ts';
import { BOTS, type BotSeed } from './data/bots.ts';
import { CITIES } from './data/cities.ts';
import { COUNTRIES } from './data/countries.ts';
import { cityMarketSeeds } from './data/marketData.ts';
import { PRODUCTS } from './data/products.ts';
import { RECIPES } from './data/recipes.ts';
import { RESEARCH_UPGRADES, type ResearchSeed } from './data/research.ts';
import { deriveCatalogue } from './economy.ts';
import { listCompany } from '../game/companies/founding.ts';
import { companyNameKey, fillCompanyNameKeys } from '../game/companies/names.ts';

/** The catalogue's prices, recipe quantities and market depths (db/src/seed/economy.ts). */
export const CATALOGUE = deriveCatalogue(PRODUCTS, RECIPES);

/** Transaction-level advisory lock of the seed ("mcsd"); distinct from the migration lock. */
const SEED_LOCK_KEY = 0x6d637364;
/** Rows per INSERT (3 columns x 3000 rows stays far below the 65535 parameters). */
const INSERT_CHUNK_ROWS = 3000;
/** The week the seeded bots built their buildings. */
const SEED_WEEK = 1;

/** Seeds the world. Idempotent: running it again inserts nothing and changes nothing. */
export async function seedWorld(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    // Companies written without their look-alike key (before migration 0017) get it first.
    await fillCompanyNameKeys(tx);
    // The public world first: every game row of the seed belongs to it.
    await tx
      .insert(worlds)
      .values({ id: PUBLIC_WORLD_ID, name: PUBLIC_WORLD_NAME, kind: 'public', currentWeek: 1, nextTurnAt: nextScheduledTurnAt(new Date()) })
      // The migration that introduced worlds creates the public world without a clock.
      .onConflictDoUpdate({ target: worlds.id, set: { nextTurnAt: sql`excluded.next_turn_at` }, setWhere: sql`${worlds.nextTurnAt} is null` });
    const ids = await seedCatalogue(tx);
    await seedWorldState(tx, PUBLIC_WORLD_ID, ids, { botCount: BOTS.length });
  });
}

/** The shared catalogue: building types, products, recipes, countries, cities and the research tree. */
async function seedCatalogue(tx: DbExecutor): Promise<SeedIds> {
  await seedBuildingTypes(tx);
  const productIds = await seedProducts(tx);
  const recipeIds = await seedRecipes(tx, productIds);
  const countryIds = await seedCountries(tx);
  const cityIds = await seedCities(tx, countryIds);
  await seedResearch(tx);
  return { productIds, recipeIds, cityIds };
}

/**
 * One world's own state at its start: exchange prices at base, tax rates at base, every city's
 * demand and price level, and its first `botCount` bots (BOTS order) with their buildings and stock.
 * Idempotent per world. Called for the public world by the seed and for every new private world.
 */
async function seedWorldState(tx: DbExecutor, worldId: number, ids: SeedIds, options: { botCount: number }): Promise<void> {
  await tx.execute(sql`
    insert into ${worldProducts} (world_id, product_id, current_price_cents)
    select ${worldId}::int, p.id, p.base_price_cents from ${products} p
    on conflict do nothing`);
  await tx.execute(sql`
    insert into ${worldCountries} (world_id, country_id, tax_rate)
    select ${worldId}::int, c.id, c.base_tax_rate from ${countries} c
    on conflict do nothing`);
  await seedCityMarketData(tx, worldId, ids.cityIds, ids.productIds);
  await seedBots(tx, worldId, ids, BOTS.slice(0, options.botCount));
}

/**
 * Creates a world's starting state in the caller's transaction (the catalogue exists: the seed ran
 * at start). City markets start as the seed makes them for every world (cityMarketSeeds depends on
 * the city and product only), so they are copied set-based from the public world's base levels,
 * which is what seedCityMarketData would insert, without its 15,200-row round trip.
 */
export async function populateWorld(tx: DbExecutor, worldId: number, options: { botCount: number }): Promise<void> {
  await tx.execute(sql`
    insert into ${worldProducts} (world_id, product_id, current_price_cents)
    select ${worldId}::int, p.id, p.base_price_cents from ${products} p
    on conflict do nothing`);
  await tx.execute(sql`
    insert into ${cityMarketData} (world_id, city_id, product_id, demand_level, base_demand_level, price_factor_bp)
    select ${worldId}::int, c.city_id, c.product_id, c.base_demand_level, c.base_demand_level, c.price_factor_bp
    from ${cityMarketData} c
    where c.world_id = ${PUBLIC_WORLD_ID}
    on conflict do nothing`);
  await tx.execute(sql`
    insert into ${worldCountries} (world_id, country_id, tax_rate)
    select ${worldId}::int, c.id, c.base_tax_rate from ${countries} c
    on conflict do nothing`);
  if (options.botCount === 0) return;
  const productRows = await tx.select({ id: products.id, name: products.name }).from(products);
  const recipeRows = await tx.select({ id: recipes.id, buildingType: recipes.buildingType, outputProductId: recipes.outputProductId }).from(recipes);
  const cityRows = await tx.select({ id: cities.id, name: cities.name }).from(cities);
  const ids: SeedIds = {
    productIds: new Map(productRows.map((row) => [row.name, row.id])),
    recipeIds: new Map(recipeRows.map((row) => [recipeKey(row.buildingType, row.outputProductId), row.id])),
    cityIds: new Map(cityRows.map((row) => [row.name, row.id])),
  };
  await seedBots(tx, worldId, ids, BOTS.slice(0, options.botCount));
}

/** The key of a recipe: building type and output product (one recipe per pair). */
function recipeKey(buildingType: string, outputProductId: number): string {
  return `${buildingType}:${outputProductId}`;
}

function lookup<K, V>(map: ReadonlyMap<K, V>, key: K, what: string): V {
  const value = map.get(key);
  if (value === undefined) throw new Error(`Seed data refers to an unknown ${what}: ${String(key)}`);
  return value;
}

async function insertInChunks<T>(rows: readonly T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK_ROWS) {
    await insert(rows.slice(start, start + INSERT_CHUNK_ROWS));
  }
}

async function seedBuildingTypes(tx: DbExecutor): Promise<void> {
  await tx
    .insert(buildingTypes)
    .values(
      Object.entries(BUILDING_TYPES).map(([type, spec]) => ({
        type,
        name: spec.name,
        category: spec.category,
        constructionCostCents: dollarsToCents(spec.constructionCost),
        baseCapacity: spec.baseCapacity,
        weeklyOperatingCostCents: dollarsToCents(spec.weeklyOperatingCost),
      })),
    )
    .onConflictDoUpdate({
      target: buildingTypes.type,
      set: {
        constructionCostCents: sql`excluded.construction_cost_cents`,
        baseCapacity: sql`excluded.base_capacity`,
        weeklyOperatingCostCents: sql`excluded.weekly_operating_cost_cents`,
      },
      setWhere: sql`(${buildingTypes.constructionCostCents}, ${buildingTypes.baseCapacity}, ${buildingTypes.weeklyOperatingCostCents})
        is distinct from (excluded.construction_cost_cents, excluded.base_capacity, excluded.weekly_operating_cost_cents)`,
    });
}

async function seedProducts(tx: DbExecutor): Promise<Map<string, number>> {
  // Base prices before this catalogue: a world's current price moves by the same ratio as its base.
  const before = await tx.select({ id: products.id, basePriceCents: products.basePriceCents }).from(products);
  await tx
    .insert(products)
    .values(
      PRODUCTS.map((product) => {
        const basePriceCents = lookup(CATALOGUE.basePriceCents, product.name, 'product price');
        return {
          name: product.name,
          category: product.category,
          subcategory: product.subcategory,
          basePriceCents,
          depthUnits: lookup(CATALOGUE.depthUnits, product.name, 'product depth'),
        };
      }),
    )
    .onConflictDoUpdate({
      target: products.name,
      // An older catalogue: the new base price and depth (current prices follow below).
      set: {
        basePriceCents: sql`excluded.base_price_cents`,
        depthUnits: sql`excluded.depth_units`,
      },
      setWhere: sql`(${products.basePriceCents}, ${products.depthUnits}) is distinct from (excluded.base_price_cents, excluded.depth_units)`,
    });
  if (before.length > 0) {
    await tx.execute(sql`
      update ${worldProducts} wp
      set current_price_cents = greatest(1, round(wp.current_price_cents * p.base_price_cents::numeric / old.base_price_cents))::bigint
      from unnest(${`{${before.map((row) => row.id).join(',')}}`}::int[], ${`{${before.map((row) => row.basePriceCents).join(',')}}`}::bigint[]) as old(id, base_price_cents)
      join ${products} p on p.id = old.id
      where wp.product_id = old.id and p.base_price_cents <> old.base_price_cents`);
  }
  // A product new to the catalogue starts at its base price in every world.
  await tx.execute(sql`
    insert into ${worldProducts} (world_id, product_id, current_price_cents)
    select w.id, p.id, p.base_price_cents from ${worlds} w cross join ${products} p
    on conflict do nothing`);
  const rows = await tx.select({ id: products.id, name: products.name }).from(products);
  return new Map(rows.map((row) => [row.name, row.id]));
}

async function seedRecipes(tx: DbExecutor, productIds: ReadonlyMap<string, number>): Promise<Map<string, number>> {
  const existing = await tx.select({ id: recipes.id, buildingType: recipes.buildingType, outputProductId: recipes.outputProductId }).from(recipes);
  const recipeIds = new Map(existing.map((row) => [recipeKey(row.buildingType, row.outputProductId), row.id]));
  const missing = CATALOGUE.recipes.filter((recipe) => !recipeIds.has(recipeKey(recipe.buildingType, lookup(productIds, recipe.output, 'product'))));
  if (missing.length > 0) {
    const inserted = await tx
      .insert(recipes)
      .values(
        missing.map((recipe) => ({
          buildingType: recipe.buildingType,
          outputProductId: lookup(productIds, recipe.output, 'product'),
          outputQuantity: recipe.outputQuantity,
        })),
      )
      .returning({ id: recipes.id, buildingType: recipes.buildingType, outputProductId: recipes.outputProductId });
    for (const row of inserted) recipeIds.set(recipeKey(row.buildingType, row.outputProductId), row.id);
  }
  // Quantities of recipes seeded by an older catalogue, in one statement.
  const quantities = CATALOGUE.recipes.map((recipe) => [
    lookup(recipeIds, recipeKey(recipe.buildingType, lookup(productIds, recipe.output, 'product')), 'recipe'),
    recipe.outputQuantity,
  ]);
  await tx.execute(sql`
    update ${recipes} r set output_quantity = q.quantity
    from unnest(${`{${quantities.map(([id]) => id).join(',')}}`}::int[], ${`{${quantities.map(([, quantity]) => quantity).join(',')}}`}::int[]) as q(id, quantity)
    where r.id = q.id and r.output_quantity <> q.quantity`);
  const inputRows = CATALOGUE.recipes.flatMap((recipe) => {
    const recipeId = lookup(recipeIds, recipeKey(recipe.buildingType, lookup(productIds, recipe.output, 'product')), 'recipe');
    return Object.entries(recipe.inputs).map(([input, quantity]) => ({
      recipeId,
      productId: lookup(productIds, input, 'product'),
      quantity: quantity ?? 0,
    }));
  });
  await insertInChunks(inputRows, (chunk) =>
    tx
      .insert(recipeInputs)
      .values(chunk)
      .onConflictDoUpdate({
        target: [recipeInputs.recipeId, recipeInputs.productId],
        set: { quantity: sql`excluded.quantity` },
        setWhere: sql`${recipeInputs.quantity} <> excluded.quantity`,
      }),
  );
  return recipeIds;
}

async function seedCountries(tx: DbExecutor): Promise<Map<string, number>> {
  await tx
    .insert(countries)
    .values(COUNTRIES.map((country) => ({ name: country.name, baseTaxRate: country.taxRate })))
    .onConflictDoNothing({ target: countries.name });
  await tx.execute(sql`
    insert into ${worldCountries} (world_id, country_id, tax_rate)
    select w.id, c.id, c.base_tax_rate from ${worlds} w cross join ${countries} c
    on conflict do nothing`);
  const rows = await tx.select({ id: countries.id, name: countries.name }).from(countries);
  return new Map(rows.map((row) => [row.name, row.id]));
}

async function seedCities(tx: DbExecutor, countryIds: ReadonlyMap<string, number>): Promise<Map<string, number>> {
  await tx
    .insert(cities)
    .values(
      CITIES.map((city) => ({
        name: city.name,
        countryId: lookup(countryIds, city.country, 'country'),
        bonusType: city.bonusType,
        bonusValue: city.bonusValue,
        population: city.population,
      })),
    )
    .onConflictDoNothing({ target: cities.name });
  const rows = await tx.select({ id: cities.id, name: cities.name }).from(cities);
  return new Map(rows.map((row) => [row.name, row.id]));
}

async function seedCityMarketData(
  tx: DbExecutor,
  worldId: number,
  cityIds: ReadonlyMap<string, number>,
  productIds: ReadonlyMap<string, number>,
): Promise<void> {
  // 15,200 rows: sent as five arrays and unnested in one statement, far faster than a VALUES list.
  const columns = {
    cityId: [] as number[],
    productId: [] as number[],
    demandLevel: [] as number[],
    baseDemandLevel: [] as number[],
    priceFactorBp: [] as number[],
  };
  for (const city of CITIES) {
    const cityId = lookup(cityIds, city.name, 'city');
    const seeds = cityMarketSeeds(city, PRODUCTS);
    PRODUCTS.forEach((product, index) => {
      const seed = seeds[index]!; // one seed per product, same order
      columns.cityId.push(cityId);
      columns.productId.push(lookup(productIds, product.name, 'product'));
      columns.demandLevel.push(seed.demandLevel);
      columns.baseDemandLevel.push(seed.baseDemandLevel);
      columns.priceFactorBp.push(seed.priceFactorBp);
    });
  }
  const arrayLiteral = (values: readonly number[]) => `{${values.join(',')}}`;
  await tx.execute(sql`
    insert into ${cityMarketData} (world_id, city_id, product_id, demand_level, base_demand_level, price_factor_bp)
    select ${worldId}::int, s.city_id, s.product_id, s.demand_level, s.base_demand_level, s.price_factor_bp
    from unnest(
      ${arrayLiteral(columns.cityId)}::integer[],
      ${arrayLiteral(columns.productId)}::integer[],
      ${arrayLiteral(columns.demandLevel)}::integer[],
      ${arrayLiteral(columns.baseDemandLevel)}::integer[],
      ${arrayLiteral(columns.priceFactorBp)}::integer[]
    ) as s(city_id, product_id, demand_level, base_demand_level, price_factor_bp)
    on conflict do nothing`);
}

async function seedResearch(tx: DbExecutor): Promise<void> {
  const upgrades: readonly ResearchSeed[] = RESEARCH_UPGRADES;
  const tiers = [...new Set(upgrades.map((upgrade) => upgrade.tier))].sort((a, b) => a - b);
  for (const tier of tiers) {
    // Prerequisites are one tier lower, so they exist by now.
    const rows = await tx.select({ id: researchUpgrades.id, name: researchUpgrades.name }).from(researchUpgrades);
    const upgradeIds = new Map(rows.map((row) => [row.name, row.id]));
    await tx
      .insert(researchUpgrades)
      .values(
        upgrades
          .filter((upgrade) => upgrade.tier === tier)
          .map((upgrade) => ({
            name: upgrade.name,
            description: upgrade.description,
            category: upgrade.category,
            tier: upgrade.tier,
            researchCostCents: upgrade.researchCostCents,
            prerequisiteId: upgrade.prerequisite === null ? null : lookup(upgradeIds, upgrade.prerequisite, 'research upgrade'),
            buildingType: upgrade.buildingType,
            effects: { ...upgrade.effects },
          })),
      )
      .onConflictDoNothing({ target: researchUpgrades.name });
  }
}

interface SeedIds {
  productIds: ReadonlyMap<string, number>;
  recipeIds: ReadonlyMap<string, number>;
  cityIds: ReadonlyMap<string, number>;
}

async function seedBots(tx: DbExecutor, worldId: number, ids: SeedIds, bots: readonly BotSeed[]): Promise<void> {
  if (bots.length === 0) return;
  // Bots already seeded (whatever their status) are not added twice; nor is a bot whose name (or a
  // look-alike of it) an active company of the world already has (names are unique, docs/world.md).
  const keyOf = (name: string) => name.trim().toLowerCase();
  const existing = await tx.execute<{ key: string; name_key: string | null }>(sql`
    select lower(btrim(name)) as key, name_key from companies
    where world_id = ${worldId} and (is_bot or status = 'active')
      and (lower(btrim(name)) in (${sql.join(
        bots.map((bot) => sql`${keyOf(bot.name)}`),
        sql`, `,
      )}) or name_key in (${sql.join(
        bots.map((bot) => sql`${companyNameKey(bot.name)}`),
        sql`, `,
      )}))`);
  const existingNames = new Set(existing.map((row) => row.key));
  const existingKeys = new Set(existing.map((row) => row.name_key));
  const newBots = bots.filter((bot) => !existingNames.has(keyOf(bot.name)) && !existingKeys.has(companyNameKey(bot.name)));
  if (newBots.length === 0) return;
  const inserted = await tx
    .insert(companies)
    .values(
      newBots.map((bot) => ({
        worldId,
        name: bot.name,
        nameKey: companyNameKey(bot.name),
        bio: bot.bio,
        cashCents: bot.startingCashCents,
        startingCashCents: bot.startingCashCents,
        isBot: true,
        strategy: bot.strategy,
      })),
    )
    .returning({ id: companies.id, name: companies.name });
  const botIds = new Map(inserted.map((row) => [row.name, row.id]));
  const basePrices = CATALOGUE.basePriceCents;
  for (const bot of newBots) {
    const companyId = lookup(botIds, bot.name, 'bot');
    // Listed at its book value: cash + its buildings at book value.
    const buildingsBookCents = bot.buildings.reduce(
      (sum, building) => sum + buildingSaleRefund(dollarsToCents(BUILDING_TYPES[building.type].constructionCost)),
      0,
    );
    await listCompany(tx, worldId, companyId, bot.startingCashCents + buildingsBookCents);
    for (const building of bot.buildings) {
      const recipeId =
        building.recipe === undefined
          ? null
          : lookup(ids.recipeIds, recipeKey(building.type, lookup(ids.productIds, building.recipe, 'product')), `recipe of ${building.type}`);
      const [row] = await tx
        .insert(buildings)
        .values({
          worldId,
          companyId,
          type: building.type,
          cityId: lookup(ids.cityIds, building.city, 'city'),
          employees: BOT_STARTING_EMPLOYEES,
          selectedRecipeId: recipeId,
          constructionCostCents: dollarsToCents(BUILDING_TYPES[building.type].constructionCost),
          builtWeek: SEED_WEEK,
        })
        .returning({ id: buildings.id });
      const stock = Object.entries(building.stock ?? {});
      if (row === undefined || stock.length === 0) continue;
      await tx.insert(storeProducts).values(
        stock.map(([productName, quantity]) => {
          const basePriceCents = lookup(basePrices, productName, 'product');
          return {
            worldId,
            buildingId: row.id,
            productId: lookup(ids.productIds, productName, 'product'),
            quantity: quantity ?? 0,
            retailPriceCents: Math.round(basePriceCents * SUGGESTED_RETAIL_MARKUP),
            costPriceCents: basePriceCents,
            isActive: true,
          };
        }),
      );
    }
  }
}
