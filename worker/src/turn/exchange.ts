/**
 * Phase 3, the exchange's weekly call auction (docs/exchange.md, "How the auction clears"). After
 * the week's production and store sales, before costs and taxes: what the auction buys and sells is
 * part of the week's profit (taxes count its purchases and sales like the market's), and what the
 * market maker traded in it moves its flow, so the markets phase moves next week's posted price by
 * it as it does by instant trades.
 *
 * 1. The orders taking part (auctionOrdersSql: live orders of the turn's companies, a company's
 *    smaller side left out where it has both) go into turn_auction_orders.
 * 2. Each product's price (clearAuction, over its orders read as one text per side, auctionBooksSql,
 *    and the maker's schedule), into turn_clearings.
 * 3. The fills, set-based: in full above (bids) or below (asks) the price; pro rata at the price on
 *    the rationed side (the largest remainders, then the oldest orders, get the units left over).
 * 4. Money and goods, in the same statement as the fills: a buyer pays the price x units plus the
 *    fee out of its order's escrow (what the order no longer needs comes back to its cash), a seller
 *    gets the price less the fee; goods go from the seller's escrow to the buyer's warehouse; every
 *    cash move is a turn_cash row (the ledger at the finish), the profit lines go to turn_pnl.
 * 5. Each product's clearing is recorded with both curves (exchange_auctions), built by the worker
 *    while PostgreSQL writes the fills; the maker's units go into this week's market_activity.
 * 6. Orders whose last auction this was expire: what they hold comes back; so do contract offers
 *    whose last week this was (their goods go back to the seller).
 */
import { sql } from 'drizzle-orm';
import { exchangeFeeRule } from '@marketcraft/shared';
import {
  auctionBookOf,
  auctionBooksSql,
  auctionOrdersSql,
  clearAuction,
  cumulativeLevels,
  formatCentsSql,
  liveOrdersSql,
  ruleSql,
  type AuctionBook,
  type AuctionBookRow,
} from '@marketcraft/db';
import type { TurnContext } from './context.ts';
import { declareTurnTable, fillTurnTable, withoutNestedLoops } from './turnTables.ts';

export async function runExchange(ctx: TurnContext): Promise<void> {
  const { tx, worldId, week } = ctx;
  await fillTurnTable(tx, 'turn_auction_orders', sql`select * from ${auctionOrdersSql(worldId, sql`turn_companies`)} o`);
  const books = await tx.execute<AuctionBookRow>(sql`select * from ${auctionBooksSql(worldId, sql`turn_auction_orders`)} b`);
  if (books.length > 0) {
    const cleared = books.map((row) => {
      const book = auctionBookOf(row);
      return { book, clearing: clearAuction(book) };
    });
    const rows = cleared.map(({ clearing }) => ({
      product_id: clearing.productId,
      price_cents: clearing.priceCents,
      volume: clearing.volume,
      // Units players bought from players: all bought, less what the maker bought, less what players bought from it.
      players_volume: clearing.volume - clearing.makerBought - clearing.makerSold,
      rationed: clearing.rationed,
      margin_players: clearing.marginPlayers,
      maker_sold: clearing.makerSold,
      maker_bought: clearing.makerBought,
    }));
    const columns = sql`product_id int, price_cents bigint, volume bigint, players_volume bigint, rationed text, margin_players bigint, maker_sold bigint, maker_bought bigint`;
    await declareTurnTable(tx, 'turn_clearings', columns);
    await tx.execute(sql`insert into turn_clearings select * from json_to_recordset(${JSON.stringify(rows)}::json) as c(${columns})`);
    // The fills are sent now and the curves built while PostgreSQL writes them: the worker's part of
    // the phase runs beside the backend's instead of before it (two cores; docs/benchmarks.md). The
    // fills' failure is reported where they are awaited, after the curves.
    const filling = fillOrders(ctx);
    filling.catch(() => {});
    const curves = await publishedCurves(cleared.map(({ book }) => book));
    await filling;
    // Each product's clearing recorded with both curves (~100,000 price levels in a busy week) in
    // one parameter: each curve is a JSON array in it, stored as its text (exchange_auctions.bids is
    // json: migration 0053).
    await tx.execute(sql`
      insert into exchange_auctions (world_id, product_id, week, price_cents, volume, players_volume, maker_bought, maker_sold, bids, asks)
      select ${worldId}::int, c.product_id, ${week}::int, c.price_cents, c.volume, c.players_volume, c.maker_bought, c.maker_sold, k.bids, k.asks
      from turn_clearings c join json_to_recordset(${curves}::json) as k(product_id int, bids json, asks json) on k.product_id = c.product_id`);
    // The maker's trades move its flow as instant trades do (markets phase: next week's price).
    await tx.execute(sql`
      insert into market_activity (world_id, week, product_id, units_bought, units_sold)
      select ${worldId}::int, ${week}::int, product_id, maker_sold, maker_bought from turn_clearings
      where price_cents is not null and (maker_sold > 0 or maker_bought > 0)
      on conflict (world_id, week, product_id) do update set
        units_bought = market_activity.units_bought + excluded.units_bought,
        units_sold = market_activity.units_sold + excluded.units_sold`);
  }
  await expireOrders(ctx);
}

