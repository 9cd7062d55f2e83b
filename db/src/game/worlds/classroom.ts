/**
 * What an instructor does on /worlds/{id}/manage (docs/worlds.md): the clock (pause, resume, the
 * interval), ending the world (read-only afterwards, nothing deleted), shocks the turn applies,
 * announcements, every company's figures, the CSV downloads and the debrief's series.
 * Every function checks the caller manages the world (requireInstructor) before it reads or writes.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  GameError,
  centsToDollars,
  shockedPriceRule,
  type AnnouncementView,
  type CompanyStatus,
  type DebriefView,
  type ShockKind,
  type ShockView,
  type WorldCompanyFigures,
  type WorldView,
} from '@marketcraft/shared';
import { ruleSql } from '../../ruleSql.ts';
import { appendToLog } from '../replay/log.ts';
import type postgres from 'postgres';
import { databaseClient, type Database, type DbExecutor } from '../../client.ts';
import { activeCompaniesCashSql, valuationSql } from '../companies/valuation.ts';
import { WORLD_ENDED } from '../clock/state.ts';
import { WORLD_NOT_FOUND, getWorld, requireInstructor, type WorldUser } from './worlds.ts';

/** PATCH /api/worlds/{id}: pause or resume the clock, or change its interval. */
export async function updateWorldClock(
  db: DbExecutor,
  user: WorldUser,
  worldId: number,
  change: { status?: 'active' | 'paused'; turnIntervalMinutes?: number | null; teamSize?: number },
): Promise<WorldView> {
  await requireInstructor(db, user, worldId);
  await db.transaction(async (tx) => {
    // The world's row, locked, and its status read under the lock: an end (or another change of
    // the clock) at the same moment either waits for this change or goes first and is seen here.
    // Read before the lock, an end that committed in between was overwritten: the ended world ran
    // again ('active' or 'paused', with its ended_at). `for no key update`: the players' actions,
    // which hold the row `for key share` (holdWorldOpen), neither wait for the clock nor hold it up.
    const world = await lockOpenWorld(tx, worldId, 'for no key update');
    if (world.kind === 'public' && change.turnIntervalMinutes !== undefined) {
      throw new GameError('RULE_BROKEN', "The public world's clock is the server's schedule (TURN_CRON)");
    }
    if (world.kind === 'public' && change.teamSize !== undefined && change.teamSize !== 1) {
      throw new GameError('RULE_BROKEN', 'The public world has no teams: everyone plays alone');
    }
    const status = change.status ?? world.status;
    const interval = change.turnIntervalMinutes === undefined ? world.turn_interval_minutes : change.turnIntervalMinutes;
    // The next turn: an interval from now when the clock starts (resumed, or a new interval); none
    // while paused or manual. A clock already running at this interval keeps its next turn: a form
    // saved without a change must not push the class's turn away. (The right-hand sides read the row
    // as it was before this update.)
    await tx.execute(sql`
      update worlds set status = ${status},
             turn_interval_minutes = ${world.kind === 'public' ? sql`turn_interval_minutes` : sql`${interval}::int`},
             next_turn_at = case
               when ${world.kind} = 'public' then next_turn_at
               when ${status} = 'active' and ${interval}::int is not null then
                 case when status = 'active' and turn_interval_minutes = ${interval}::int and next_turn_at is not null then next_turn_at
                      else now() + make_interval(mins => ${interval}::int) end
               else null end,
             team_size = coalesce(${change.teamSize ?? null}::int, team_size),
             updated_at = now()
      where id = ${worldId}`);
    await logWorldAction(tx, worldId, user, 'updateWorldClock', { status: change.status, turn_interval_minutes: change.turnIntervalMinutes });
  });
  return getWorld(db, user, worldId);
}

/**
 * POST /api/worlds/{id}/end: the world stops for good; its data stays readable, nothing changes it
 * again. The row is taken `for update` first: that lock waits for every player action running in
 * the world (each holds the row `for key share` in its own transaction, holdWorldOpen), and the
 * actions that start meanwhile wait for the end and then see it. No action commits after the end.
 */
