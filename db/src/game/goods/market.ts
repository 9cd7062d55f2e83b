/**
 * The goods exchange: ONE market operation for every unit bought from or sold to the world (market
 * trades, Trade Hall purchases, factory raw materials, the bots' purchases, bankruptcy sales).
 * docs/economy.md, "The market".
 *
 * An order walks the product's price curve from this week's net flow (units bought minus units
 * sold so far this week, `market_activity`) and pays the spread: `goodsBuyCostRule` (with the
 * wholesale margin of consumer goods) and `marketSellProceedsRule` in shared/src/rules/market.ts.
 * `marketTrade` (POST /market/trade) alone is ONE statement: it takes the week's flow row lock (an
 * upsert), moves the flow, computes the money, moves cash and goods, so concurrent orders of one
 * product walk the curve one after another. A list of orders (the bots' week, a building's
 * purchases) walks them in order with the same rules (orders.ts).
 * `quoteOrder` answers what an order would cost now, without placing it.
 *
 * Lock order: the company row first; then market_activity and the company's warehouse rows (only
 * the holder of the company's lock writes those, so they never wait in a cycle).
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  GameError,
  MAX_ORDER_VALUE_CENTS,
  centsToDollars,
  goodsBuyCostRule,
  marketMidPriceRule,
  marketOrderFitsRule,
  marketSellProceedsRule,
  orderWithinMarket,
  wholesaleMarginBp,
  type MarketQuote,
  type MarketTradeResult,
} from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { ruleSql } from '../../ruleSql.ts';
import { sqlTemplate } from '../../sqlTemplate.ts';
import { cashMovesCtes, notEnoughCashMessage } from '../books/ledger.ts';
import { PRODUCT_NOT_FOUND, warehouseUpsertSql } from './stock.ts';
import { LEDGER_STAND_INS, fillLedgerText, fillLedgerTextSql } from '../../moneySql.ts';
import { runAction, weekUnchangedSql } from '../../statements.ts';
import { wholesaleMarginBpSql, worldProductsSql } from './prices.ts';
import { Purses, applied, inOneRoundTrip, inTransaction, lockCompanies, oneByOne, refused, type Outcome, type PlayerAction } from '../action.ts';
import { changeCashOfMany, type CashChange } from '../books/ledger.ts';
import { tooLargeForMarket, walkOrders, warehouseRows, writeWarehouseRows } from './orders.ts';
import type { MarketTradeInput } from '@marketcraft/shared';

export type MarketTradeAction = 'buy' | 'sell';

interface PlacedOrder {
  productId: number;
  productName: string;
  quantity: number;
  /** Cents paid (buy) or received (sell) for the whole order. */
  totalCents: number;
  /** totalCents / quantity, rounded to the cent (the average cost booked for the goods). */
  unitCents: number;
}

interface ProductMarket {
  id: number;
  name: string;
  priceCents: number;
  depthUnits: number;
  flow: number;
  /** The product's wholesale margin on purchases, basis points (wholesaleMarginBp). */
  marginBp: number;
}

/** The product's exchange state: posted price, depth and this week's flow so far (not locked). */
async function productMarket(db: DbExecutor, worldId: number, productId: number): Promise<ProductMarket> {
  const [row] = await db.execute<{ id: number; name: string; category: string; price_cents: number; depth_units: number; flow: number }>(sql`
    select p.id, p.name, p.category, p.current_price_cents as price_cents, p.depth_units,
           coalesce((select ma.units_bought - ma.units_sold from market_activity ma
                     where ma.world_id = ${worldId} and ma.product_id = p.id
                       and ma.week = (select current_week from worlds where id = ${worldId})), 0)::bigint as flow
    from ${worldProductsSql(worldId)} p where p.id = ${productId}`);
  if (!row) throw new GameError('NOT_FOUND', PRODUCT_NOT_FOUND);
  return {
    id: Number(row.id),
    name: row.name,
    priceCents: Number(row.price_cents),
    depthUnits: Number(row.depth_units),
    flow: Number(row.flow),
    marginBp: wholesaleMarginBp(row.category),
  };
}

/**
 * An order's CTEs (marketTrade's statement): `p` (the product in the
 * world, with this week's flow so far) and `moved` (the week's flow row upserted, only when `gate`
 * holds and the order fits the market; it returns the flow before this order = the flow after it
 * minus the order itself, as the upsert left it). `totalCents` is the order's money over `p` and
 * `moved` aliased `m`, null when the order no longer fits.
 */
