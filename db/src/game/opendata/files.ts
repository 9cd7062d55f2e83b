/**
 * The weekly data files (docs/open-data.md): for each finished week of a world, every table of
 * DATA_TABLES (shared/src/openData.ts) as gzipped CSV and as Parquet. A week's files are made once,
 * on the first request that needs one (a file or the manifest), from what the turn recorded
 * (record.ts) and the price history, then kept in `data_files`: a finished week never changes, so
 * the same bytes (and checksum, the ETag) answer every later request.
 *
 * Weeks with files: every week whose turn recorded open data (week_company_figures has its row).
 * A week whose turn ran before this server recorded them has none (404), said so by its message.
 *
 * Only public figures leave: the catalogue, the exchanges' prices and volumes, what the stores sold
 * per city, and per company what the leaderboard and the share lists show anyone (net worth, cash,
 * share price and shares, dividends per share). A company's own books (sales per store, production,
 * wages, profit) never do.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { sql, type SQL } from 'drizzle-orm';
import { ByteWriter, parquetWrite } from 'hyparquet-writer';
import {
  DATA_FILE_FORMATS,
  DATA_FORMAT_VERSION,
  DATA_TABLES,
  GameError,
  dataFilePath,
  marketMidPriceRule,
  referencePriceRule,
  weekNotFinishedMessage,
  weekNotPublishedMessage,
  type DataColumn,
  type DataFileFormat,
  type DataTable,
  type DataTableName,
} from '@marketcraft/shared';
import type { DbExecutor } from '../../client.ts';
import { ruleSql } from '../../ruleSql.ts';

/** A table's rows as the database answers them: each column by its name, dollars in cents. */
type TableRow = Record<string, string | number | boolean | null>;

/** The companies of a week as the turn recorded them (record.ts), one row each. */
function weekCompaniesSql(worldId: number, week: number): SQL {
  return sql`(
    select f.* from week_company_figures w,
      unnest(w.company_ids, w.names, w.is_bots, w.strategies, w.statuses, w.ranks, w.cash_cents, w.net_worth_cents, w.listed,
             w.share_price_cents, w.total_shares, w.book_value_cents, w.dividend_per_share_cents, w.shares_bought, w.shares_sold)
        as f(company_id, company, is_bot, strategy, status, rank, cash, net_worth, listed, share_price, total_shares, book_value_per_share,
             dividend_per_share, shares_bought, shares_sold)
    where w.world_id = ${worldId} and w.week = ${week}
  )`;
}