export async function endWorld(db: DbExecutor, user: WorldUser, worldId: number): Promise<WorldView> {
  const world = await requireInstructor(db, user, worldId);
  if (world.kind === 'public') throw new GameError('RULE_BROKEN', 'The public world cannot be ended');
  await db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from worlds where id = ${worldId} for update`);
    await tx.execute(sql`
      update worlds set status = 'ended', ended_at = coalesce(ended_at, now()), next_turn_at = null, updated_at = now()
      where id = ${worldId}`);
    await logWorldAction(tx, worldId, user, 'endWorld', {});
  });
  return getWorld(db, user, worldId);
}

/**
 * A player action in a private world, inside the action's transaction: the world row `for key
 * share` (which only endWorld's `for update` waits for: turns, the clock and pause/resume do not)
 * and its status read under that lock, so an action never commits after the world ended: 409
 * WORLD_ENDED. The public world is never ended and does not need it (api/src/trpc.ts).
 */
export async function holdWorldOpen(tx: DbExecutor, worldId: number): Promise<void> {
  await lockOpenWorld(tx, worldId, 'for key share');
}

type LockedWorld = {
  kind: string;
  status: 'active' | 'paused' | 'ended';
  current_week: number;
  turn_interval_minutes: number | null;
};

/**
 * The world's row under `lock`, inside the caller's transaction, and its status read under that
 * lock: an ended world (one ended since the caller's first look included) answers 409 WORLD_ENDED.
 * The lock's strength says what waits for what: `for update` waits for the players' actions (their
 * `for key share`), `for no key update` lets them run on.
 */
async function lockOpenWorld(tx: DbExecutor, worldId: number, lock: 'for update' | 'for no key update' | 'for key share'): Promise<LockedWorld> {
  const [world] = await tx.execute<LockedWorld>(
    sql`select kind, status, current_week, turn_interval_minutes from worlds where id = ${worldId} ${sql.raw(lock)}`,
  );
  if (!world) throw new GameError('NOT_FOUND', WORLD_NOT_FOUND);
  if (world.status === 'ended') throw new GameError('CONFLICT', WORLD_ENDED);
  return world;
}

/** An instructor's change of the world, in its log (docs/replay.md). */
function logWorldAction(tx: DbExecutor, worldId: number, user: WorldUser, action: string, input: Record<string, unknown>): Promise<void> {
  return appendToLog(tx, [{ worldId, companyId: null, actingUserId: user.id, action, input, outcome: { applied: true } }]);
}

function shockDescription(kind: ShockKind, target: string, percent: number, weeks: number): string {
  const change = `${percent > 0 ? '+' : ''}${percent}%`;
  const what = kind === 'tax_rate' ? `${target}'s tax rate` : kind === 'demand' ? `Consumer demand for ${target}` : `The exchange price of ${target}`;
  return `${what} ${change} for ${weeks} ${weeks === 1 ? 'week' : 'weeks'}`;
}

/**
 * The price shocks active in a world's week, one row per product: (product_id, factor_bp), the
 * factors of overlapping shocks multiplied (10,000 basis points = no change). The turn's markets
 * phase drifts each product toward its base moved by it (shockedPriceRule).
 */
export function activePriceShocksSql(worldId: number, week: number): SQL {
  return sql`select product_id, round(10000 * exp(sum(ln((100 + percent) / 100.0))))::bigint as factor_bp
    from world_shocks
    where world_id = ${worldId}::int and kind = 'price' and start_week <= ${week}::int and end_week >= ${week}::int
    group by product_id`;
}

/**
 * POST /api/worlds/{id}/shocks: for `weeks` turns from this week's on, the turn moves the target by
 * `percent` (docs/worlds.md, "Shocks"); the world's news shows it. A price shock also moves the
 * exchange's posted price (and the cities' reference prices) at once, within the exchange's bounds:
 * announced a turn ahead, it would hand whoever trades first a sure profit as large as their cash.
 */
