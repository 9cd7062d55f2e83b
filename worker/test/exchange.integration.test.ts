/**
 * The exchange's weekly call auction in a real turn (worker/src/turn/exchange.ts, docs/exchange.md):
 * one uniform price per product, buyers pay it plus the fee out of their escrow and get the rest
 * back, sellers get it less the fee, goods move warehouse to warehouse, the maker's units move its
 * flow, expiry returns escrow, a company's own orders never meet, a bankrupt company's orders are
 * cancelled first; and over random weeks: cash + cash in escrow = starting cash + the ledger, and
 * the goods players hold (warehouse + escrow) change only by the maker's fills.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { EXCHANGE_FEE_BP, makerSupplyRule } from '@marketcraft/shared';
import { actMany, getWeekReport, ledgerMismatches, listHoldings, type DbExecutor } from '@marketcraft/db';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { mulberry32 } from '@marketcraft/shared';
import { runTurn } from '../src/turn/index.ts';
import { runBotTurn } from '../src/bots/index.ts';
import { BOT_ASK_BP, BOT_BID_BP, placeBotExchangeOrders } from '../src/bots/exchange.ts';
import { cashOf, createCompany, createTurnWorld, insertBuilding, warehouse, worldWeek, type TurnWorld } from './fixtures.ts';

const fee = (cents: number) => Math.ceil((cents * EXCHANGE_FEE_BP) / 10_000);

async function stock(db: DbExecutor, companyId: number, productId: number, quantity: number, costCents: number) {
  await db.execute(sql`
    insert into inventory_items (world_id, company_id, product_id, quantity, average_cost_cents) values (1, ${companyId}, ${productId}, ${quantity}, ${costCents})
    on conflict (world_id, company_id, product_id) do update set quantity = excluded.quantity`);
}

async function place(db: DbExecutor, companyId: number, productId: number, side: 'buy' | 'sell', quantity: number, limitPriceCents: number, weeks = 1) {
  const [outcome] = await actMany(db, 'placeExchangeOrders', [
    { companyId, actingUserId: null, input: { product_id: productId, side, quantity, limit_price: limitPriceCents / 100, weeks } },
  ]);
  if (!outcome!.applied) throw outcome!.refusal;
  return outcome!.result;
}

async function order(db: DbExecutor, id: number) {
  const [row] = await db.execute<{ status: string; filled_quantity: number; escrow_cents: number; escrow_units: number }>(
    sql`select status, filled_quantity, escrow_cents, escrow_units from exchange_orders where id = ${id}`,
  );
  return { status: row!.status, filled: Number(row!.filled_quantity), escrowCents: Number(row!.escrow_cents), escrowUnits: Number(row!.escrow_units) };
}

/** cash + cash in escrow - starting cash - the ledger rows that are not escrow moves, per company: 0 when all is well. */
async function escrowGaps(db: DbExecutor): Promise<{ id: number; gap: number }[]> {
  const rows = await db.execute<{ id: number; gap: number }>(sql`
    select c.id, (c.cash_cents
                  + coalesce((select sum(o.escrow_cents) from exchange_orders o where o.company_id = c.id and o.status in ('open', 'partially_filled')), 0)
                  - c.starting_cash_cents
                  - coalesce((select sum(t.amount_cents) from transactions t where t.company_id = c.id and t.reason not in ('exchange_escrow', 'exchange_release')), 0))::bigint as gap
    from companies c`);
  return rows.map((row) => ({ id: Number(row.id), gap: Number(row.gap) })).filter((row) => row.gap !== 0);
}

/** Units of a product held by companies (warehouse + sell orders' escrow). */
async function goodsHeld(db: DbExecutor, productId: number): Promise<number> {
  const [row] = await db.execute<{ n: number }>(sql`
    select (coalesce((select sum(quantity) from inventory_items where world_id = 1 and product_id = ${productId}), 0)
          + coalesce((select sum(escrow_units) from exchange_orders where world_id = 1 and product_id = ${productId} and status in ('open', 'partially_filled')), 0))::bigint as n`);
  return Number(row!.n);
}