/** Each table's rows of one week, in its file's order; the columns named as DATA_TABLES names them. */
const TABLE_ROWS: Record<DataTableName, (worldId: number, week: number) => SQL> = {
  prices: (worldId, week) => sql`
    select h.week, p.id as product_id, p.name as product, p.category, p.base_price_cents as base_price, h.price_cents as posted_price,
           ${ruleSql(marketMidPriceRule, {
             price: sql`h.price_cents`,
             depth: sql`p.depth_units`,
             flow: sql`least(greatest(coalesce(ma.units_bought - ma.units_sold, 0), -10 * p.depth_units), 10 * p.depth_units)`,
           })} as curve_price,
           coalesce(ma.units_bought, 0) as units_bought, coalesce(ma.units_sold, 0) as units_sold, p.depth_units as depth
    from product_price_history h
    join products p on p.id = h.product_id
    left join market_activity ma on ma.world_id = h.world_id and ma.week = h.week and ma.product_id = h.product_id
    where h.world_id = ${worldId} and h.week = ${week}
    order by p.id`,
  // Every city and product: the reference price follows the week's posted price (referencePriceRule,
  // as the turn's markets phase sets it), so it is the one the week's shoppers compared against.
  city_retail: (worldId, week) => sql`
    select ${week}::int as week, ci.id as city_id, ci.name as city, co.name as country, p.id as product_id, p.name as product,
           ${ruleSql(referencePriceRule, { marketPriceCents: sql`h.price_cents`, cityFactorBp: sql`cmd.price_factor_bp` })} as reference_price,
           coalesce(s.stores, 0) as stores, coalesce(s.units, 0) as units_sold, coalesce(s.revenue_cents, 0) as revenue
    from city_market_data cmd
    join cities ci on ci.id = cmd.city_id
    join countries co on co.id = ci.country_id
    join products p on p.id = cmd.product_id
    join product_price_history h on h.world_id = cmd.world_id and h.product_id = cmd.product_id and h.week = ${week}
    left join (
      select s.* from week_city_sales w, unnest(w.city_ids, w.product_ids, w.stores, w.units, w.revenue_cents) as s(city_id, product_id, stores, units, revenue_cents)
      where w.world_id = ${worldId} and w.week = ${week}
    ) s on s.city_id = cmd.city_id and s.product_id = cmd.product_id
    where cmd.world_id = ${worldId}
    order by ci.id, p.id`,
  leaderboard: (worldId, week) => sql`
    select ${week}::int as week, rank, company_id, company, is_bot, net_worth, cash, share_price
    from ${weekCompaniesSql(worldId, week)} f where rank is not null order by rank`,
  companies: (worldId, week) => sql`
    select ${week}::int as week, company_id, company, is_bot, strategy, status, rank, (count(rank) over ())::int as companies_ranked,
           net_worth, cash, listed, share_price, total_shares, share_price * total_shares as market_cap, book_value_per_share, dividend_per_share
    from ${weekCompaniesSql(worldId, week)} f order by company_id`,
  shares: (worldId, week) => sql`
    select ${week}::int as week, company_id, company, share_price, total_shares, shares_bought, shares_sold, share_price * total_shares as market_cap
    from ${weekCompaniesSql(worldId, week)} f where listed order by company_id`,
};

/** Whole cents as dollars with two decimals, exactly ("-1234.05"): no floating point on the way. */
function dollarsText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const whole = Math.abs(cents);
  return `${sign}${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
}

function csvField(column: DataColumn, value: TableRow[string]): string {
  if (value === null || value === undefined) return '';
  switch (column.type) {
    case 'dollars':
      return dollarsText(Number(value));
    case 'boolean':
      return value ? 'true' : 'false';
    case 'text': {
      const text = String(value);
      return /[",\r\n]/.test(text) || text.trim() !== text ? `"${text.replaceAll('"', '""')}"` : text;
    }
    default:
      return String(Number(value));
  }
}

/** RFC 4180 CSV with a header line (the column names), lines ending in CRLF, gzipped. */
function encodeCsvGz(table: DataTable, rows: readonly TableRow[]): Buffer {
  const lines = [table.columns.map((column) => column.name).join(',')];
  for (const row of rows) lines.push(table.columns.map((column) => csvField(column, row[column.name] ?? null)).join(','));
  // mtime 0 in the gzip header (Node's default): the same rows give the same bytes. The default
  // level (6): level 9 took 4 times as long for 1% less.
  return gzipSync(lines.join('\r\n') + '\r\n');
}

const PARQUET_TYPES = { int32: 'INT32', int64: 'INT64', dollars: 'DOUBLE', text: 'STRING', boolean: 'BOOLEAN' } as const;

function parquetValue(column: DataColumn, value: TableRow[string]): unknown {
  if (value === null || value === undefined) return null;
  switch (column.type) {
    case 'int64':
      return BigInt(Number(value));
    case 'dollars':
      return Number(value) / 100;
    case 'int32':
      return Number(value);
    case 'boolean':
      return Boolean(value);
    default:
      return String(value);
  }
}