export async function addShock(
  db: DbExecutor,
  user: WorldUser,
  worldId: number,
  input: { kind: ShockKind; countryId?: number; productId?: number; percent: number; weeks: number },
): Promise<ShockView> {
  const world = await requireInstructor(db, user, worldId);
  if (world.status === 'ended') throw new GameError('CONFLICT', WORLD_ENDED);
  let target: string;
  if (input.kind === 'tax_rate') {
    const [country] = await db.execute<{ name: string }>(sql`select name from countries where id = ${input.countryId ?? 0}`);
    if (!country) throw new GameError('NOT_FOUND', `No country found with id ${input.countryId}`);
    target = country.name;
  } else {
    const [product] = await db.execute<{ name: string }>(sql`select name from products where id = ${input.productId ?? 0}`);
    if (!product) throw new GameError('NOT_FOUND', `No product found with id ${input.productId}`);
    target = product.name;
  }
  const row = await db.transaction(async (tx) => {
    // The world row's lock orders the shock with the turn (runTurn locks it first): its week is the
    // week it starts. And with an end: a world ended since the check above stays as it ended.
    const locked = await lockOpenWorld(tx, worldId, 'for update');
    const startWeek = Number(locked.current_week);
    const endWeek = startWeek + input.weeks - 1;
    const [inserted] = await tx.execute<{ id: number }>(sql`
      insert into world_shocks (world_id, kind, country_id, product_id, percent, start_week, end_week, description, created_by_user_id)
      values (${worldId}, ${input.kind}, ${input.kind === 'tax_rate' ? (input.countryId ?? null) : null}, ${input.kind === 'tax_rate' ? null : (input.productId ?? null)},
              ${input.percent}, ${startWeek}, ${endWeek}, ${shockDescription(input.kind, target, input.percent, input.weeks)}, ${user.id})
      returning id`);
    if (input.kind === 'price') await movePriceAtOnce(tx, worldId, input.productId ?? 0, input.percent);
    await logWorldAction(tx, worldId, user, 'addShock', {
      kind: input.kind,
      country_id: input.kind === 'tax_rate' ? (input.countryId ?? null) : null,
      product_id: input.kind === 'tax_rate' ? null : (input.productId ?? null),
      percent: input.percent,
      weeks: input.weeks,
    });
    return inserted;
  });
  const shocks = await listShocks(db, user, worldId);
  return shocks.find((shock) => shock.id === Number(row!.id))!;
}

/** A price shock's move of the posted price (shockedPriceRule), now: every city's reference price follows it (cityMarketsSql). */
async function movePriceAtOnce(tx: DbExecutor, worldId: number, productId: number, percent: number): Promise<void> {
  await tx.execute(sql`
    update world_products wp
    set current_price_cents = ${ruleSql(shockedPriceRule, { price: sql`wp.current_price_cents`, basePrice: sql`p.base_price_cents`, factorBp: sql`${(100 + percent) * 100}::bigint` })}
    from products p where p.id = wp.product_id and wp.world_id = ${worldId} and wp.product_id = ${productId}`);
}

/** The world's shocks, newest first (instructors; the news shows them to everyone). */
export async function listShocks(db: DbExecutor, user: WorldUser, worldId: number): Promise<ShockView[]> {
  const world = await getWorld(db, user, worldId);
  // The view's columns as the database returns them (created_at as a Date; active derived below).
  const rows = await db.execute<Omit<ShockView, 'active' | 'created_at'> & { created_at: Date | string }>(sql`
    select s.id, s.kind, s.country_id, c.name as country_name, s.product_id, p.name as product_name, s.percent, s.start_week, s.end_week,
           s.description, s.created_at
    from world_shocks s left join countries c on c.id = s.country_id left join products p on p.id = s.product_id
    where s.world_id = ${worldId}
    order by s.id desc`);
  return rows.map((row) => ({
    id: Number(row.id),
    kind: row.kind,
    country_id: row.country_id === null ? null : Number(row.country_id),
    country_name: row.country_name,
    product_id: row.product_id === null ? null : Number(row.product_id),
    product_name: row.product_name,
    percent: Number(row.percent),
    start_week: Number(row.start_week),
    end_week: Number(row.end_week),
    description: row.description,
    active: Number(row.start_week) <= world.current_week && world.current_week <= Number(row.end_week),
    created_at: new Date(row.created_at).toISOString(),
  }));
}