/** Products whose curves are built between two turns of the event loop (publishedCurves). */
const CURVES_PER_SLICE = 16;

/**
 * Both published curves of each product, as the JSON text of [{product_id, bids, asks}] with each
 * curve [[price_cents, quantity], ...] (cumulativeLevels). Built a few products at a time, letting
 * the event loop run between them, so the statements already issued (the fills) go out to
 * PostgreSQL and run while the worker builds the rest.
 */
async function publishedCurves(books: readonly AuctionBook[]): Promise<string> {
  const parts: string[] = [];
  for (let start = 0; start < books.length; start += CURVES_PER_SLICE) {
    await new Promise((resolve) => setImmediate(resolve));
    for (const book of books.slice(start, start + CURVES_PER_SLICE)) {
      const bids = JSON.stringify(cumulativeLevels(book.bids, 'buy').map((level) => [level.priceCents, level.quantity]));
      const asks = JSON.stringify(cumulativeLevels(book.asks, 'sell').map((level) => [level.priceCents, level.quantity]));
      parts.push(`{"product_id":${book.productId},"bids":${bids},"asks":${asks}}`);
    }
  }
  return `[${parts.join(',')}]`;
}

const fee = (value: ReturnType<typeof sql>) => ruleSql(exchangeFeeRule, { value });

/**
 * The fills of every product's clearing (turn_clearings), written in ONE statement: the units and
 * money of each fill are computed once (`money`), and the statement's parts write from them: the
 * orders, the fill rows, the buyers' warehouses, the week's profit lines and the ledger. Why one:
 * ~50,000 fills in a busy week, and a table of them written and read by six statements cost more
 * than each part (docs/benchmarks.md).
 */
