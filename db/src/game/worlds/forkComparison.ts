/**
 * The forked debrief (docs/replay.md, "The forked debrief"): a fork beside its original from the
 * fork week on, for the fork's instructors (a sandbox's owner): each company's net worth in both
 * worlds, and the exchange prices of chosen products in both. The series start at the week before
 * the fork (the last week both worlds share, so both lines leave from one point). Companies pair by
 * rank, as the state hash pairs them (a world's companies are created in log order).
 */
import { sql } from 'drizzle-orm';
import { GameError, centsToDollars, type ForkComparisonView } from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { requireInstructor, type WorldUser } from './worlds.ts';
import { forkCompanyPairs } from './forkPairs.ts';

const NOT_A_FORK = 'This world is not a fork: its debrief compares it with nothing';
/** Products the price chart shows when none are chosen and no shock names one: the most traded. */
const DEFAULT_PRODUCTS = 3;

type Point = { week: number; fork: number | null; original: number | null };

/** Each week's pair of values, both worlds' rows merged by week. */
function pointsOf(rows: Array<{ week: number; in_fork: boolean; cents: number }>): Point[] {
  const byWeek = new Map<number, Point>();
  for (const row of rows) {
    const week = Number(row.week);
    const point = byWeek.get(week) ?? { week, fork: null, original: null };
    point[row.in_fork ? 'fork' : 'original'] = centsToDollars(Number(row.cents));
    byWeek.set(week, point);
  }
  return [...byWeek.values()].sort((a, b) => a.week - b.week);
}

/** GET /api/worlds/{id}/fork-comparison?product_ids=: the fork (id) and its original, side by side. */
export async function forkComparison(db: DbExecutor, user: WorldUser, forkId: number, productIds: number[] = []): Promise<ForkComparisonView> {
  const fork = await requireInstructor(db, user, forkId);
  if (fork.forked_from_world_id === null || fork.forked_at_week === null) throw new GameError('RULE_BROKEN', NOT_A_FORK);
  const originalId = fork.forked_from_world_id;
  const forkWeek = fork.forked_at_week;
  const fromWeek = Math.max(1, forkWeek - 1);
  const [original] = await db.execute<{ name: string }>(sql`select name from worlds where id = ${originalId}`);

  const history = await db.execute<{ fork_id: number; original_id: number; name: string; is_bot: boolean; week: number; in_fork: boolean; cents: number }>(sql`
    with pairs as (
      select p.original_id, p.fork_id, f.name, f.is_bot
      from ${forkCompanyPairs(originalId, forkId)} p join companies f on f.id = p.fork_id
    )
    select p.fork_id, p.original_id, p.name, p.is_bot, h.week, h.in_fork, h.cents
    from pairs p join (
      select world_id, company_id, week, true as in_fork, net_worth_cents as cents from financial_history where world_id = ${forkId} and week >= ${fromWeek}
      union all
      select world_id, company_id, week, false, net_worth_cents from financial_history where world_id = ${originalId} and week >= ${fromWeek}
    ) h on h.company_id = (case when h.in_fork then p.fork_id else p.original_id end)
    where h.cents is not null
    order by p.is_bot, p.fork_id, h.week`);
  type HistoryRow = (typeof history)[number];
  const companies = new Map<number, { name: string; is_bot: boolean; original_company_id: number; rows: HistoryRow[] }>();
  for (const row of history) {
    const id = Number(row.fork_id);
    const entry = companies.get(id) ?? { name: row.name, is_bot: row.is_bot, original_company_id: Number(row.original_id), rows: [] as HistoryRow[] };
    entry.rows.push(row);
    companies.set(id, entry);
  }

  let chosen = productIds;
  if (chosen.length === 0) {
    const shocked = await db.execute<{ product_id: number }>(
      sql`select distinct product_id from world_shocks where world_id = ${forkId} and product_id is not null order by product_id`,
    );
    chosen = shocked.map((row) => Number(row.product_id));
  }
  if (chosen.length === 0) {
    const traded = await db.execute<{ product_id: number }>(sql`
      select product_id from market_activity where world_id = ${originalId}
      group by product_id order by sum(units_bought + units_sold) desc, product_id limit ${DEFAULT_PRODUCTS}`);
    chosen = traded.map((row) => Number(row.product_id));
  }
  const choices = await db.execute<{ product_id: number; name: string }>(sql`select id as product_id, name from products order by name, id`);
  const unknown = chosen.find((id) => !choices.some((choice) => Number(choice.product_id) === id));
  if (unknown !== undefined) throw new GameError('NOT_FOUND', `No product found with id ${unknown}`);
  const prices =
    chosen.length === 0
      ? []
      : await db.execute<{ product_id: number; week: number; in_fork: boolean; cents: number }>(sql`
          select h.product_id, h.week, h.world_id = ${forkId} as in_fork, h.price_cents as cents
          from product_price_history h
          where h.world_id in (${forkId}, ${originalId}) and h.week >= ${fromWeek}
            and h.product_id in (${sql.join(
              chosen.map((id) => sql`${id}`),
              sql`, `,
            )})
          order by h.product_id, h.week`);

  const weeks = [...new Set([...history, ...prices].map((row) => Number(row.week)))].sort((a, b) => a - b);
  return {
    fork: { id: fork.id, name: fork.name },
    original: { id: originalId, name: original?.name ?? '' },
    fork_week: forkWeek,
    weeks,
    companies: [...companies.entries()].map(([id, entry]) => ({
      name: entry.name,
      is_bot: entry.is_bot,
      fork_company_id: id,
      original_company_id: entry.original_company_id,
      points: pointsOf(entry.rows),
    })),
    products: chosen.map((productId) => ({
      product_id: productId,
      name: choices.find((choice) => Number(choice.product_id) === productId)!.name,
      points: pointsOf(prices.filter((row) => Number(row.product_id) === productId)),
    })),
    product_choices: choices.map((choice) => ({ product_id: Number(choice.product_id), name: choice.name })),
  };
}