/** POST /api/worlds/{id}/announcements: a message to everyone in the world (its news). */
export async function addAnnouncement(db: DbExecutor, user: WorldUser, worldId: number, message: string): Promise<AnnouncementView> {
  const world = await requireInstructor(db, user, worldId);
  if (world.status === 'ended') throw new GameError('CONFLICT', WORLD_ENDED);
  const row = await db.transaction(async (tx) => {
    // The status again under the world's row lock: a world ended since the check above gets no news
    // (`for no key update`, as the clock: the players' actions go on meanwhile).
    const locked = await lockOpenWorld(tx, worldId, 'for no key update');
    const [inserted] = await tx.execute<{ id: number; message: string; week: number; created_at: Date | string }>(sql`
      insert into world_announcements (world_id, message, week, created_by_user_id)
      values (${worldId}, ${message}, ${Number(locked.current_week)}, ${user.id})
      returning id, message, week, created_at`);
    await logWorldAction(tx, worldId, user, 'addAnnouncement', { message });
    return inserted!;
  });
  return { id: Number(row.id), message: row.message, week: Number(row.week), created_at: new Date(row.created_at).toISOString() };
}

/** GET /api/worlds/{id}/companies: every company's figures (instructors), richest first. */
export async function worldCompanyFigures(db: DbExecutor, user: WorldUser, worldId: number): Promise<WorldCompanyFigures[]> {
  await requireInstructor(db, user, worldId);
  const rows = await db.execute<{
    id: number;
    name: string;
    is_bot: boolean;
    email: string | null;
    status: CompanyStatus;
    cash_cents: number;
    net_worth_cents: number | null;
    buildings: number;
    profit_cents: number | null;
  }>(sql`
    select c.id, c.name, c.is_bot, u.email, c.status, c.cash_cents, v.net_worth_cents,
           (select count(*) from buildings b where b.world_id = c.world_id and b.company_id = c.id)::int as buildings,
           (select f.profit_cents from financial_history f where f.world_id = c.world_id and f.company_id = c.id order by f.week desc limit 1) as profit_cents
    from companies c
    left join users u on u.id = c.user_id
    left join ${valuationSql(activeCompaniesCashSql(worldId), { worldId })} v on v.company_id = c.id
    where c.world_id = ${worldId}
    order by v.net_worth_cents desc nulls last, c.id`);
  return rows.map((row) => ({
    id: Number(row.id),
    name: row.name,
    is_bot: row.is_bot,
    owner_email: row.email,
    status: row.status,
    cash: centsToDollars(Number(row.cash_cents)),
    net_worth: centsToDollars(Number(row.net_worth_cents ?? 0)),
    buildings: Number(row.buildings),
    last_week_profit: row.profit_cents === null ? null : centsToDollars(Number(row.profit_cents)),
  }));
}

/** One CSV field: quoted when it holds a comma, a quote or a line break; formulas neutralised. */
function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = value instanceof Date ? value.toISOString() : String(value);
  // A spreadsheet must not run a player's company name as a formula. A negative amount
  // ("-5406.00") is a number, not a formula: prefixed, it would turn into text no sum adds up.
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^-\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvLine(fields: unknown[]): string {
  return fields.map(csvField).join(',') + '\r\n';
}

export type WorldExport = 'companies' | 'transactions' | 'prices';

/** Rows a world export reads from the database at a time (a cursor: memory stays flat whatever the world's size). */
const EXPORT_BATCH_ROWS = 1_000;