async function fillOrders(ctx: TurnContext): Promise<void> {
  const { tx, worldId, week } = ctx;
  // The units each order fills: in full above (bids) or below (asks) the price, pro rata at the price
  // on the rationed side. Orders on the wrong side of the price never join.
  const fills = sql`(
    with o as (
      select a.*, c.price_cents, c.margin_players,
             case when a.limit_price_cents = c.price_cents and c.rationed = a.side then 'margin' else 'full' end as kind
      from turn_auction_orders a join turn_clearings c on c.product_id = a.product_id and c.price_cents is not null
      where (a.side = 'buy' and a.limit_price_cents >= c.price_cents) or (a.side = 'sell' and a.limit_price_cents <= c.price_cents)
    ), margin as (
      -- Whole units: the window's sum is numeric, so it is cast back for an integer division.
      select o.*, (o.margin_players * o.remaining) / (sum(o.remaining) over (partition by o.product_id))::bigint as base,
             (o.margin_players * o.remaining) % (sum(o.remaining) over (partition by o.product_id))::bigint as remainder
      from o where kind = 'margin'
    ), ranked as (
      select margin.*, row_number() over (partition by product_id order by remainder desc, id) as rank,
             margin_players - sum(base) over (partition by product_id) as leftover
      from margin
    )
    select id, company_id, product_id, side, remaining, limit_price_cents, filled_value_cents, fee_cents, escrow_cents, price_cents, remaining as fill
    from o where kind = 'full'
    union all
    select id, company_id, product_id, side, remaining, limit_price_cents, filled_value_cents, fee_cents, escrow_cents, price_cents,
           base + case when rank <= leftover then 1 else 0 end
    from ranked where base + case when rank <= leftover then 1 else 0 end > 0
  )`;
  // What each fill costs or pays, from the order as the auction found it (turn_auction_orders). The
  // fee is charged on the order's filled value so far (rounded up once: exchangeFeeRule); a buy's
  // escrow keeps what its units left need at its limit.
  const money = sql`
    with f as (
      select f.id, f.company_id, f.product_id, f.side, f.fill, f.price_cents, f.fill * f.price_cents as value_cents,
             f.remaining - f.fill as units_left, f.limit_price_cents, f.escrow_cents,
             f.filled_value_cents + f.fill * f.price_cents as value_after, f.fee_cents as fee_before
      from ${fills} f
    ), charged as (
      select f.*, ${fee(sql`f.value_after`)} - f.fee_before as fee_cents from f
    )
    select charged.*,
           case when side = 'buy' then value_cents + fee_cents else value_cents - fee_cents end as money_cents,
           case when side = 'buy' and units_left > 0
                then units_left * limit_price_cents + ${fee(sql`value_after + units_left * limit_price_cents`)} - (fee_before + fee_cents)
                else 0 end as escrow_after
    from charged`;
  // Nested loops off for the statement: the planner cannot see how many fills the CTE holds (it
  // guesses a handful) and would look each order up in the orders' primary key one by one; one hash
  // join over the world's orders is cheaper from a few thousand fills on (worker/bench/turn.ts --explain).
  await withoutNestedLoops(tx, () =>
    tx.execute(sql`
    with money as materialized (${money}),
    filled as (
      update exchange_orders o set
        filled_quantity = o.filled_quantity + m.fill,
        filled_value_cents = m.value_after,
        fee_cents = o.fee_cents + m.fee_cents,
        escrow_cents = m.escrow_after,
        escrow_units = case when m.side = 'sell' then o.escrow_units - m.fill else 0 end,
        status = case when m.units_left = 0 then 'filled' else 'partially_filled' end,
        closed_week = case when m.units_left = 0 then ${week}::int end
      from money m where o.world_id = ${worldId}::int and o.id = m.id
    ), recorded as (
      insert into exchange_fills (world_id, order_id, week, company_id, product_id, side, quantity, price_cents, fee_cents)
      select ${worldId}::int, id, ${week}::int, company_id, product_id, side, fill, price_cents, fee_cents from money
    ), bought as (
      -- The units bought, into the buyers' warehouses at what they paid for them (the fee included).
      -- The row is there (a buy order makes it when placed: openWarehouseRows) but for an order placed before that.
      insert into inventory_items (world_id, company_id, product_id, quantity, average_cost_cents)
      select ${worldId}::int, company_id, product_id, sum(fill)::bigint, round(sum(money_cents)::numeric / sum(fill))::bigint
      from money where side = 'buy' group by company_id, product_id
      on conflict (world_id, company_id, product_id) do update set
        average_cost_cents = round((inventory_items.quantity * inventory_items.average_cost_cents + excluded.quantity * excluded.average_cost_cents)::numeric
                                   / nullif(inventory_items.quantity + excluded.quantity, 0)),
        quantity = inventory_items.quantity + excluded.quantity
    ), profit as (
      insert into turn_pnl (company_id, market_sales_cents, market_purchases_cents)
      select company_id, coalesce(sum(money_cents) filter (where side = 'sell'), 0)::bigint, coalesce(sum(money_cents) filter (where side = 'buy'), 0)::bigint
      from money group by company_id
    ),
    -- The ledger: per company, one row of each kind (its buys' escrow released, its buys paid, its
    -- sells' proceeds) for all its fills in this auction, not one per order: a busy week fills ~50,000
    -- orders, and each fill stays traceable in exchange_fills (the week results list every order's).
    -- A company with one fill of a kind reads the order's own line.
    buys as (
      select company_id, count(*) as orders, sum(fill) as units, sum(escrow_cents - escrow_after) as released, sum(money_cents) as paid,
             sum(fee_cents) as fees, min(id) as id, min(fill) as fill, min(product_id) as product_id, min(price_cents) as price_cents
      from money where side = 'buy' group by company_id
    ), sells as (
      select company_id, count(*) as orders, sum(fill) as units, sum(money_cents) as received,
             sum(fee_cents) as fees, min(id) as id, min(product_id) as product_id, min(price_cents) as price_cents
      from money where side = 'sell' group by company_id
    ), named as (
      -- The product's name, read by a company's line when one order is all it has of a kind.
      select buys.*, p.name as product_name from buys join products p on p.id = buys.product_id
    ), sold as (
      select sells.*, p.name as product_name from sells join products p on p.id = sells.product_id
    )
    insert into turn_cash (company_id, type, reason, amount_cents, description)
    select company_id, 'other', 'exchange_release', released,
           case when orders = 1 then 'Buy order #' || id || ': ' || ${formatCentsSql(sql`released`)} || ' out of its escrow for ' || fill || ' ' || product_name
                else orders || ' buy orders: ' || ${formatCentsSql(sql`released`)} || ' out of their escrow for ' || units || ' units bought in the auction' end
           || case when released - paid > 0 then ' (' || ${formatCentsSql(sql`released - paid`)} || ' of it not needed, back to cash)' else '' end
    from named
    union all
    select company_id, 'purchase', 'exchange_buy', -paid,
           case when orders = 1 then 'Bought ' || fill || ' ' || product_name || ' in the auction at ' || ${formatCentsSql(sql`price_cents`)} || ' + ' || ${formatCentsSql(sql`fees`)} || ' fee (order #' || id || ')'
                else 'Bought ' || units || ' units in the auction over ' || orders || ' orders, ' || ${formatCentsSql(sql`fees`)} || ' of fees included (each order in the week''s results)' end
    from named
    union all
    select company_id, 'sale', 'exchange_sell', received,
           case when orders = 1 then 'Sold ' || units || ' ' || product_name || ' in the auction at ' || ${formatCentsSql(sql`price_cents`)} || ' less ' || ${formatCentsSql(sql`fees`)} || ' fee (order #' || id || ')'
                else 'Sold ' || units || ' units in the auction over ' || orders || ' orders, less ' || ${formatCentsSql(sql`fees`)} || ' of fees (each order in the week''s results)' end
    from sold`),
  );
}

