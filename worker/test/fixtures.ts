/**
 * A small, uniquely named world for the turn tests, added next to whatever the seed holds: countries
 * with tax rates, cities (one agricultural, one retail per country), wheat -> flour -> bread with
 * recipes and city market data, and helpers to found companies directly (no user needed).
 * Building types are ensured from the shared constants (inserted only if the seed has not).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { BUILDING_TYPES, PUBLIC_WORLD_ID, dollarsToCents } from '@marketcraft/shared';
import { listCompany, type Database, type DbExecutor } from '@marketcraft/db';
import { untilAStatementWaitsForALock } from '../../api/test/helpers/lockWaits.ts';
import { runTurn } from '../src/turn/index.ts';

export interface TurnWorld {
  tag: string;
  countryIds: number[];
  /** Agricultural bonus 15%, in the first country (tax 20%). */
  farmCityId: number;
  /** Retail bonus 10%, in the first country. */
  retailCityId: number;
  wheat: number;
  flour: number;
  bread: number;
  farmRecipeId: number;
  millRecipeId: number;
  bakeryRecipeId: number;
}

async function one<T extends Record<string, unknown>>(db: DbExecutor, query: ReturnType<typeof sql>): Promise<T> {
  const rows = await db.execute<T>(query);
  const row = rows[0];
  if (!row) throw new Error('query returned no row');
  return row as T;
}

async function ensureBuildingTypes(db: DbExecutor): Promise<void> {
  for (const [type, spec] of Object.entries(BUILDING_TYPES)) {
    await db.execute(sql`
      insert into building_types (type, name, category, construction_cost_cents, base_capacity, weekly_operating_cost_cents)
      values (${type}, ${spec.name}, ${spec.category}, ${dollarsToCents(spec.constructionCost)}, ${spec.baseCapacity},
              ${dollarsToCents(spec.weeklyOperatingCost)})
      on conflict (type) do nothing`);
  }
}

export async function createTurnWorld(db: Database, options: { countries?: number } = {}): Promise<TurnWorld> {
  const tag = randomBytes(3).toString('hex');
  await ensureBuildingTypes(db);
  const countryIds: number[] = [];
  const cityIds: number[] = [];
  const countryCount = options.countries ?? 3;
  for (let index = 0; index < countryCount; index += 1) {
    const rate = 20 + index * 5;
    const country = await one<{ id: number }>(
      db,
      sql`
      insert into countries (name, base_tax_rate) values (${`Testland ${tag} ${index}`}, ${rate}) returning id`,
    );
    await db.execute(sql`insert into world_countries (world_id, country_id, tax_rate) values (${PUBLIC_WORLD_ID}, ${country.id}, ${rate})`);
    countryIds.push(Number(country.id));
    const farmCity = await one<{ id: number }>(
      db,
      sql`
      insert into cities (name, country_id, bonus_type, bonus_value, population)
      values (${`Farmtown ${tag} ${index}`}, ${country.id}, 'agricultural', 15, 100000) returning id`,
    );
    const retailCity = await one<{ id: number }>(
      db,
      sql`
      insert into cities (name, country_id, bonus_type, bonus_value, population)
      values (${`Shopville ${tag} ${index}`}, ${country.id}, 'retail', 10, 500000) returning id`,
    );
    cityIds.push(Number(farmCity.id), Number(retailCity.id));
  }
  const product = async (name: string, category: string, priceCents: number, depthUnits: number) =>
    Number(
      (
        await one<{ id: number }>(
          db,
          sql`
          with product as (
            insert into products (name, category, subcategory, base_price_cents, depth_units)
            values (${`${name} ${tag}`}, ${category}, 'Test', ${priceCents}, ${depthUnits}) returning id
          ), priced as (
            insert into world_products (world_id, product_id, current_price_cents) select ${PUBLIC_WORLD_ID}, id, ${priceCents} from product
          )
          select id from product`,
        )
      ).id,
    );
  // Prices in the seed's range (wheat $12, flour $31.90, bread $26.25); depth 40 weeks of a recipe's output.
  const wheat = await product('Wheat', 'Agricultural', 1_200, 4_000);
  const flour = await product('Flour', 'Processed Materials', 3_190, 3_200);
  const bread = await product('Bread', 'Food Products', 2_625, 3_200);
  for (const cityId of cityIds) {
    for (const productId of [wheat, flour, bread]) {
      // The city's price level 100%: its reference price is the market price x 130%.
      await db.execute(sql`
        insert into city_market_data (world_id, city_id, product_id, demand_level, base_demand_level, price_factor_bp)
        values (${PUBLIC_WORLD_ID}, ${cityId}, ${productId}, 60, 60, 10000)`);
    }
  }
  const recipe = async (buildingType: string, output: number, quantity: number, inputs: [number, number][]) => {
    const row = await one<{ id: number }>(
      db,
      sql`
      insert into recipes (building_type, output_product_id, output_quantity) values (${buildingType}, ${output}, ${quantity}) returning id`,
    );
    for (const [productId, inputQuantity] of inputs) {
      await db.execute(sql`insert into recipe_inputs (recipe_id, product_id, quantity) values (${row.id}, ${productId}, ${inputQuantity})`);
    }
    return Number(row.id);
  };
  // The seed's chain: farm 100 wheat; mill 150 wheat -> 80 flour; bakery 40 flour -> 80 bread.
  const farmRecipeId = await recipe('farm', wheat, 100, []);
  const millRecipeId = await recipe('mill', flour, 80, [[wheat, 150]]);
  const bakeryRecipeId = await recipe('bakery', bread, 80, [[flour, 40]]);
  return {
    tag,
    countryIds,
    farmCityId: cityIds[0]!,
    retailCityId: cityIds[1]!,
    wheat,
    flour,
    bread,
    farmRecipeId,
    millRecipeId,
    bakeryRecipeId,
  };
}

