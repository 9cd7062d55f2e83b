/**
 * Every player action is one function over a list of requests (db/src/game/actions.ts,
 * docs/actions.md): on two copies of the seeded world, the same requests of several companies run
 * as ONE list (the bots' way) and one by one as lists of one (the API's way) answer the same
 * outcomes (results, or refusals with the same code and message) and leave the same cash, ledger
 * (amounts and texts), market flows, warehouses, back rooms, shelves, buildings, influence,
 * research, exchange orders (their escrow) and contracts. Each list holds refused requests between applied ones: a refusal refuses only itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ACTIONS, actMany, ledgerMismatches, type ActionInput, type ActionName, type ActionRequest, type Outcome } from '../src/game/index.ts';
import type { DbExecutor } from '../src/client.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing/freshDatabase.ts';

/** What the actions change, as plain rows (ledger in the order it was written). */
async function effects(db: DbExecutor) {
  const rows = async (query: ReturnType<typeof sql>) => (await db.execute(query)).map((row) => ({ ...row }));
  return {
    cash: await rows(sql`select id, cash_cents from companies order by id`),
    ledger: await rows(
      sql`select company_id, type, reason, amount_cents, description, week, building_id, product_id, country_id from transactions order by company_id, id`,
    ),
    flows: await rows(sql`select world_id, week, product_id, units_bought, units_sold from market_activity order by 1, 2, 3`),
    warehouse: await rows(sql`select company_id, product_id, quantity, average_cost_cents from inventory_items order by 1, 2`),
    backRooms: await rows(sql`select building_id, product_id, quantity, purchase_price_cents from building_inventory_items order by 1, 2`),
    shelves: await rows(sql`select building_id, product_id, quantity, retail_price_cents, cost_price_cents, is_active from store_products order by 1, 2`),
    buildings: await rows(
      sql`select id, company_id, type, city_id, employees, equipment_level, production_rate, selected_recipe_id, selected_category, built_week from buildings order by id`,
    ),
    influence: await rows(sql`select company_id, country_id, influence_points, platform from influence_records order by 1, 2`),
    research: await rows(sql`select company_id, upgrade_id, researched_week from company_research order by 1, 2`),
    orders: await rows(
      sql`select id, company_id, product_id, side, quantity, limit_price_cents, escrow_cents, escrow_units, status from exchange_orders order by id`,
    ),
    contracts: await rows(sql`select id, seller_company_id, buyer_company_id, product_id, quantity, unit_price_cents, status from contracts order by id`),
    shares: await rows(sql`select company_id, total_shares, week_flow, week_bought, week_sold from share_records order by 1`),
    positions: await rows(sql`select holder_company_id, issuer_company_id, shares_owned, average_price_cents from portfolio_entries order by 1, 2`),
  };
}

/** An outcome as a player would read it: the result, or the refusal's code and message. */
function readable(outcome: Outcome<unknown>) {
  return outcome.applied ? { applied: outcome.result } : { refused: { code: outcome.refusal.code, message: outcome.refusal.message } };
}