/** The header and the rows, as CSV fields, of each export, read through a cursor (the query's own order). */
async function* exportFields(client: postgres.Sql, worldId: number, kind: WorldExport): AsyncGenerator<unknown[]> {
  if (kind === 'companies') {
    yield ['week', 'company_id', 'company', 'bot', 'cash', 'profit', 'net_worth'];
    const rows = client<Array<{ week: number; id: number; name: string; is_bot: boolean; cash: string; profit: string; net_worth: string | null }>>`
      select f.week, c.id, c.name, c.is_bot, f.cash_after_cents / 100.0 as cash, f.profit_cents / 100.0 as profit, f.net_worth_cents / 100.0 as net_worth
      from financial_history f join companies c on c.world_id = f.world_id and c.id = f.company_id
      where f.world_id = ${worldId}
      order by f.week, c.id`;
    for await (const batch of rows.cursor(EXPORT_BATCH_ROWS)) {
      for (const row of batch) {
        yield [
          row.week,
          row.id,
          row.name,
          row.is_bot,
          Number(row.cash).toFixed(2),
          Number(row.profit).toFixed(2),
          row.net_worth === null ? '' : Number(row.net_worth).toFixed(2),
        ];
      }
    }
    return;
  }
  if (kind === 'transactions') {
    yield ['id', 'week', 'company_id', 'company', 'type', 'reason', 'amount', 'description', 'created_at'];
    const rows = client<
      Array<{ id: number; week: number; company_id: number; name: string; type: string; reason: string; amount: string; description: string; created_at: Date }>
    >`
      select t.id, t.week, t.company_id, c.name, t.type, t.reason, t.amount_cents / 100.0 as amount, t.description, t.created_at
      from transactions t join companies c on c.world_id = t.world_id and c.id = t.company_id
      where t.world_id = ${worldId}
      order by t.id`;
    for await (const batch of rows.cursor(EXPORT_BATCH_ROWS)) {
      for (const row of batch) {
        yield [row.id, row.week, row.company_id, row.name, row.type, row.reason, Number(row.amount).toFixed(2), row.description, new Date(row.created_at)];
      }
    }
    return;
  }
  yield ['week', 'product_id', 'product', 'category', 'price'];
  const rows = client<Array<{ week: number; id: number; name: string; category: string; price: string }>>`
    select h.week, p.id, p.name, p.category, h.price_cents / 100.0 as price
    from product_price_history h join products p on p.id = h.product_id
    where h.world_id = ${worldId}
    order by h.week, p.id`;
  for await (const batch of rows.cursor(EXPORT_BATCH_ROWS)) {
    for (const row of batch) yield [row.week, row.id, row.name, row.category, Number(row.price).toFixed(2)];
  }
}

/**
 * GET /api/worlds/{id}/export/{kind}.csv (instructors): companies by week (cash, profit, net worth
 * after each turn), every ledger row, or every product's posted price by week. Money in dollars.
 * Checks access first (so a refusal is an answer, not a broken download), then hands back the CSV
 * line by line: the rows come through a database cursor EXPORT_BATCH_ROWS at a time, so the public
 * world's whole ledger is never in memory. Stopping early (a closed download) closes the cursor.
 * One SQL statement: the file is one consistent snapshot even while turns run.
 */
/**
 * A download's file name: the world's name in plain letters and digits first (a teacher's Downloads
 * folder holds the files of several classes: 'world-2-companies.csv' and 'world-3-companies.csv' did
 * not say which class was which), then the world's id and the kind. ASCII only, so the
 * Content-Disposition header carries it as it is; a name with no such letters keeps 'world-{id}-'.
 */
export function exportFileName(worldName: string, worldId: number, kind: WorldExport): string {
  const slug = worldName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 60)
    .replace(/^-+|-+$/g, '');
  return `${slug ? `${slug}-` : ''}world-${worldId}-${kind}.csv`;
}

export async function openWorldCsv(
  db: Database,
  user: WorldUser,
  worldId: number,
  kind: WorldExport,
): Promise<{ filename: string; lines: AsyncGenerator<string> }> {
  const world = await requireInstructor(db, user, worldId);
  const client = databaseClient(db);
  async function* lines(): AsyncGenerator<string> {
    for await (const fields of exportFields(client, worldId, kind)) yield csvLine(fields);
  }
  return { filename: exportFileName(world.name, worldId, kind), lines: lines() };
}