describe('the weekly call auction in the turn', () => {
  let database: TestDatabase;
  let world: TurnWorld;
  beforeAll(async () => {
    database = await createTestDatabase();
    world = await createTurnWorld(database.db);
  });
  afterAll(async () => {
    expect(await ledgerMismatches(database.db)).toEqual([]);
    expect(await escrowGaps(database.db)).toEqual([]);
    await database.drop();
  });

  it('clears players at one price: buyers pay it plus the fee from escrow (the rest back), the seller gets it less the fee, goods move', async () => {
    const { db } = database;
    const seller = await createCompany(db, { name: `Seller ${world.tag}`, cashCents: 1_000_000 });
    const eager = await createCompany(db, { name: `Eager ${world.tag}`, cashCents: 5_000_000 });
    const careful = await createCompany(db, { name: `Careful ${world.tag}`, cashCents: 5_000_000 });
    await stock(db, seller, world.wheat, 100, 900);
    // Wheat is posted at $12.00 (depth 4,000): the maker sells from ~$12.30 and buys below ~$11.70.
    const sell = await place(db, seller, world.wheat, 'sell', 100, 1_190);
    const buyHigh = await place(db, eager, world.wheat, 'buy', 60, 1_250);
    const buyLow = await place(db, careful, world.wheat, 'buy', 60, 1_200);
    const week = await worldWeek(db);
    const result = await runTurn(db, { week });
    expect(result.status).toBe('advanced');

    const [auction] = await db.execute<{ price_cents: number; volume: number; players_volume: number; maker_sold: number; maker_bought: number }>(sql`
      select price_cents, volume, players_volume, maker_sold, maker_bought from exchange_auctions where world_id = 1 and product_id = ${world.wheat} and week = ${week}`);
    const price = Number(auction!.price_cents);
    // Demand 120 (60 up to $12.50, 60 up to $12.00), the seller's 100 from $11.90: the price is in
    // [$11.90, $12.00] where 100 meet 120; the maker sells nothing below its ask ($12.30).
    expect(price).toBeGreaterThanOrEqual(1_190);
    expect(price).toBeLessThanOrEqual(1_200);
    expect(Number(auction!.volume)).toBe(100);
    expect(Number(auction!.maker_sold)).toBe(0);
    expect(Number(auction!.players_volume)).toBe(100);

    const sold = await order(db, sell.id);
    expect(sold).toEqual({ status: 'filled', filled: 100, escrowCents: 0, escrowUnits: 0 });
    const high = await order(db, buyHigh.id);
    const low = await order(db, buyLow.id);
    // Every bid above the price fills in full; the bids at the price share what is left.
    if (price < 1_200) expect([high.filled, low.filled]).toEqual([60, 40]);
    else expect(high.filled).toBe(60);
    expect(high.filled + low.filled).toBe(100);
    expect(high.status).toBe('filled');
    // Weeks = 1: what was not filled expired with the turn and its escrow came back.
    expect(low).toMatchObject({ status: low.filled === 60 ? 'filled' : 'expired', escrowCents: 0 });

    const value = (units: number) => units * price;
    expect(await cashOf(db, seller)).toBe(1_000_000 + value(100) - fee(value(100)) + (await turnCosts(db, seller, week)));
    expect(await cashOf(db, eager)).toBe(5_000_000 - value(60) - fee(value(60)) + (await turnCosts(db, eager, week)));
    expect(await cashOf(db, careful)).toBe(5_000_000 - value(low.filled) - fee(value(low.filled)) + (await turnCosts(db, careful, week)));
    expect(await warehouse(db, seller, world.wheat)).toBe(0);
    expect(await warehouse(db, eager, world.wheat)).toBe(60);
    expect(await warehouse(db, careful, world.wheat)).toBe(low.filled);
    const [cost] = await db.execute<{ c: number }>(
      sql`select average_cost_cents as c from inventory_items where company_id = ${eager} and product_id = ${world.wheat}`,
    );
    expect(Number(cost!.c)).toBe(Math.round((value(60) + fee(value(60))) / 60));
    const fills = await db.execute<{ order_id: number; quantity: number; price_cents: number }>(
      sql`select order_id, quantity, price_cents from exchange_fills where week = ${week} order by order_id`,
    );
    expect(fills.every((fill) => Number(fill.price_cents) === price)).toBe(true);

    // The week's results list each company's own fills: product, side, units, the clearing price, the fee.
    const dollars = (cents: number) => cents / 100;
    expect((await getWeekReport(db, eager, week)).exchange_fills).toEqual([
      {
        order_id: buyHigh.id,
        product_id: world.wheat,
        product: `Wheat ${world.tag}`,
        side: 'buy',
        quantity: 60,
        price: dollars(price),
        fee: dollars(fee(value(60))),
        total: dollars(value(60) + fee(value(60))),
      },
    ]);
    expect((await getWeekReport(db, seller, week)).exchange_fills).toEqual([
      {
        order_id: sell.id,
        product_id: world.wheat,
        product: `Wheat ${world.tag}`,
        side: 'sell',
        quantity: 100,
        price: dollars(price),
        fee: dollars(fee(value(100))),
        total: dollars(value(100) - fee(value(100))),
      },
    ]);
  });

  it("fills a lone buy against the maker's schedule and moves the maker's flow, so next week's price", async () => {
    const { db } = database;
    const buyer = await createCompany(db, { name: `Lone buyer ${world.tag}`, cashCents: 10_000_000 });
    const week = await worldWeek(db);
    const [before] = await db.execute<{ bought: number; flow: number; posted: number }>(sql`
      select coalesce((select units_bought from market_activity where world_id = 1 and week = ${week} and product_id = ${world.flour}), 0) as bought,
             coalesce((select units_bought - units_sold from market_activity where world_id = 1 and week = ${week} and product_id = ${world.flour}), 0) as flow,
             (select current_price_cents from world_products where world_id = 1 and product_id = ${world.flour}) as posted`);
    const placed = await place(db, buyer, world.flour, 'buy', 200, 4_000, 2);
    await runTurn(db, { week });
    const filled = await order(db, placed.id);
    expect(filled).toMatchObject({ status: 'filled', filled: 200, escrowCents: 0 });
    const [auction] = await db.execute<{ price_cents: number; maker_sold: number }>(
      sql`select price_cents, maker_sold from exchange_auctions where product_id = ${world.flour} and week = ${week}`,
    );
    expect(Number(auction!.maker_sold)).toBe(200);
    // The price is where the maker's schedule offers 200: never below its curve.
    const [flour] = await db.execute<{ depth: number }>(sql`select depth_units as depth from products where id = ${world.flour}`);
    const offered = (at: number) =>
      makerSupplyRule.evaluate({ price: Number(before!.posted), depth: Number(flour!.depth), flow: Number(before!.flow), at, marginBp: 0 });
    expect(offered(Number(auction!.price_cents))).toBeGreaterThanOrEqual(200);
    expect(offered(Number(auction!.price_cents) - 1)).toBeLessThan(200);
    const [activity] = await db.execute<{ bought: number }>(
      sql`select units_bought as bought from market_activity where world_id = 1 and week = ${week} and product_id = ${world.flour}`,
    );
    expect(Number(activity!.bought)).toBe(Number(before!.bought) + 200);
    const [posted] = await db.execute<{ p: number }>(
      sql`select current_price_cents as p from world_products where world_id = 1 and product_id = ${world.flour}`,
    );
    expect(Number(posted!.p)).not.toBe(Number(before!.posted));
  });

  it("books one ledger line of each kind for a company's fills in an auction, and its week results list every order", async () => {
    const { db } = database;
    const buyer = await createCompany(db, { name: `Two bids ${world.tag}`, cashCents: 10_000_000 });
    const posted = async (productId: number) => {
      const [row] = await db.execute<{ p: number }>(sql`select current_price_cents as p from world_products where world_id = 1 and product_id = ${productId}`);
      return Number(row!.p);
    };
    // Far above the maker's ask: both fill in full against its schedule.
    const wheatBid = await place(db, buyer, world.wheat, 'buy', 20, 2 * (await posted(world.wheat)));
    const flourBid = await place(db, buyer, world.flour, 'buy', 30, 2 * (await posted(world.flour)));
    // Placing a bid gives the buyer an empty warehouse row (the turn's fill updates it in place), not listed.
    const [empty] = await db.execute<{ quantity: number }>(
      sql`select quantity from inventory_items where world_id = 1 and company_id = ${buyer} and product_id = ${world.flour}`,
    );
    expect(Number(empty!.quantity)).toBe(0);
    expect((await listHoldings(db, buyer)).items.filter((item) => item.product_id === world.flour)).toEqual([]);
    const week = await worldWeek(db);
    await runTurn(db, { week });
    expect(await order(db, wheatBid.id)).toMatchObject({ status: 'filled', filled: 20, escrowCents: 0 });
    expect(await order(db, flourBid.id)).toMatchObject({ status: 'filled', filled: 30, escrowCents: 0 });

    const fills = (await getWeekReport(db, buyer, week)).exchange_fills;
    expect(fills.map((fill) => [fill.order_id, fill.quantity])).toEqual(
      expect.arrayContaining([
        [wheatBid.id, 20],
        [flourBid.id, 30],
      ]),
    );
    expect(fills).toHaveLength(2);
    const paidCents = fills.reduce((sum, fill) => sum + Math.round(fill.total * 100), 0);
    const heldCents = Math.round((wheatBid.escrow + flourBid.escrow) * 100);
    const lines = await db.execute<{ reason: string; amount_cents: number; description: string }>(sql`
      select reason, amount_cents, description from transactions where company_id = ${buyer} and week = ${week} and reason in ('exchange_buy', 'exchange_release') order by reason`);
    expect(lines.map((line) => [line.reason, Number(line.amount_cents)])).toEqual([
      ['exchange_buy', -paidCents],
      ['exchange_release', heldCents],
    ]);
    expect(lines[0]!.description).toMatch(/^Bought 50 units in the auction over 2 orders, \$[\d,.]+ of fees included/);
    expect(await cashOf(db, buyer)).toBe(10_000_000 - paidCents + (await turnCosts(db, buyer, week)));
    expect(await warehouse(db, buyer, world.flour)).toBe(30);
  });

  it('shares the units at the margin pro rata in whole units: 10 offered to three bids of 10 at the price fill 4, 3 and 3', async () => {
    const { db } = database;
    const [wheat] = await db.execute<{ p: number }>(
      sql`select current_price_cents as p from world_products where world_id = 1 and product_id = ${world.wheat}`,
    );
    const posted = Number(wheat!.p);
    // Inside the maker's spread (2.5% each way) it neither buys nor sells: only players trade.
    const seller = await createCompany(db, { name: `Margin seller ${world.tag}`, cashCents: 1_000_000 });
    await stock(db, seller, world.wheat, 10, 1_000);
    await place(db, seller, world.wheat, 'sell', 10, posted);
    const buyers = [];
    for (let index = 0; index < 3; index += 1) {
      const buyer = await createCompany(db, { name: `Margin buyer ${index} ${world.tag}`, cashCents: 10_000_000 });
      buyers.push({ buyer, order: await place(db, buyer, world.wheat, 'buy', 10, posted + Math.floor(posted / 100)) });
    }
    const week = await worldWeek(db);
    await runTurn(db, { week });
    const fills = await Promise.all(buyers.map(async ({ order: placed }) => (await order(db, placed.id)).filled));
    // Equal remainders: the oldest order gets the unit left over.
    expect(fills).toEqual([4, 3, 3]);
    expect(await Promise.all(buyers.map(({ buyer }) => warehouse(db, buyer, world.wheat)))).toEqual([4, 3, 3]);
  });

  it("never fills a company's buy against its own sell: its smaller side stays out and stays open", async () => {
    const { db } = database;
    const both = await createCompany(db, { name: `Both sides ${world.tag}`, cashCents: 10_000_000 });
    await stock(db, both, world.bread, 50, 2_000);
    const sell = await place(db, both, world.bread, 'sell', 20, 2_000, 2);
    const buy = await place(db, both, world.bread, 'buy', 40, 2_700, 2);
    const week = await worldWeek(db);
    await runTurn(db, { week });
    // Its buys (40) are the larger side: they meet the maker; its 20 sells wait, untouched.
    expect(await order(db, sell.id)).toMatchObject({ status: 'open', filled: 0, escrowUnits: 20 });
    const bought = await order(db, buy.id);
    const [fills] = await db.execute<{ n: number }>(sql`select count(*)::int as n from exchange_fills where order_id = ${sell.id}`);
    expect(Number(fills!.n)).toBe(0);
    expect(bought.filled).toBeGreaterThanOrEqual(0);
    await actMany(db, 'cancelExchangeOrders', [
      { companyId: both, actingUserId: null, input: { id: sell.id } },
      { companyId: both, actingUserId: null, input: { id: buy.id } },
    ]);
  });

  it("a bankrupt company's orders are cancelled and their escrow returned before its goods are sold", async () => {
    const { db } = database;
    const doomed = await createCompany(db, { name: `Doomed ${world.tag}`, cashCents: 1_000_000 });
    await stock(db, doomed, world.wheat, 30, 1_000);
    const sell = await place(db, doomed, world.wheat, 'sell', 30, 99_999, 8);
    const buy = await place(db, doomed, world.flour, 'buy', 10, 100, 8);
    await db.execute(
      sql`update companies set negative_cash_turns = 3, cash_cents = cash_cents - 2000000, starting_cash_cents = starting_cash_cents - 2000000 where id = ${doomed}`,
    );
    const week = await worldWeek(db);
    const result = await runTurn(db, { week });
    expect(result.status === 'advanced' && result.bankrupt).toContain(doomed);
    expect(await order(db, sell.id)).toMatchObject({ status: 'cancelled', escrowUnits: 0 });
    expect(await order(db, buy.id)).toMatchObject({ status: 'cancelled', escrowCents: 0 });
    // The 30 wheat came back and were liquidated with the rest: the ledger shows them sold.
    const rows = await db.execute<{ reason: string; amount_cents: number }>(
      sql`select reason, amount_cents from transactions where company_id = ${doomed} and week = ${week} order by id`,
    );
    expect(rows.map((row) => row.reason)).toEqual(expect.arrayContaining(['exchange_release', 'liquidation']));
    expect(await warehouse(db, doomed, world.wheat)).toBe(0);
  });

  it('a contract offer expires at the turn of its last week: its goods go back to the seller at their cost', async () => {
    const { db } = database;
    const seller = await createCompany(db, { name: `Offer seller ${world.tag}`, cashCents: 1_000_000 });
    const buyer = await createCompany(db, { name: `Offer buyer ${world.tag}`, cashCents: 1_000_000 });
    await stock(db, seller, world.flour, 30, 2_500);
    const week = await worldWeek(db);
    const [made] = await actMany(db, 'offerContracts', [
      {
        companyId: seller,
        actingUserId: null,
        input: { buyer_company_id: buyer, product_id: world.flour, quantity: 30, unit_price: 30, expires_week: week },
      },
    ]);
    expect(made).toMatchObject({ applied: true, result: { status: 'open' } });
    expect(await warehouse(db, seller, world.flour)).toBe(0);
    await runTurn(db, { week });
    const [row] = await db.execute<{ status: string }>(sql`select status from contracts where id = ${made!.applied ? made!.result.id : 0}`);
    expect(row!.status).toBe('expired');
    expect(await warehouse(db, seller, world.flour)).toBe(30);
    expect(await warehouse(db, buyer, world.flour)).toBe(0);
  });

  it("an accepted contract is in both companies' week results; a declined one in neither", async () => {
    const { db } = database;
    const seller = await createCompany(db, { name: `Contract seller ${world.tag}`, cashCents: 1_000_000 });
    const buyer = await createCompany(db, { name: `Contract buyer ${world.tag}`, cashCents: 1_000_000 });
    await stock(db, seller, world.flour, 50, 2_500);
    const week = await worldWeek(db);
    const offer = async (quantity: number) => {
      const [made] = await actMany(db, 'offerContracts', [
        { companyId: seller, actingUserId: null, input: { buyer_company_id: buyer, product_id: world.flour, quantity, unit_price: 31.5, expires_week: week } },
      ]);
      return made!.applied ? made!.result.id : 0;
    };
    const accepted = await offer(20);
    const declined = await offer(10);
    expect(await actMany(db, 'acceptContracts', [{ companyId: buyer, actingUserId: null, input: { id: accepted } }])).toMatchObject([{ applied: true }]);
    expect(await actMany(db, 'declineContracts', [{ companyId: buyer, actingUserId: null, input: { id: declined } }])).toMatchObject([{ applied: true }]);
    await runTurn(db, { week });
    const line = { contract_id: accepted, product_id: world.flour, product: `Flour ${world.tag}`, quantity: 20, unit_price: 31.5, total: 630 };
    expect((await getWeekReport(db, buyer, week)).contracts_delivered).toEqual([
      { ...line, role: 'bought', counterparty_id: seller, counterparty: `Contract seller ${world.tag}` },
    ]);
    expect((await getWeekReport(db, seller, week)).contracts_delivered).toEqual([
      { ...line, role: 'sold', counterparty_id: buyer, counterparty: `Contract buyer ${world.tag}` },
    ]);
    expect((await getWeekReport(db, seller, week)).exchange_fills).toEqual([]);
  });

  it("over random weeks: cash + escrow = starting cash + ledger, and goods change only by the maker's fills", async () => {
    const { db } = database;
    let seed = 11;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const traders: number[] = [];
    for (let index = 0; index < 6; index += 1) {
      const id = await createCompany(db, { name: `Random trader ${index} ${world.tag}`, cashCents: 20_000_000 });
      await stock(db, id, world.wheat, 500, 1_100);
      await stock(db, id, world.flour, 300, 3_000);
      traders.push(id);
    }
    const products = [world.wheat, world.flour];
    let liveAfterTurns = 0;
    for (let round = 0; round < 4; round += 1) {
      const week = await worldWeek(db);
      const before = await Promise.all(products.map((id) => goodsHeld(db, id)));
      const requests = Array.from({ length: 30 }, () => {
        const productId = products[Math.floor(random() * products.length)]!;
        const posted = productId === world.wheat ? 1_200 : 3_190;
        return {
          companyId: traders[Math.floor(random() * traders.length)]!,
          actingUserId: null,
          input: {
            product_id: productId,
            side: random() < 0.5 ? ('buy' as const) : ('sell' as const),
            quantity: 1 + Math.floor(random() * 80),
            limit_price: Math.round(posted * (0.85 + random() * 0.3)) / 100,
            weeks: 1 + Math.floor(random() * 3),
          },
        };
      });
      const outcomes = await actMany(db, 'placeExchangeOrders', requests);
      // Some are cancelled again before the turn.
      const placed = outcomes.flatMap((outcome) => (outcome.applied ? [outcome.result.id] : []));
      const owners = new Map(outcomes.flatMap((outcome, index) => (outcome.applied ? [[outcome.result.id, requests[index]!.companyId] as const] : [])));
      await actMany(
        db,
        'cancelExchangeOrders',
        placed.filter(() => random() < 0.2).map((id) => ({ companyId: owners.get(id)!, actingUserId: null, input: { id } })),
      );
      await runTurn(db, { week });
      expect(await escrowGaps(db)).toEqual([]);
      expect(await ledgerMismatches(db)).toEqual([]);
      for (const [index, productId] of products.entries()) {
        const [maker] = await db.execute<{ net: number }>(sql`
          select coalesce(sum(maker_sold - maker_bought), 0)::bigint as net from exchange_auctions where world_id = 1 and product_id = ${productId} and week = ${week}`);
        // No buildings: only the maker's fills bring goods in or take them out (player-to-player fills move them).
        expect(await goodsHeld(db, productId)).toBe(before[index]! + Number(maker!.net));
      }
      const [negative] = await db.execute<{ n: number }>(
        sql`select count(*)::int as n from exchange_orders where escrow_cents < 0 or escrow_units < 0 or filled_quantity > quantity`,
      );
      expect(Number(negative!.n)).toBe(0);
      // Every live order's last week is this week or later (the auction and the books find live
      // orders by it: liveOrdersSql); the weeks 1-3 above make some last past the turn.
      const [live] = await db.execute<{ stale: number; live: number }>(sql`
        select count(*) filter (where o.expires_week < w.current_week)::int as stale, count(*)::int as live
        from exchange_orders o join worlds w on w.id = o.world_id where o.world_id = 1 and o.status in ('open', 'partially_filled')`);
      expect(Number(live!.stale)).toBe(0);
      liveAfterTurns += Number(live!.live);
    }
    // Some orders outlived a turn, so the check above looked at some.
    expect(liveAfterTurns).toBeGreaterThan(0);
    // Not a vacuous check: players traded with each other and with the maker.
    const [traded] = await db.execute<{ players: number; maker: number }>(sql`
      select coalesce(sum(players_volume), 0)::bigint as players, coalesce(sum(maker_sold + maker_bought), 0)::bigint as maker
      from exchange_auctions where world_id = 1 and product_id in (${world.wheat}, ${world.flour})`);
    expect(Number(traded!.players)).toBeGreaterThan(0);
    expect(Number(traded!.maker)).toBeGreaterThan(0);
  });

  // Last: the bot's mill produces and its strategy trades, which the goods check above leaves out.
  it("bots post their output for sale under the posted price and bid for their inputs over it, through the players' action", async () => {
    const { db } = database;
    const bot = await createCompany(db, { name: `Miller bot ${world.tag}`, cashCents: 100_000_000, bot: true });
    await insertBuilding(db, { companyId: bot, type: 'mill', cityId: world.farmCityId, employees: 5, recipeId: world.millRecipeId });
    await stock(db, bot, world.flour, 200, 2_000);
    await stock(db, bot, world.wheat, 50, 1_000);
    const week = await worldWeek(db);
    // The bots' exchange step alone (runBotTurn calls it after the strategies' actions, which would change what it holds).
    expect(await db.transaction((tx) => placeBotExchangeOrders(tx, 1))).toBeGreaterThanOrEqual(2);
    const orders = await db.execute<{ product_id: number; side: string; quantity: number; limit_price_cents: number; expires_week: number }>(sql`
      select product_id, side, quantity, limit_price_cents, expires_week from exchange_orders where company_id = ${bot} and status = 'open' order by side`);
    const posted = async (productId: number) =>
      Number(
        (await db.execute<{ p: number }>(sql`select current_price_cents as p from world_products where world_id = 1 and product_id = ${productId}`))[0]!.p,
      );
    // The mill uses 150 wheat a week and holds 50: it bids for 100; it holds 200 flour and offers half.
    expect(
      orders.map((o) => ({
        product_id: Number(o.product_id),
        side: o.side,
        quantity: Number(o.quantity),
        limit: Number(o.limit_price_cents),
        expires: Number(o.expires_week),
      })),
    ).toEqual([
      { product_id: world.wheat, side: 'buy', quantity: 100, limit: Math.ceil(((await posted(world.wheat)) * BOT_BID_BP) / 10_000), expires: week },
      { product_id: world.flour, side: 'sell', quantity: 100, limit: Math.floor(((await posted(world.flour)) * BOT_ASK_BP) / 10_000), expires: week },
    ]);
    expect(await warehouse(db, bot, world.flour)).toBe(100);
    // And the whole bots' phase calls it (rolled back: the orders above are the ones checked).
    let inPhase = -1;
    await db
      .transaction(async (tx) => {
        inPhase = (await runBotTurn(tx, 1, week, mulberry32(week))).exchangeOrders;
        tx.rollback();
      })
      .catch(() => {});
    expect(inPhase).toBeGreaterThan(0);
    await actMany(
      db,
      'cancelExchangeOrders',
      (await db.execute<{ id: number }>(sql`select id from exchange_orders where company_id = ${bot} and status = 'open'`)).map((row) => ({
        companyId: bot,
        actingUserId: null,
        input: { id: Number(row.id) },
      })),
    );
  });
});

/** What the turn's own costs (wages, operating costs, taxes) changed: none for a company without buildings, but taxes on its profit. */
async function turnCosts(db: DbExecutor, companyId: number, week: number): Promise<number> {
  const [row] = await db.execute<{ total: number }>(sql`
    select coalesce(sum(amount_cents), 0)::bigint as total from transactions where company_id = ${companyId} and week = ${week} and reason in ('tax', 'dividend', 'dividend_paid')`);
  return Number(row!.total);
}