/** Parquet (hyparquet-writer): one column per DATA_TABLES column with its type; units in the file's key-value metadata. */
function encodeParquet(table: DataTable, rows: readonly TableRow[]): Buffer {
  const writer = new ByteWriter();
  // Synchronous without an asynchronous compressor (none is given): the file is whole once it returns.
  const written = parquetWrite({
    writer,
    columnData: table.columns.map((column) => ({
      name: column.name,
      data: rows.map((row) => parquetValue(column, row[column.name] ?? null)),
      type: PARQUET_TYPES[column.type],
      nullable: column.nullable ?? false,
    })) as Parameters<typeof parquetWrite>[0]['columnData'],
    kvMetadata: [
      { key: 'marketcraft.table', value: table.name },
      { key: 'marketcraft.format_version', value: String(DATA_FORMAT_VERSION) },
      { key: 'marketcraft.units', value: JSON.stringify(Object.fromEntries(table.columns.map((column) => [column.name, column.unit]))) },
    ],
    createdBy: 'marketcraft',
    // One row group and no column statistics: a week's file is small, and both took 4 times as
    // long to write (a 15,200-row city_retail: 1.6 s -> 0.4 s on a loaded machine).
    rowGroupSize: 10_000_000,
    statistics: false,
  });
  if (written instanceof Promise) throw new Error('parquetWrite went asynchronous: the file would be read before it is written');
  return Buffer.from(writer.getBuffer());
}

const ENCODERS: Record<DataFileFormat, (table: DataTable, rows: readonly TableRow[]) => Buffer> = { 'csv.gz': encodeCsvGz, parquet: encodeParquet };

/** Files of a week: every table in every format. */
const FILES_PER_WEEK = DATA_TABLES.length * DATA_FILE_FORMATS.length;

/** Serialises the making of one world's files (two requests for a new week make it once). */
const DATA_FILES_LOCK_KEY = 0x6d636f64; // "mcod"

/**
 * Weeks a process makes at once. Making one holds a database connection for a few seconds (a big
 * world on a loaded machine); the others wait here, holding none, so a class opening its notebooks
 * at the same moment never takes the API's whole pool.
 */
const WEEKS_MADE_AT_ONCE = 2;
let making = 0;
const waitingToMake: Array<() => void> = [];

async function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  if (making >= WEEKS_MADE_AT_ONCE) await new Promise<void>((resolve) => waitingToMake.push(resolve));
  else making += 1;
  try {
    return await work();
  } finally {
    // Hand the place to the next waiting request, or give it back.
    const next = waitingToMake.shift();
    if (next) next();
    else making -= 1;
  }
}

/** Reads the week's rows, encodes every file, keeps them; once (a week already made is left as it is). */
export async function makeWeekFiles(db: DbExecutor, worldId: number, week: number): Promise<void> {
  await oneAtATime(() => makeWeek(db, worldId, week));
}