function orderCtes(action: MarketTradeAction, order: { worldId: SQL; productId: SQL; quantity: SQL; gate: SQL }): { ctes: SQL; totalCents: SQL } {
  const quantity = sql`${order.quantity}::bigint`;
  const [bought, sold] = action === 'buy' ? [quantity, sql`0::bigint`] : [sql`0::bigint`, quantity];
  const curve = (flow: SQL) => ({ price: sql`p.current_price_cents`, depth: sql`p.depth_units`, flow, quantity });
  const money = (flow: SQL) =>
    action === 'buy'
      ? ruleSql(goodsBuyCostRule, { ...curve(flow), marginBp: wholesaleMarginBpSql(sql`p.category`) })
      : ruleSql(marketSellProceedsRule, curve(flow));
  const week = sql`(select current_week from worlds where id = ${order.worldId})`;
  return {
    ctes: sql`
      p as (
        select p.id, p.name, p.category, p.current_price_cents, p.depth_units,
               coalesce((select ma.units_bought - ma.units_sold from market_activity ma
                         where ma.world_id = ${order.worldId} and ma.product_id = p.id and ma.week = ${week}), 0)::bigint as flow
        from ${worldProductsSql(order.worldId)} p where p.id = ${order.productId}::int
      ), moved as (
        insert into market_activity (world_id, week, product_id, units_bought, units_sold)
        select ${order.worldId}, ${week}, p.id, ${bought}, ${sold} from p
        where ${order.gate} and ${ruleSql(marketOrderFitsRule, curve(sql`p.flow`))} = 1
        on conflict (world_id, week, product_id) do update set
          units_bought = market_activity.units_bought + excluded.units_bought,
          units_sold = market_activity.units_sold + excluded.units_sold
        returning units_bought - units_sold - (${bought} - ${sold}) as flow_before
      )`,
    totalCents: sql`case when ${ruleSql(marketOrderFitsRule, curve(sql`m.flow_before`))} = 1 then ${money(sql`m.flow_before`)} end`,
  };
}

/** An order of `quantity` units on the product's curve now: the inputs of the market rules (quote, refusal). */
function orderValues(market: ProductMarket, quantity: number) {
  return { price: market.priceCents, depth: market.depthUnits, flow: market.flow, quantity };
}

/** What the order costs (buy: goodsBuyCostRule, the wholesale margin included) or pays (sell), cents. */
function orderTotalCents(action: MarketTradeAction, market: ProductMarket, quantity: number): number {
  const values = orderValues(market, quantity);
  return action === 'buy' ? goodsBuyCostRule.evaluate({ ...values, marginBp: market.marginBp }) : marketSellProceedsRule.evaluate(values);
}

/** GET /api/market/quote: what an order would cost or pay now (nothing is placed). */
export async function quoteOrder(
  db: DbExecutor,
  input: { worldId: number; productId: number; quantity: number; action: MarketTradeAction },
): Promise<MarketQuote> {
  const market = await productMarket(db, input.worldId, input.productId);
  const values = orderValues(market, input.quantity);
  if (!orderWithinMarket(values)) throw tooLargeForMarket(market.name);
  const why = input.action === 'buy' ? goodsBuyCostRule.explain({ ...values, marginBp: market.marginBp }) : marketSellProceedsRule.explain(values);
  const totalCents = orderTotalCents(input.action, market, input.quantity);
  const after = input.action === 'buy' ? market.flow + input.quantity : market.flow - input.quantity;
  return {
    product_id: market.id,
    product_name: market.name,
    action: input.action,
    quantity: input.quantity,
    total: centsToDollars(totalCents),
    unit_price: centsToDollars(input.quantity > 0 ? Math.round(totalCents / input.quantity) : 0),
    posted_price: centsToDollars(market.priceCents),
    price_before: centsToDollars(marketMidPriceRule.evaluate({ price: market.priceCents, depth: market.depthUnits, flow: market.flow })),
    price_after: centsToDollars(marketMidPriceRule.evaluate({ price: market.priceCents, depth: market.depthUnits, flow: after })),
    why,
  };
}

/** The ledger text of a market trade; the statement fills the stand-ins (fillLedgerTextSql). */
function marketTradeDescription(action: MarketTradeAction, quantity: number): string {
  const { name: PRODUCT_NAME, total: TOTAL, each: EACH } = LEDGER_STAND_INS;
  return `${action === 'buy' ? 'Bought' : 'Sold'} ${quantity} ${PRODUCT_NAME} on the market for ${TOTAL} (${EACH} each)`;
}

/**
 * A whole market trade in ONE statement (one round trip, no BEGIN/COMMIT), as the share trade
 * (docs/architecture.md, "One-statement actions"): the company's row locked first (every write
 * below waits for it), the order placed on the week's flow (orderCtes), the cash moved with its
 * ledger row (cashMovesCtes: a purchase never overdraws) and the goods moved (a purchase into the
 * warehouse at its average cost; a sale only from units held: a conditional update). When one of
 * them did not happen, refuse_statement undoes the whole statement and marketRefusal reads why.
 */