/**
 * Orders whose last auction this was (expires_week <= this week) expire; what they hold comes back:
 * cash as a turn_cash row, goods to the warehouse at their cost. Orders placed during the turn
 * cannot exist (the turn holds every company's lock), so every live order of the world is the turn's.
 */
async function expireOrders(ctx: TurnContext): Promise<void> {
  const { tx, worldId, week } = ctx;
  // The turn tables of what expired live as long as the connection (turnTables.ts): created from
  // the columns the updates return, filled by each turn.
  await tx.execute(sql`
    create temp table if not exists turn_expired on commit delete rows as
    select o.id, o.company_id, o.product_id, o.side, o.escrow_cents, o.escrow_units, o.escrow_cost_cents, p.name as product_name
    from exchange_orders o, products p with no data`);
  await tx.execute(sql`
    with old as (
      select o.id, o.escrow_cents, o.escrow_units from exchange_orders o
      where o.world_id = ${worldId}::int and ${liveOrdersSql(sql`${week}::int`)} and o.expires_week <= ${week}::int
    ), closed as (
      update exchange_orders o set status = 'expired', escrow_cents = 0, escrow_units = 0, closed_week = ${week}::int
      from old where o.world_id = ${worldId}::int and o.id = old.id
      returning o.id, o.company_id, o.product_id, o.side, old.escrow_cents, old.escrow_units, o.escrow_cost_cents
    )
    insert into turn_expired select closed.*, p.name as product_name from closed join products p on p.id = closed.product_id`);
  await releaseToCompanies(ctx, 'turn_expired', 'expired');
  // Contract offers whose last week this was expire too: the goods go back to their sellers.
  await tx.execute(sql`
    create temp table if not exists turn_expired_contracts on commit delete rows as
    select k.id, k.seller_company_id, k.buyer_company_id, k.product_id, k.quantity, k.escrow_cost_cents, p.name as product_name
    from contracts k, products p with no data`);
  await tx.execute(sql`
    with closed as (
      update contracts k set status = 'expired', closed_week = ${week}::int
      where k.world_id = ${worldId}::int and k.status = 'open' and k.expires_week <= ${week}::int
      returning k.id, k.seller_company_id, k.buyer_company_id, k.product_id, k.quantity, k.escrow_cost_cents
    )
    insert into turn_expired_contracts select closed.*, p.name as product_name from closed join products p on p.id = closed.product_id`);
  await returnContractGoods(ctx, 'turn_expired_contracts', 'expired');
}

