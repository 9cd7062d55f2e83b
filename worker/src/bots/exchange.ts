/**
 * The bots on the exchange (docs/exchange.md, "Bots"), after their other actions of the week, through
 * the players' own action (placeExchangeOrders, through actMany), so the public world's books are never empty:
 * - each bot offers half of the output of its production buildings that it holds, for one week's
 *   auction, at 1% under the posted price (BOT_ASK_BP): above what the maker pays (the posted price
 *   less the 2.5% spread), so it would rather sell to a player than to the maker at its bid;
 * - it bids for what its buildings' recipes use in a week beyond what it holds, at 1% over the
 *   posted price (BOT_BID_BP): under what the maker asks (2.5% over), so a player's offer there
 *   beats the maker's; within what its weekly budget (turnSpendingCents) left after its other
 *   actions, so never below its cash reserve. The fee (at most 2%) is counted in.
 * Orders last one auction (weeks = 1): the next week's bots post again from what they hold then.
 */
import { sql } from 'drizzle-orm';
import { actMany, type ActionRequest, type DbExecutor } from '@marketcraft/db';
import { MAX_TRADE_QUANTITY, centsToDollars, type PlaceExchangeOrderInput } from '@marketcraft/shared';
import { turnSpendingCents } from './budget.ts';

/** A bot's limit for selling its output: 1% under the posted price (basis points of it). */
export const BOT_ASK_BP = 9_900;
/** A bot's limit for buying its inputs: 1% over the posted price. */
export const BOT_BID_BP = 10_100;

/**
 * Posts the bots' orders for the coming week's auction; answers how many were placed. `startCash`:
 * each bot's cash when its turn began (its budget is turnSpendingCents of it, less what its other
 * actions spent since); a bot not in it counts from its cash now.
 */
export async function placeBotExchangeOrders(tx: DbExecutor, worldId: number, startCash: ReadonlyMap<number, number> = new Map()): Promise<number> {
  const rows = await tx.execute<{
    company_id: number;
    cash_cents: number;
    product_id: number;
    side: 'buy' | 'sell';
    quantity: number;
    price_cents: number;
  }>(sql`
    with bots as (
      select id, cash_cents from companies where world_id = ${worldId}::int and is_bot and status = 'active'
    ), recipes_run as (
      select b.company_id, b.selected_recipe_id as recipe_id from buildings b join bots on bots.id = b.company_id
      where b.world_id = ${worldId}::int and b.selected_recipe_id is not null
    ), outputs as (
      select distinct rr.company_id, r.output_product_id as product_id from recipes_run rr join recipes r on r.id = rr.recipe_id
    ), inputs as (
      select rr.company_id, ri.product_id, sum(ri.quantity)::bigint as needed from recipes_run rr join recipe_inputs ri on ri.recipe_id = rr.recipe_id
      group by rr.company_id, ri.product_id
    ), held as (
      select company_id, product_id, quantity from inventory_items where world_id = ${worldId}::int and company_id in (select id from bots)
    )
    select o.company_id, bots.cash_cents, o.product_id, 'sell' as side, (h.quantity / 2)::bigint as quantity, wp.current_price_cents as price_cents
    from outputs o join bots on bots.id = o.company_id join held h on h.company_id = o.company_id and h.product_id = o.product_id
    join world_products wp on wp.world_id = ${worldId}::int and wp.product_id = o.product_id
    where h.quantity / 2 > 0
    union all
    select i.company_id, bots.cash_cents, i.product_id, 'buy', i.needed - coalesce(h.quantity, 0), wp.current_price_cents
    from inputs i join bots on bots.id = i.company_id left join held h on h.company_id = i.company_id and h.product_id = i.product_id
    join world_products wp on wp.world_id = ${worldId}::int and wp.product_id = i.product_id
    where i.needed > coalesce(h.quantity, 0)
    order by 1, 3, 4`);
  const budgets = new Map<number, number>();
  const requests: ActionRequest<PlaceExchangeOrderInput>[] = [];
  for (const row of rows) {
    const companyId = Number(row.company_id);
    // At most what one order may hold (the schema's limit): the rest waits for next week's order.
    const quantity = Math.min(MAX_TRADE_QUANTITY, Number(row.quantity));
    const posted = Number(row.price_cents);
    if (row.side === 'sell') {
      const limit = Math.max(1, Math.floor((posted * BOT_ASK_BP) / 10_000));
      requests.push({
        companyId,
        actingUserId: null,
        input: { product_id: Number(row.product_id), side: 'sell', quantity, limit_price: centsToDollars(limit), weeks: 1 },
      });
      continue;
    }
    const limit = Math.ceil((posted * BOT_BID_BP) / 10_000);
    const cashNow = Number(row.cash_cents);
    const started = startCash.get(companyId) ?? cashNow;
    const budget = budgets.get(companyId) ?? turnSpendingCents(started) - Math.max(0, started - cashNow);
    // What the order holds: the limit x units plus at most 2% (the fee); only what the budget covers.
    const affordable = Math.min(quantity, Math.floor(budget / (limit * 1.02)));
    if (affordable <= 0) continue;
    budgets.set(companyId, budget - Math.ceil(affordable * limit * 1.02));
    requests.push({
      companyId,
      actingUserId: null,
      input: { product_id: Number(row.product_id), side: 'buy', quantity: affordable, limit_price: centsToDollars(limit), weeks: 1 },
    });
  }
  const outcomes = await actMany(tx, 'placeExchangeOrders', requests);
  return outcomes.filter((outcome) => outcome.applied).length;
}