function marketTradeStatementTemplate(action: MarketTradeAction) {
  return sqlTemplate<'companyId' | 'productId' | 'quantity' | 'description'>((slot) => {
    const companyId = sql`${slot('companyId')}::int`;
    const quantity = sql`${slot('quantity')}::bigint`;
    const worldId = sql`(select world_id from locked)`;
    const order = orderCtes(action, { worldId, productId: slot('productId'), quantity: slot('quantity'), gate: sql`(select count(*) from locked) = 1` });
    const fill = fillLedgerTextSql(slot('description'), {
      name: sql`priced.product_name`,
      totalCents: sql`priced.total_cents`,
      eachCents: sql`priced.each_cents`,
    });
    const goods =
      action === 'buy'
        ? warehouseUpsertSql(sql`select priced.world_id, ${companyId}, priced.product_id, ${quantity}, priced.each_cents from priced`)
        : sql`
          update inventory_items set quantity = quantity - ${quantity}
          where company_id = (select id from locked) and product_id = ${slot('productId')}::int and quantity >= ${quantity}
          returning quantity`;
    return sql`
      with locked as (
        select id, world_id from companies where id = ${companyId} for update
      ), ${order.ctes}, priced as (
        select p.id as product_id, p.name as product_name, ${worldId} as world_id, t.total_cents,
               round(t.total_cents::numeric / ${quantity})::bigint as each_cents
        from p join moved m on true cross join lateral (select (${order.totalCents})::bigint as total_cents) t
        where t.total_cents is not null and t.total_cents <= ${MAX_ORDER_VALUE_CENTS}::bigint
      ), money (company_id, amount, type, reason, description, counterparty_company_id, product_id) as (
        select ${companyId}, ${action === 'buy' ? sql`(-priced.total_cents)` : sql`priced.total_cents`},
               ${action === 'buy' ? 'purchase' : 'sale'}::text, ${action === 'buy' ? 'market_buy' : 'market_sell'}::text, ${fill}, null::int, priced.product_id
        from priced
      ), ${cashMovesCtes}, goods as (${goods})
      -- One row whatever moved, so that the check always runs.
      select case when (select count(*) from priced) = 1 and (select count(*) from paid) = 1 and (select count(*) from goods) = 1
                       and ${weekUnchangedSql(sql`priced.world_id`)}
                  then 0 else refuse_statement('market trade refused') end as refused,
             priced.product_id, priced.product_name, priced.total_cents, priced.each_cents,
             (select cash_cents from paid) as cash_cents, (select quantity from goods) as quantity_held
      from (select 1) as one left join priced on true`;
  });
}
const marketTradeStatement = { buy: marketTradeStatementTemplate('buy'), sell: marketTradeStatementTemplate('sell') };

/**
 * Why a market trade was refused, read after its statement undid itself: the company, the product,
 * the units held (a sale), the order's size and the cash (a purchase), on the rows as they are
 * now, in the order a player would fix them. Null when nothing refuses it now (a row changed while
 * the statement ran): the trade is tried again.
 */
async function marketRefusal(
  db: DbExecutor,
  companyId: number,
  input: { productId: number; quantity: number; action: MarketTradeAction },
): Promise<GameError | null> {
  const [company] = await db.execute<{ world_id: number; cash_cents: number; held: number }>(sql`
    select c.world_id, c.cash_cents,
           coalesce((select i.quantity from inventory_items i where i.company_id = c.id and i.product_id = ${input.productId}), 0)::bigint as held
    from companies c where c.id = ${companyId}`);
  if (!company) return new GameError('NOT_FOUND', 'No company found');
  let market: ProductMarket;
  try {
    market = await productMarket(db, Number(company.world_id), input.productId);
  } catch (error) {
    return error as GameError;
  }
  if (input.action === 'sell' && Number(company.held) < input.quantity) {
    return new GameError('NOT_ENOUGH_STOCK', `Not enough stock: you have ${Number(company.held)} ${market.name}`);
  }
  if (!orderWithinMarket(orderValues(market, input.quantity))) return tooLargeForMarket(market.name);
  const totalCents = orderTotalCents(input.action, market, input.quantity);
  if (totalCents > MAX_ORDER_VALUE_CENTS) return tooLargeForMarket(market.name);
  if (input.action === 'buy' && Number(company.cash_cents) < totalCents) {
    return new GameError('NOT_ENOUGH_CASH', notEnoughCashMessage(totalCents, Number(company.cash_cents)));
  }
  return null;
}