/**
 * Gives the goods of closed contract offers (a relation of id, seller_company_id, product_id,
 * quantity, escrow_cost_cents, product_name) back to their sellers' warehouses, with a ledger row
 * of amount 0 each.
 */
export async function returnContractGoods(ctx: TurnContext, closed: string, why: string): Promise<void> {
  const { tx, worldId } = ctx;
  const table = sql.raw(closed);
  await tx.execute(sql`
    insert into turn_cash (company_id, type, reason, amount_cents, description)
    select seller_company_id, 'other', 'exchange_release', 0,
           'Released ' || quantity || ' ' || product_name || ' held by contract offer #' || id || ' to the warehouse (' || ${why} || ')'
    from ${table}`);
  await tx.execute(sql`
    insert into inventory_items (world_id, company_id, product_id, quantity, average_cost_cents)
    select ${worldId}::int, seller_company_id, product_id, sum(quantity)::bigint, round(sum(quantity * escrow_cost_cents)::numeric / sum(quantity))::bigint
    from ${table} group by seller_company_id, product_id
    on conflict (world_id, company_id, product_id) do update set
      average_cost_cents = round((inventory_items.quantity * inventory_items.average_cost_cents + excluded.quantity * excluded.average_cost_cents)::numeric
                                 / nullif(inventory_items.quantity + excluded.quantity, 0)),
      quantity = inventory_items.quantity + excluded.quantity`);
}

/**
 * Gives back what closed orders held (a relation of id, company_id, product_id, side, escrow_cents,
 * escrow_units, escrow_cost_cents, product_name): cash as turn_cash rows, goods to the warehouse.
 */
export async function releaseToCompanies(ctx: TurnContext, closed: string, why: string): Promise<void> {
  const { tx, worldId } = ctx;
  const table = sql.raw(closed);
  // One ledger row per company and side (an order's own line when it is the only one), as the fills'.
  await tx.execute(sql`
    with released as (
      select company_id, side, count(*) as orders, sum(escrow_cents) as cents, sum(escrow_units) as units, min(id) as id, min(product_name) as product_name
      from ${table} where (side = 'buy' and escrow_cents > 0) or (side = 'sell' and escrow_units > 0)
      group by company_id, side
    )
    insert into turn_cash (company_id, type, reason, amount_cents, description)
    select company_id, 'other', 'exchange_release', case when side = 'buy' then cents else 0 end,
           case when side = 'buy' and orders = 1 then 'Released ' || ${formatCentsSql(sql`cents`)} || ' held by buy order #' || id
                when side = 'buy' then 'Released ' || ${formatCentsSql(sql`cents`)} || ' held by ' || orders || ' buy orders'
                when orders = 1 then 'Released ' || units || ' ' || product_name || ' held by sell order #' || id || ' to the warehouse'
                else 'Released ' || units || ' units held by ' || orders || ' sell orders to the warehouse' end
           || ' (' || ${why} || ')'
    from released`);
  await tx.execute(sql`
    insert into inventory_items (world_id, company_id, product_id, quantity, average_cost_cents)
    select ${worldId}::int, company_id, product_id, sum(escrow_units)::bigint, round(sum(escrow_units * escrow_cost_cents)::numeric / sum(escrow_units))::bigint
    from ${table} where side = 'sell' and escrow_units > 0 group by company_id, product_id
    on conflict (world_id, company_id, product_id) do update set
      average_cost_cents = round((inventory_items.quantity * inventory_items.average_cost_cents + excluded.quantity * excluded.average_cost_cents)::numeric
                                 / nullif(inventory_items.quantity + excluded.quantity, 0)),
      quantity = inventory_items.quantity + excluded.quantity`);
}