/** The most rows the JSON form of an export ({filename, csv} in one answer) carries; the .csv download has no limit. */
export const MAX_JSON_EXPORT_ROWS = 50_000;

export function jsonExportTooLargeMessage(worldId: number, kind: WorldExport): string {
  return `This export has more than ${MAX_JSON_EXPORT_ROWS.toLocaleString('en-US')} rows: download it as a file from /api/worlds/${worldId}/export/${kind}.csv`;
}

/**
 * GET /api/worlds/{id}/export/{kind} (instructors): the same CSV as one string in a JSON answer, for
 * scripts; bounded (MAX_JSON_EXPORT_ROWS, else 422 naming the .csv download) so that one request
 * never builds a huge answer in memory.
 */
export async function exportWorldCsv(db: Database, user: WorldUser, worldId: number, kind: WorldExport): Promise<{ filename: string; csv: string }> {
  const { filename, lines } = await openWorldCsv(db, user, worldId, kind);
  const parts: string[] = [];
  for await (const line of lines) {
    // The header and up to MAX_JSON_EXPORT_ROWS rows; leaving the loop closes the cursor.
    if (parts.length > MAX_JSON_EXPORT_ROWS) throw new GameError('RULE_BROKEN', jsonExportTooLargeMessage(worldId, kind));
    parts.push(line);
  }
  return { filename, csv: parts.join('') };
}

/** GET /api/worlds/{id}/debrief (instructors): the series the debrief chart draws. */
export async function worldDebrief(db: DbExecutor, user: WorldUser, worldId: number, productIds: number[] = []): Promise<DebriefView> {
  await requireInstructor(db, user, worldId);
  const shocks = await listShocks(db, user, worldId);
  const history = await db.execute<{ company_id: number; name: string; is_bot: boolean; week: number; net_worth_cents: number }>(sql`
    select f.company_id, c.name, c.is_bot, f.week, f.net_worth_cents
    from financial_history f join companies c on c.world_id = f.world_id and c.id = f.company_id
    where f.world_id = ${worldId} and f.net_worth_cents is not null
    order by c.is_bot, c.id, f.week`);
  const byCompany = new Map<number, DebriefView['companies'][number]>();
  for (const row of history) {
    const id = Number(row.company_id);
    let entry = byCompany.get(id);
    if (!entry) {
      entry = { id, name: row.name, is_bot: row.is_bot, points: [] };
      byCompany.set(id, entry);
    }
    entry.points.push({ week: Number(row.week), net_worth: centsToDollars(Number(row.net_worth_cents)) });
  }
  let chosen = productIds;
  if (chosen.length === 0) chosen = [...new Set(shocks.flatMap((shock) => (shock.product_id === null ? [] : [shock.product_id])))];
  if (chosen.length === 0) {
    const traded = await db.execute<{ product_id: number }>(sql`
      select product_id from market_activity where world_id = ${worldId}
      group by product_id order by sum(units_bought + units_sold) desc, product_id limit 5`);
    chosen = traded.map((row) => Number(row.product_id));
  }
  const prices: DebriefView['prices'] = [];
  if (chosen.length > 0) {
    const rows = await db.execute<{ product_id: number; name: string; week: number; price_cents: number }>(sql`
      select h.product_id, p.name, h.week, h.price_cents
      from product_price_history h join products p on p.id = h.product_id
      where h.world_id = ${worldId} and h.product_id in (${sql.join(
        chosen.map((id) => sql`${id}`),
        sql`, `,
      )})
      order by h.product_id, h.week`);
    const byProduct = new Map<number, DebriefView['prices'][number]>();
    for (const row of rows) {
      const id = Number(row.product_id);
      let entry = byProduct.get(id);
      if (!entry) {
        entry = { product_id: id, name: row.name, points: [] };
        byProduct.set(id, entry);
      }
      entry.points.push({ week: Number(row.week), price: centsToDollars(Number(row.price_cents)) });
    }
    prices.push(...byProduct.values());
  }
  const weeks = [...new Set(history.map((row) => Number(row.week)))].sort((a, b) => a - b);
  return { weeks, companies: [...byCompany.values()], prices, shocks };
}