/** A company listed at its book value (starting cash = opening balance, no ledger row), founded directly. */
export async function createCompany(db: DbExecutor, input: { name: string; cashCents: number; bot?: boolean; worldId?: number }): Promise<number> {
  const worldId = input.worldId ?? PUBLIC_WORLD_ID;
  const row = await one<{ id: number }>(
    db,
    sql`
    insert into companies (world_id, name, cash_cents, starting_cash_cents, is_bot, strategy)
    values (${worldId}, ${input.name}, ${input.cashCents}, ${input.cashCents}, ${input.bot ?? false}, ${input.bot ? 'value_investor' : null})
    returning id`,
  );
  await listCompany(db, worldId, Number(row.id), input.cashCents);
  return Number(row.id);
}

/** Inserts a building directly (for set-up only; tests of the rules use the game operations). */
export async function insertBuilding(
  db: DbExecutor,
  input: { companyId: number; type: string; cityId: number; employees?: number; equipmentLevel?: number; recipeId?: number | null },
): Promise<number> {
  const spec = BUILDING_TYPES[input.type as keyof typeof BUILDING_TYPES];
  const row = await one<{ id: number }>(
    db,
    sql`
    insert into buildings (world_id, company_id, type, city_id, employees, equipment_level, selected_recipe_id, construction_cost_cents, built_week)
    values ((select world_id from companies where id = ${input.companyId}), ${input.companyId}, ${input.type}, ${input.cityId}, ${input.employees ?? 1}, ${input.equipmentLevel ?? 1},
            ${input.recipeId ?? null}, ${dollarsToCents(spec.constructionCost)}, 1)
    returning id`,
  );
  return Number(row.id);
}

export async function worldWeek(db: DbExecutor): Promise<number> {
  return Number((await one<{ current_week: number }>(db, sql`select current_week from worlds where id = 1`)).current_week);
}

export async function cashOf(db: DbExecutor, companyId: number): Promise<number> {
  return Number((await one<{ cash_cents: number }>(db, sql`select cash_cents from companies where id = ${companyId}`)).cash_cents);
}

export async function warehouse(db: DbExecutor, companyId: number, productId: number): Promise<number> {
  const rows = await db.execute<{ quantity: number }>(sql`
    select quantity from inventory_items where company_id = ${companyId} and product_id = ${productId}`);
  return Number(rows[0]?.quantity ?? 0);
}

/** Everything a turn changes that replays must reproduce, as plain data. */
export async function economySnapshot(db: DbExecutor) {
  const q = async (query: ReturnType<typeof sql>) => (await db.execute(query)).map((row) => ({ ...row }));
  return {
    world: await q(sql`select current_week from worlds`),
    companies: await q(sql`select id, cash_cents, status, negative_cash_turns from companies order by id`),
    inventory: await q(sql`select company_id, product_id, quantity, average_cost_cents from inventory_items order by 1, 2`),
    shelves: await q(sql`select id, quantity, units_sold_last_turn from store_products order by id`),
    products: await q(sql`select world_id, product_id, current_price_cents from world_products order by 1, 2`),
    cityMarkets: await q(sql`select city_id, product_id, demand_level, price_factor_bp from city_market_data order by 1, 2`),
    shares: await q(
      sql`select company_id, share_price_cents, fundamental_cents, sentiment, total_shares, last_dividend_cents, is_listed from share_records order by 1`,
    ),
    // As a set: the rows one statement inserts (a share trade's buyer and issuer) may take their ids
    // in either order; which row got the lower id is not part of the game's state.
    ledger: await q(
      sql`select company_id, type, reason, amount_cents, description, week from transactions order by week, company_id, type, reason, amount_cents, description`,
    ),
    events: await q(
      sql`select country_id, event_type, description, effect_value, beneficiary_company_id, started_week, active_until_week from political_events order by id`,
    ),
    countries: await q(sql`select world_id, country_id, tax_rate from world_countries order by 1, 2`),
    influence: await q(sql`select company_id, country_id, influence_points from influence_records order by 1, 2`),
    history: await q(sql`select company_id, week, amount_cents, cash_after_cents, profit_cents, net_worth_cents from financial_history order by 1, 2`),
    taxLosses: await q(sql`select id, tax_loss_cents from companies order by id`),
  };
}

/**
 * Runs a turn held after its production phase (it then holds every active company's row), starts
 * `action`, and lets the turn finish once a statement whose text contains `queryText` waits for a
 * row lock (untilAStatementWaitsForALock). Returns the week the turn closed and the action's answer.
 */
export async function duringHeldTurn<T>(db: Database, action: () => Promise<T>, queryText = ''): Promise<{ week: number; answer: T }> {
  const week = await worldWeek(db);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const turn = runTurn(db, {
    week,
    hooks: {
      afterPhase: async (phase) => {
        if (phase !== 'production') return;
        held();
        await gate;
      },
    },
  });
  await holding;
  const answer = action();
  try {
    await untilAStatementWaitsForALock(db, queryText);
  } finally {
    release();
  }
  const outcome = await turn;
  if (outcome.status !== 'advanced') throw new Error(`the held turn ended ${outcome.status}`);
  return { week, answer: await answer };
}