describe('each player action: a list of many equals its requests one by one', () => {
  let listed: TestDatabase;
  let oneByOne: TestDatabase;
  let world: {
    a: number;
    b: number;
    c: number;
    wheat: number;
    flour: number;
    cola: number;
    bread: number;
    store: { id: number; companyId: number };
    farm: { id: number; companyId: number };
    city: number;
    country: number;
    bakeryRecipe: number;
    farmRecipe: number;
    upgrade: number;
  };

  beforeAll(async () => {
    listed = await createTestDatabase();
    oneByOne = await createTestDatabase();
    const db = listed.db;
    const one = async <T>(query: ReturnType<typeof sql>) => (await db.execute<Record<string, T>>(query))[0]!;
    const product = async (name: string) => Number((await one(sql`select id from products where name = ${name}`)).id);
    const store = await one<number>(sql`select id, company_id from buildings where type = 'store' order by id limit 1`);
    const farm = await one<number>(sql`select id, company_id from buildings where type = 'farm' and company_id <> ${store.company_id} order by id limit 1`);
    const others = (
      await db.execute<{ id: number }>(sql`
      select id from companies where is_bot and id not in (${store.company_id}, ${farm.company_id}) order by id limit 1`)
    ).map((row) => Number(row.id));
    world = {
      a: Number(store.company_id),
      b: Number(farm.company_id),
      c: others[0]!,
      wheat: await product('Wheat'),
      flour: await product('Wheat Flour'),
      cola: await product('Cola'),
      bread: await product('White Bread'),
      store: { id: Number(store.id), companyId: Number(store.company_id) },
      farm: { id: Number(farm.id), companyId: Number(farm.company_id) },
      city: Number((await one(sql`select id from cities order by id limit 1`)).id),
      country: Number((await one(sql`select id from countries order by id limit 1`)).id),
      bakeryRecipe: Number((await one(sql`select id from recipes where lower(building_type) = 'bakery' order by id limit 1`)).id),
      farmRecipe: Number((await one(sql`select id from recipes where lower(building_type) = 'farm' order by id desc limit 1`)).id),
      upgrade: Number((await one(sql`select id from research_upgrades where prerequisite_id is null order by id limit 1`)).id),
    };
    // Company c is short of cash in both copies: its costly requests are refused.
    for (const copy of [listed.db, oneByOne.db]) await copy.execute(sql`update companies set cash_cents = 300000 where id = ${world.c}`);
  });
  afterAll(async () => {
    await listed.drop();
    await oneByOne.drop();
  });

  /** Runs the requests as one list on one copy and one at a time on the other; both answer and change the same. */
  async function sameAsOneByOne<N extends ActionName>(name: N, requests: ActionRequest<ActionInput<N>>[], expected: { applied: number; refused: number }) {
    const many = await listed.db.transaction((tx) => actMany(tx, name, requests));
    const single: Outcome<unknown>[] = [];
    for (const request of requests) single.push(...(await actMany(oneByOne.db, name, [request])));
    expect(many.map(readable)).toEqual(single.map(readable));
    // Every refusal is one the table declares for the action (or the schema's, at the door).
    for (const outcome of many) if (!outcome.applied && outcome.refusal.code !== 'INVALID_INPUT') expect(ACTIONS[name].refuses).toContain(outcome.refusal.code);
    expect(await effects(listed.db)).toEqual(await effects(oneByOne.db));
    expect({ applied: many.filter((outcome) => outcome.applied).length, refused: many.filter((outcome) => !outcome.applied).length }).toEqual(expected);
    return many;
  }
  const as = <I>(companyId: number, input: I) => ({ companyId, actingUserId: null, input });

  it('market trades: several companies, one product walked in order, refusals between them', async () => {
    const { a, b, c, wheat, bread } = world;
    await sameAsOneByOne('marketTrade', [as(a, { product_id: bread, quantity: 500, action: 'buy' })], { applied: 1, refused: 0 });
    await sameAsOneByOne(
      'marketTrade',
      [
        as(a, { product_id: wheat, quantity: 300, action: 'buy' }),
        as(b, { product_id: wheat, quantity: 2_000, action: 'buy' }),
        as(a, { product_id: bread, quantity: 200, action: 'sell' }),
        as(a, { product_id: bread, quantity: 5_000, action: 'sell' }), // more than held
        as(c, { product_id: wheat, quantity: 900_000, action: 'buy' }), // too large for the market
        as(c, { product_id: 999_999, quantity: 5, action: 'buy' }), // no such product
        as(c, { product_id: bread, quantity: 2_000, action: 'buy' }), // more than its cash
        as(c, { product_id: wheat, quantity: 50, action: 'buy' }),
        as(a, { product_id: bread, quantity: 300, action: 'sell' }), // the rest of what it held
      ],
      { applied: 5, refused: 4 },
    );
  });

  it('purchases for buildings and shelving', async () => {
    const { a, c, cola, wheat, store, farm } = world;
    await sameAsOneByOne(
      'purchaseForBuilding',
      [
        as(store.companyId, { id: store.id, product_id: cola, quantity: 120 }),
        as(c, { id: store.id, product_id: cola, quantity: 5 }), // not its store
        as(farm.companyId, { id: farm.id, product_id: wheat, quantity: 40 }),
        as(store.companyId, { id: store.id, product_id: cola, quantity: 30 }), // the same back room again
      ],
      { applied: 3, refused: 1 },
    );
    await sameAsOneByOne(
      'transferToStore',
      [
        as(a, { id: store.id, product_id: cola, quantity: 100, retail_price: 2.5 }),
        as(a, { id: store.id, product_id: cola, quantity: 9_999, retail_price: 2.5 }), // more than held
        as(a, { id: store.id, product_id: wheat, quantity: 1, retail_price: 3 }), // not a consumer good
        as(farm.companyId, { id: farm.id, product_id: wheat, quantity: 1, retail_price: 3 }), // not a store
        as(a, { id: store.id, product_id: cola, quantity: 50, retail_price: 2.75 }), // the rest of the back room
      ],
      { applied: 2, refused: 3 },
    );
  });

  it('building actions', async () => {
    const { a, b, c, city, store, farm } = world;
    const [built] = await sameAsOneByOne(
      'buildBuilding',
      [
        as(b, { type: 'bakery', city_id: city }),
        as(c, { type: 'factory', city_id: city }), // more than its cash
        as(a, { type: 'farm', city_id: 999_999 }), // no such city
        as(a, { type: 'farm', city_id: city }),
      ],
      { applied: 2, refused: 2 },
    );
    const bakery = built!.applied ? (built!.result as { building_id: number }).building_id : 0;
    await sameAsOneByOne(
      'hireEmployees',
      [as(b, { id: farm.id, count: 4 }), as(c, { id: farm.id, count: 1 }), as(b, { id: farm.id, count: 2 }), as(b, { id: bakery, count: 10 })],
      { applied: 3, refused: 1 },
    );
    await sameAsOneByOne(
      'upgradeEquipment',
      [
        as(b, { id: farm.id, target_level: 2 }),
        as(b, { id: farm.id, target_level: 2 }),
        as(b, { id: farm.id, target_level: 3 }),
        as(a, { id: farm.id, target_level: 4 }),
      ],
      { applied: 2, refused: 2 },
    );
    await sameAsOneByOne('setProductionRate', [as(b, { id: farm.id, new_rate: 150 }), as(a, { id: farm.id, new_rate: 50 })], { applied: 1, refused: 1 });
    await sameAsOneByOne(
      'selectRecipe',
      [
        as(b, { id: bakery, recipe_id: world.bakeryRecipe }),
        as(b, { id: farm.id, recipe_id: world.bakeryRecipe }), // a bakery's recipe
        as(a, { id: store.id, recipe_id: world.bakeryRecipe }), // a store has none
        as(b, { id: farm.id, recipe_id: world.farmRecipe }),
      ],
      { applied: 2, refused: 2 },
    );
    await sameAsOneByOne('selectCategory', [as(a, { id: store.id, category: 'Food Products' }), as(b, { id: farm.id, category: 'Food Products' })], {
      applied: 1,
      refused: 1,
    });
  });

  it('shelf prices, politics, research, shares', async () => {
    const { a, b, c, cola, store } = world;
    await sameAsOneByOne(
      'updateStorePrice',
      [
        as(a, { id: store.id, product_id: cola, retail_price: 3.1 }),
        as(b, { id: store.id, product_id: cola, retail_price: 1 }),
        as(a, { id: store.id, product_id: world.wheat, retail_price: 1 }),
      ],
      { applied: 1, refused: 2 },
    );
    await sameAsOneByOne(
      'toggleStoreProduct',
      [as(a, { id: store.id, product_id: cola, is_active: false }), as(a, { id: world.farm.id, product_id: cola, is_active: true })],
      { applied: 1, refused: 1 },
    );
    await sameAsOneByOne(
      'investInPolitics',
      [
        as(a, { country_id: world.country, amount: 2_000 }),
        as(c, { country_id: world.country, amount: 1_000_000 }),
        as(b, { country_id: world.country, amount: 1_000, platform: 'higher_taxes' }),
      ],
      { applied: 2, refused: 1 },
    );
    await sameAsOneByOne(
      'purchaseResearch',
      [as(b, { upgrade_id: world.upgrade }), as(b, { upgrade_id: world.upgrade }), as(a, { upgrade_id: world.upgrade })],
      { applied: 2, refused: 1 },
    );
    await sameAsOneByOne(
      'tradeShares',
      [
        as(a, { company_id: b, shares: 10, action: 'buy' }),
        as(a, { company_id: a, shares: 10, action: 'buy' }),
        as(c, { company_id: b, shares: 5, action: 'sell' }),
      ],
      { applied: 1, refused: 2 },
    );
    // A position bought twice (its average price), sold in part, sold out and bought again; sales
    // beyond what is held; the same issuer's curve walked by several holders in the list's order;
    // an order too large for the issuer's shares; and a holder short of cash (company c).
    await sameAsOneByOne(
      'tradeShares',
      [
        as(a, { company_id: b, shares: 7, action: 'buy' }),
        as(c, { company_id: b, shares: 3, action: 'buy' }),
        as(a, { company_id: b, shares: 4, action: 'sell' }),
        as(a, { company_id: b, shares: 50, action: 'sell' }),
        as(b, { company_id: a, shares: 6, action: 'buy' }),
        as(c, { company_id: b, shares: 3, action: 'sell' }),
        as(c, { company_id: b, shares: 1, action: 'sell' }),
        as(c, { company_id: b, shares: 2, action: 'buy' }),
        as(b, { company_id: a, shares: 1_000_000_000, action: 'buy' }),
        as(c, { company_id: a, shares: 5_000, action: 'buy' }),
        as(a, { company_id: b, shares: 13, action: 'sell' }),
      ],
      { applied: 7, refused: 4 },
    );
    // Every cash change is its ledger row (company c's cash was cut by hand above, without one).
    expect((await ledgerMismatches(listed.db)).filter((mismatch) => mismatch.companyId !== world.c)).toEqual([]);
  });

  it('exchange orders and contracts: escrow taken in order, each order and offer answered once', async () => {
    const { a, b, c, wheat } = world;
    const [current] = await listed.db.execute<{ week: number }>(sql`select current_week as week from worlds order by id limit 1`);
    const week = Number(current!.week);
    const placed = await sameAsOneByOne(
      'placeExchangeOrders',
      [
        as(a, { product_id: wheat, side: 'sell' as const, quantity: 100, limit_price: 15, weeks: 2 }),
        as(b, { product_id: wheat, side: 'buy' as const, quantity: 50, limit_price: 11.5 }),
        as(c, { product_id: wheat, side: 'buy' as const, quantity: 1_000, limit_price: 12 }), // more than its cash
        as(a, { product_id: wheat, side: 'sell' as const, quantity: 99_999, limit_price: 15 }), // more than it holds
        as(c, { product_id: 999_999, side: 'buy' as const, quantity: 1, limit_price: 1 }), // no such product
        as(c, { product_id: wheat, side: 'buy' as const, quantity: 10, limit_price: 11 }),
      ],
      { applied: 3, refused: 3 },
    );
    const [sellId, buyId] = placed.flatMap((outcome) => (outcome.applied ? [(outcome.result as { id: number }).id] : []));
    await sameAsOneByOne(
      'cancelExchangeOrders',
      [as(a, { id: sellId! }), as(c, { id: buyId! }), as(a, { id: sellId! })], // c's is not its order; a's second finds it cancelled
      { applied: 1, refused: 2 },
    );
    const offered = await sameAsOneByOne(
      'offerContracts',
      [
        as(a, { buyer_company_id: b, product_id: wheat, quantity: 50, unit_price: 13, expires_week: week }),
        as(a, { buyer_company_id: a, product_id: wheat, quantity: 5, unit_price: 13, expires_week: week }), // to itself
        as(a, { buyer_company_id: b, product_id: wheat, quantity: 99_999, unit_price: 13, expires_week: week }), // more than it holds
        as(b, { buyer_company_id: c, product_id: wheat, quantity: 100, unit_price: 12, expires_week: week + 1 }),
      ],
      { applied: 2, refused: 2 },
    );
    const [toB, toC] = offered.flatMap((outcome) => (outcome.applied ? [(outcome.result as { id: number }).id] : []));
    await sameAsOneByOne('acceptContracts', [as(a, { id: toB! }), as(b, { id: toB! }), as(b, { id: toB! })], { applied: 1, refused: 2 });
    await sameAsOneByOne('declineContracts', [as(c, { id: toC! }), as(c, { id: toB! })], { applied: 1, refused: 1 });
    await sameAsOneByOne('cancelContracts', [as(b, { id: toC! }), as(c, { id: toC! })], { applied: 0, refused: 2 });
    expect((await ledgerMismatches(listed.db)).filter((mismatch) => mismatch.companyId !== world.c)).toEqual([]);
  });

  it('lists of the same companies in opposite orders, at the same time, never deadlock: companies and buildings are locked in id order', async () => {
    const { store, farm } = world;
    const [storeView] = await listed.db.execute<{ employees: number }>(sql`select employees from buildings where id = ${store.id}`);
    const [farmView] = await listed.db.execute<{ employees: number }>(sql`select employees from buildings where id = ${farm.id}`);
    const hireStore = as(store.companyId, { id: store.id, count: 1 });
    const hireFarm = as(farm.companyId, { id: farm.id, count: 1 });
    const rounds = 8;
    const outcomes = await Promise.all(
      Array.from({ length: rounds }, (_, round) => actMany(listed.db, 'hireEmployees', round % 2 === 0 ? [hireStore, hireFarm] : [hireFarm, hireStore])),
    );
    expect(outcomes.flat().every((outcome) => outcome.applied)).toBe(true);
    const [storeAfter] = await listed.db.execute<{ employees: number }>(sql`select employees from buildings where id = ${store.id}`);
    const [farmAfter] = await listed.db.execute<{ employees: number }>(sql`select employees from buildings where id = ${farm.id}`);
    expect(Number(storeAfter!.employees) - Number(storeView!.employees)).toBe(rounds);
    expect(Number(farmAfter!.employees) - Number(farmView!.employees)).toBe(rounds);
  });

  it('share trades in opposite orders, at the same time, never deadlock: every holder and issuer of a list is locked first, in id order', async () => {
    // Four listed companies: w buys x's shares and y buys z's, in one order and the other. Each
    // trade locks its two companies; without the list's lock first, one list holds w and x while
    // waiting for y and z, the other the reverse.
    const [w, x, y, z] = (
      await listed.db.execute<{ company_id: number }>(sql`
        select s.company_id from share_records s join companies c on c.id = s.company_id
        where c.world_id = 1 and c.status = 'active' and s.is_listed order by s.company_id limit 4`)
    ).map((row) => Number(row.company_id));
    const first = as(w!, { company_id: x!, shares: 1, action: 'buy' as const });
    const second = as(y!, { company_id: z!, shares: 1, action: 'buy' as const });
    const rounds = 8;
    const outcomes = await Promise.all(
      Array.from({ length: rounds }, (_, round) => actMany(listed.db, 'tradeShares', round % 2 === 0 ? [first, second] : [second, first])),
    );
    expect(outcomes.flat().filter((outcome) => !outcome.applied)).toEqual([]);
    expect(outcomes.flat()).toHaveLength(2 * rounds);
  });

  it('every action of the table is covered here', () => {
    const covered = [
      'marketTrade',
      'purchaseForBuilding',
      'transferToStore',
      'buildBuilding',
      'hireEmployees',
      'upgradeEquipment',
      'setProductionRate',
      'selectRecipe',
      'selectCategory',
      'updateStorePrice',
      'investInPolitics',
      'purchaseResearch',
      'tradeShares',
      'toggleStoreProduct',
      'placeExchangeOrders',
      'cancelExchangeOrders',
      'offerContracts',
      'acceptContracts',
      'declineContracts',
      'cancelContracts',
    ];
    // The rare ones run request by request (oneByOne): their list is their requests one after another.
    const requestByRequest = ['sellBuilding', 'moveGoods', 'removeStoreProduct', 'updateCompanyProfile'];
    expect([...covered, ...requestByRequest].sort()).toEqual(Object.keys(ACTIONS).sort());
  });
});
