/**
 * GET /api/warehouse (every good a company holds, wherever it is) and POST /api/warehouse/move
 * (between the company warehouse and a store's back room), over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { centsToDollars, liquidationValueRule, marketSellProceedsRule } from '@marketcraft/shared';
import { buildingInventoryItems, buildings, inventoryItems, ledgerMismatches, transactions, type Database } from '@marketcraft/db';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';
import { createProductionWorld, expectLedgerBalanced, type ProductionWorld } from './helpers/productionFixtures.ts';

describe('the warehouse: holdings everywhere, moves between the warehouse and a back room', () => {
  let app: TestApp;
  let db: Database;
  let world: ProductionWorld;
  beforeAll(async () => {
    app = await startTestApp();
    db = app.database.db;
    world = await createProductionWorld(db);
  });
  afterAll(async () => {
    expect(await ledgerMismatches(db)).toEqual([]);
    await app.close();
  });

  async function build(player: TestPlayer, type: string, cityId = world.retailCity.id): Promise<number> {
    const response = await app.api('POST', '/buildings', { token: player.token, body: { type, city_id: cityId } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.id as number;
  }
  const buy = (player: TestPlayer, productId: number, quantity: number) =>
    app.api('POST', '/market/trade', { token: player.token, body: { product_id: productId, quantity, action: 'buy' } });

  async function stock(companyId: number, storeId: number, productId: number) {
    const [warehouse] = await db
      .select({ quantity: inventoryItems.quantity, average: inventoryItems.averageCostCents })
      .from(inventoryItems)
      .where(and(eq(inventoryItems.companyId, companyId), eq(inventoryItems.productId, productId)));
    const [backRoom] = await db
      .select({ quantity: buildingInventoryItems.quantity, average: buildingInventoryItems.purchasePriceCents })
      .from(buildingInventoryItems)
      .where(and(eq(buildingInventoryItems.buildingId, storeId), eq(buildingInventoryItems.productId, productId)));
    return {
      warehouse: warehouse?.quantity ?? 0,
      warehouseAverage: warehouse?.average ?? 0,
      backRoom: backRoom?.quantity ?? 0,
      backRoomAverage: backRoom?.average ?? 0,
    };
  }

  it('lists the warehouse, back rooms and shelves with average cost, market value and the buildings that use each good', async () => {
    const player = await app.createPlayer({ cash: 100_000 });
    const store = await build(player, 'store');
    const mill = await build(player, 'mill', world.city.id);
    await app.api('PUT', `/buildings/${mill}/select-recipe`, { token: player.token, body: { recipe_id: world.millRecipeId } });
    expect((await buy(player, world.wheat.id, 300)).status).toBe(200);
    expect(
      (await app.api('POST', `/buildings/${store}/inventory/purchase`, { token: player.token, body: { product_id: world.bread.id, quantity: 20 } })).status,
    ).toBe(200);
    const shelved = await app.api('POST', `/buildings/${store}/inventory/transfer-to-store`, {
      token: player.token,
      body: { product_id: world.bread.id, quantity: 5, retail_price: 7.25 },
    });
    expect(shelved.status).toBe(200);

    const response = await app.api('GET', '/warehouse', { token: player.token });
    expect(response.status).toBe(200);
    const storeRef = { building_id: store, building_name: 'Store', city_name: world.retailCity.name };
    // Average costs are what the exchange charged (the purchases walked the curve); values are the exchange's rules now.
    const [breadCost] = await db.execute<{ cents: number }>(
      sql`select purchase_price_cents as cents from building_inventory_items where building_id = ${store} and product_id = ${world.bread.id}`,
    );
    const [wheatCost] = await db.execute<{ cents: number }>(
      sql`select average_cost_cents as cents from inventory_items where company_id = ${player.companyId} and product_id = ${world.wheat.id}`,
    );
    const breadCents = Number(breadCost!.cents);
    const wheatCents = Number(wheatCost!.cents);
    const market = async (productId: number) => {
      const [row] = await db.execute<{ price: number; depth: number; flow: number }>(sql`
        select wp.current_price_cents as price, p.depth_units as depth,
               coalesce((select units_bought - units_sold from market_activity where world_id = 1 and product_id = p.id and week = 1), 0) as flow
        from products p join world_products wp on wp.world_id = 1 and wp.product_id = p.id where p.id = ${productId}`);
      return { price: Number(row!.price), depth: Number(row!.depth), flow: Number(row!.flow) };
    };
    const bread = await market(world.bread.id);
    const wheat = await market(world.wheat.id);
    const sellOne = (m: typeof bread) => centsToDollars(marketSellProceedsRule.evaluate({ ...m, quantity: 1 }));
    const worth = (m: typeof bread, quantity: number) => liquidationValueRule.evaluate({ price: m.price, depth: m.depth, quantity });
    expect(response.body.items).toEqual([
      {
        product_id: world.bread.id,
        product_name: world.bread.name,
        category: 'Food Products',
        location: 'back_room',
        store: storeRef,
        quantity: 15,
        average_cost: centsToDollars(breadCents),
        cost_value: centsToDollars(15 * breadCents),
        unit_value: sellOne(bread),
        market_value: centsToDollars(worth(bread, 15)),
        retail_price: null,
        is_active: null,
        used_by: [],
      },
      {
        product_id: world.bread.id,
        product_name: world.bread.name,
        category: 'Food Products',
        location: 'shelf',
        store: storeRef,
        quantity: 5,
        average_cost: centsToDollars(breadCents),
        cost_value: centsToDollars(5 * breadCents),
        unit_value: sellOne(bread),
        market_value: centsToDollars(worth(bread, 5)),
        retail_price: 7.25,
        is_active: true,
        used_by: [],
      },
      {
        product_id: world.wheat.id,
        product_name: world.wheat.name,
        category: 'Agricultural',
        location: 'warehouse',
        store: null,
        quantity: 300,
        average_cost: centsToDollars(wheatCents),
        cost_value: centsToDollars(300 * wheatCents),
        unit_value: sellOne(wheat),
        market_value: centsToDollars(worth(wheat, 300)),
        retail_price: null,
        is_active: null,
        used_by: [{ building_id: mill, building_name: 'Mill', city_name: world.city.name }],
      },
    ]);
    // The total counts each product's whole holding sold at once, as net worth does: less than the rows' sum.
    expect(response.body.totals).toEqual({
      units: 320,
      cost_value: centsToDollars(300 * wheatCents + 20 * breadCents),
      market_value: centsToDollars(worth(bread, 20) + worth(wheat, 300)),
    });
    expect(response.body.totals.market_value).toBeLessThan(centsToDollars(worth(bread, 15) + worth(bread, 5) + worth(wheat, 300)));

    // Another company sees only its own goods.
    const other = await app.createPlayer({ cash: 1_000 });
    expect((await app.api('GET', '/warehouse', { token: other.token })).body).toEqual({
      items: [],
      totals: { units: 0, cost_value: 0, market_value: 0 },
      in_escrow: [],
    });
  });

  it('moves goods to a back room and back, keeping the average cost, without touching cash', async () => {
    const player = await app.createPlayer({ cash: 100_000 });
    const store = await build(player, 'store');
    await buy(player, world.flour.id, 100);
    const ledgerBefore = await db.select({ id: transactions.id }).from(transactions).where(eq(transactions.companyId, player.companyId));

    const toBackRoom = await app.api('POST', '/warehouse/move', {
      token: player.token,
      body: { building_id: store, product_id: world.flour.id, quantity: 40, direction: 'to_back_room' },
    });
    expect(toBackRoom.status).toBe(200);
    expect(toBackRoom.body).toEqual({
      building_id: store,
      product_id: world.flour.id,
      product_name: world.flour.name,
      quantity: 40,
      direction: 'to_back_room',
      warehouse_quantity: 60,
      back_room_quantity: 40,
    });
    const bought = await stock(player.companyId, store, world.flour.id);
    expect(bought).toEqual({ warehouse: 60, warehouseAverage: bought.warehouseAverage, backRoom: 40, backRoomAverage: bought.warehouseAverage });
    expect(bought.warehouseAverage).toBeGreaterThan(0);

    const back = await app.api('POST', '/warehouse/move', {
      token: player.token,
      body: { building_id: store, product_id: world.flour.id, quantity: 15, direction: 'to_warehouse' },
    });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ warehouse_quantity: 75, back_room_quantity: 25 });
    // A move is no cash change: no ledger line, cash as before.
    const ledgerAfter = await db.select({ id: transactions.id }).from(transactions).where(eq(transactions.companyId, player.companyId));
    expect(ledgerAfter).toHaveLength(ledgerBefore.length);
    await expectLedgerBalanced(db, player.companyId);
  });

  it("refuses moving more than the source holds (409), a building that is not a store (422), another company's store (404) and bad input (400)", async () => {
    const player = await app.createPlayer({ cash: 100_000 });
    const store = await build(player, 'store');
    const farm = await build(player, 'farm', world.city.id);
    await buy(player, world.wheat.id, 10);
    const move = (body: Record<string, unknown>, token = player.token) => app.api('POST', '/warehouse/move', { token, body });

    const tooMany = await move({ building_id: store, product_id: world.wheat.id, quantity: 11, direction: 'to_back_room' });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error).toBe(`Not enough stock: your warehouse has 10 ${world.wheat.name} and you asked to move 11`);
    const emptyBackRoom = await move({ building_id: store, product_id: world.wheat.id, quantity: 1, direction: 'to_warehouse' });
    expect(emptyBackRoom.status).toBe(409);
    expect(emptyBackRoom.body.error).toContain('has 0');

    const notAStore = await move({ building_id: farm, product_id: world.wheat.id, quantity: 1, direction: 'to_back_room' });
    expect(notAStore.status).toBe(422);
    expect(notAStore.body.error).toBe('Only stores have a back room: your Farm takes its inputs from the warehouse each turn');

    const stranger = await app.createPlayer({ cash: 1_000 });
    expect((await move({ building_id: store, product_id: world.wheat.id, quantity: 1, direction: 'to_back_room' }, stranger.token)).status).toBe(404);

    for (const quantity of [0, -1, 2.5, '3x']) {
      const bad = await move({ building_id: store, product_id: world.wheat.id, quantity, direction: 'to_back_room' });
      expect(bad.status, String(quantity)).toBe(400);
    }
    expect((await move({ building_id: store, product_id: world.wheat.id, quantity: 1, direction: 'sideways' })).status).toBe(400);
    expect(await stock(player.companyId, store, world.wheat.id)).toMatchObject({ warehouse: 10, backRoom: 0 });
  });

  it('parallel moves never take more than there is', async () => {
    const player = await app.createPlayer({ cash: 100_000 });
    const store = await build(player, 'store');
    await buy(player, world.bread.id, 50);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        app.api('POST', '/warehouse/move', {
          token: player.token,
          body: { building_id: store, product_id: world.bread.id, quantity: 10, direction: 'to_back_room' },
        }),
      ),
    );
    expect(results.filter((result) => result.status === 200)).toHaveLength(5);
    expect(results.filter((result) => result.status === 409)).toHaveLength(3);
    expect(await stock(player.companyId, store, world.bread.id)).toMatchObject({ warehouse: 0, backRoom: 50 });
    // The store is still the player's and intact.
    const [row] = await db.select({ id: buildings.id }).from(buildings).where(eq(buildings.id, store));
    expect(row).toBeDefined();
  });
});