async function makeWeek(db: DbExecutor, worldId: number, week: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${DATA_FILES_LOCK_KEY}, ${worldId}::int)`);
    const [made] = await tx.execute<{ files: number }>(sql`select count(*)::int as files from data_files where world_id = ${worldId} and week = ${week}`);
    if (Number(made?.files ?? 0) >= FILES_PER_WEEK) return;
    for (const table of DATA_TABLES) {
      const rows = await tx.execute<TableRow>(TABLE_ROWS[table.name](worldId, week));
      for (const format of DATA_FILE_FORMATS) {
        const content = ENCODERS[format](table, rows);
        const sha256 = createHash('sha256').update(content).digest('hex');
        await tx.execute(sql`
          insert into data_files (world_id, week, table_name, format, content, sha256, rows)
          values (${worldId}, ${week}, ${table.name}, ${format}, ${content}, ${sha256}, ${rows.length})
          on conflict do nothing`);
      }
    }
  });
}

/** The weeks of a world that have data files (their turn recorded open data), oldest first, and its current week. */
async function publishedWeeks(db: DbExecutor, worldId: number): Promise<{ currentWeek: number; weeks: number[] }> {
  const rows = await db.execute<{ current_week: number; weeks: number[] | null }>(sql`
    select w.current_week, (select array_agg(f.week order by f.week) from week_company_figures f where f.world_id = w.id) as weeks
    from worlds w where w.id = ${worldId}`);
  const row = rows[0];
  if (!row) throw new GameError('NOT_FOUND', 'World not found');
  return { currentWeek: Number(row.current_week), weeks: (row.weeks ?? []).map(Number) };
}

export interface DataFile {
  content: Buffer;
  sha256: string;
  rows: number;
}

/**
 * One file of a finished week: 404 for a week not finished (or without data files), made on
 * first request. The caller has checked that the reader may see the world.
 */
export async function readDataFile(db: DbExecutor, worldId: number, week: number, table: DataTableName, format: DataFileFormat): Promise<DataFile> {
  const select = () =>
    db.execute<{ content: Buffer; sha256: string; rows: number }>(sql`
      select content, sha256, rows from data_files where world_id = ${worldId} and week = ${week} and table_name = ${table} and format = ${format}`);
  let [file] = await select();
  if (!file) {
    const { currentWeek, weeks } = await publishedWeeks(db, worldId);
    if (week >= currentWeek) throw new GameError('NOT_FOUND', weekNotFinishedMessage(week, currentWeek));
    if (!weeks.includes(week)) throw new GameError('NOT_FOUND', weekNotPublishedMessage(week));
    await makeWeekFiles(db, worldId, week);
    [file] = await select();
    if (!file) throw new Error(`data file ${table}.${format} of week ${week} was not made`);
  }
  return { content: Buffer.from(file.content), sha256: file.sha256, rows: Number(file.rows) };
}

export interface DataManifest {
  world_id: number;
  world_name: string;
  /** The week being played: every week before it is finished. */
  current_week: number;
  format_version: number;
  tables: DataTable[];
  weeks: Array<{
    week: number;
    files: Array<{ table: string; format: DataFileFormat; url: string; rows: number; bytes: number; sha256: string }>;
  }>;
}

/** Weeks whose files one manifest request makes (newest first); any others are made by their first file request. */
export const MANIFEST_MAKES_WEEKS = 4;

/**
 * GET /api/data/worlds/{id}/manifest.json: the tables with their columns and units, and every
 * finished week with its files. Weeks not made yet are made here, the newest MANIFEST_MAKES_WEEKS
 * of them, so one request never makes a long season at once (the first request after a server
 * upgrade, a big world); a week still unmade lists no files (`files: []`): its files are made on
 * their first request, and the next manifest lists them.
 */
export async function dataManifest(db: DbExecutor, worldId: number): Promise<DataManifest> {
  const { currentWeek, weeks } = await publishedWeeks(db, worldId);
  const made = await db.execute<{ week: number; files: number }>(sql`
    select week, count(*)::int as files from data_files where world_id = ${worldId} group by week`);
  const complete = new Set(made.filter((row) => Number(row.files) >= FILES_PER_WEEK).map((row) => Number(row.week)));
  const missing = weeks
    .filter((week) => !complete.has(week))
    .reverse()
    .slice(0, MANIFEST_MAKES_WEEKS);
  for (const week of missing) await makeWeekFiles(db, worldId, week);
  const files = await db.execute<{ week: number; table_name: DataTableName; format: DataFileFormat; rows: number; bytes: number; sha256: string }>(sql`
    select week, table_name, format, rows, octet_length(content) as bytes, sha256 from data_files where world_id = ${worldId}`);
  const [world] = await db.execute<{ name: string }>(sql`select name from worlds where id = ${worldId}`);
  const order = (file: { table_name: DataTableName; format: DataFileFormat }) =>
    DATA_TABLES.findIndex((table) => table.name === file.table_name) * DATA_FILE_FORMATS.length + DATA_FILE_FORMATS.indexOf(file.format);
  return {
    world_id: worldId,
    world_name: world?.name ?? '',
    current_week: currentWeek,
    format_version: DATA_FORMAT_VERSION,
    tables: DATA_TABLES.map((table) => ({ ...table, key: [...table.key], columns: table.columns.map((column) => ({ nullable: false, ...column })) })),
    weeks: weeks.map((week) => ({
      week,
      files: files
        .filter((file) => Number(file.week) === week)
        .sort((a, b) => order(a) - order(b))
        .map((file) => ({
          table: file.table_name,
          format: file.format,
          url: `/api${dataFilePath(worldId, week, file.table_name, file.format)}`,
          rows: Number(file.rows),
          bytes: Number(file.bytes),
          sha256: file.sha256,
        })),
    })),
  };
}