/** POST /market/trade: buy into the company warehouse or sell from it, in one statement (marketTradeStatement). */
async function marketTradeOne(
  db: DbExecutor,
  companyId: number,
  input: { productId: number; quantity: number; action: MarketTradeAction },
): Promise<MarketTradeResult> {
  if (!Number.isSafeInteger(input.quantity) || input.quantity <= 0) throw new GameError('INVALID_INPUT', 'Quantity must be a positive whole number');
  const statement = marketTradeStatement[input.action]({
    companyId,
    productId: input.productId,
    quantity: input.quantity,
    description: marketTradeDescription(input.action, input.quantity),
  });
  const row = await runAction<{ product_id: number; product_name: string; total_cents: number; each_cents: number; cash_cents: number; quantity_held: number }>(
    db,
    {
      key: `goods:${input.productId}`,
      statement,
      whyRefused: () => marketRefusal(db, companyId, input),
    },
  );
  const order: PlacedOrder = {
    productId: Number(row.product_id),
    productName: row.product_name,
    quantity: input.quantity,
    totalCents: Number(row.total_cents),
    unitCents: Number(row.each_cents),
  };
  return tradeResult(input.action, order, Number(row.quantity_held), Number(row.cash_cents));
}

function tradeResult(action: MarketTradeAction, order: PlacedOrder, held: number, cashCents: number): MarketTradeResult {
  return {
    action,
    product_id: order.productId,
    product_name: order.productName,
    quantity: order.quantity,
    unit_price: centsToDollars(order.unitCents),
    total: centsToDollars(order.totalCents),
    quantity_held: held,
    cash: centsToDollars(cashCents),
  };
}

/**
 * POST /market/trade, the player action. A list of one is one statement (marketTradeStatement: the
 * API's path, the fastest); a longer list (the bots' week) walks every order in the list's order
 * (walkOrders: the same rules on the same rows) and writes cash, ledger, goods and flows in a few
 * statements. Both refuse with the same messages, in the same order (marketRefusal's).
 */
export const marketTrade: PlayerAction<MarketTradeInput, MarketTradeResult> = async (db, requests) => {
  if (requests.length === 1) {
    return oneByOne<MarketTradeInput, MarketTradeResult>((one, { companyId, input }) =>
      marketTradeOne(one, companyId, { productId: input.product_id, quantity: input.quantity, action: input.action }),
    )(db, requests);
  }
  return inTransaction(db, async (tx) => {
    // One round trip: the warehouse rows are read after the lock (the requested companies': one
    // that does not exist has no rows either).
    const [companies, held] = await inOneRoundTrip(
      lockCompanies(
        tx,
        requests.map((request) => request.companyId),
      ),
      warehouseRows(
        tx,
        requests.map((request) => request.companyId),
        requests.map((request) => request.input.product_id),
      ),
    );
    const purses = new Purses(companies);
    const cashAfter: number[] = [];
    const orders = requests.map(({ companyId, input }) => ({
      companyId,
      productId: input.product_id,
      quantity: input.quantity,
      action: input.action,
      intoWarehouse: true,
    }));
    const priced = await walkOrders(tx, companies, orders, held, (index, order) => {
      const request = requests[index]!;
      const refusal = purses.spend(request.companyId, request.input.action === 'buy' ? order.totalCents : -order.totalCents);
      cashAfter[index] = purses.of(request.companyId);
      return refusal;
    });
    const changes: CashChange[] = [];
    const outcomes = priced.map((order, index): Outcome<MarketTradeResult> => {
      if (order instanceof GameError) return refused(order);
      const { companyId, input } = requests[index]!;
      changes.push({
        companyId,
        amountCents: input.action === 'buy' ? -order.totalCents : order.totalCents,
        type: input.action === 'buy' ? 'purchase' : 'sale',
        reason: input.action === 'buy' ? 'market_buy' : 'market_sell',
        description: fillLedgerText(marketTradeDescription(input.action, input.quantity), {
          name: order.productName,
          totalCents: order.totalCents,
          eachCents: order.unitCents,
        }),
        ref: { productId: input.product_id },
      });
      return applied(
        tradeResult(
          input.action,
          { productId: input.product_id, productName: order.productName, quantity: input.quantity, totalCents: order.totalCents, unitCents: order.unitCents },
          order.heldAfter.quantity,
          cashAfter[index]!,
        ),
      );
    });
    // Both writes in one round trip: the companies are locked, the cash was checked (Purses).
    await Promise.all([changeCashOfMany(tx, changes), writeWarehouseRows(tx, companies, held)]);
    return outcomes;
  });
};
