/**
 * A world's state in canonical form, and its hash (docs/replay.md, "The canonical state"): what a
 * replay must reproduce exactly. One line per row, `section|key...|{columns}`, sections in a fixed
 * sorted by code units (sections, then keys); SHA-256 of the lines joined by newlines.
 *
 * Ids differ between the original and a replay (other worlds took other ids), so no id appears:
 * a company is its rank in the world by id (companies of a world are created in log order: the
 * founding lock serialises foundings, the bots are inserted in one statement), a building its
 * company's rank and its rank in that company (a company's buildings are built under its row lock,
 * one after the other), an order or a contract likewise. Catalogue ids (products, cities,
 * countries, recipes, upgrades) come from the seed and are the same everywhere. Columns are read
 * as jsonb (keys sorted by PostgreSQL, integers printed exactly) without the ids and without any
 * time of day (`*_at`): every other column of these tables counts, new ones included.
 */
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  buildingInventoryItems,
  buildings,
  cityMarketData,
  companies,
  companyResearch,
  contracts,
  exchangeOrders,
  influenceRecords,
  inventoryItems,
  politicalEvents,
  portfolioEntries,
  shareRecords,
  storeProducts,
  worldCountries,
  worldProducts,
} from '../../schema/index.ts';
import type { DbExecutor } from '../../client.ts';

/** Columns holding ids of rows a replay numbers differently (replaced by the canonical keys), and secrets drawn at random. */
const ID_COLUMNS = [
  'id',
  'world_id',
  'company_id',
  'user_id',
  'building_id',
  'holder_company_id',
  'issuer_company_id',
  'seller_company_id',
  'buyer_company_id',
  'beneficiary_company_id',
  'order_id',
  'created_by_user_id',
  // Not ids, but not the game's state either: a team's random join code (a replay draws another).
  'team_code',
];

/**
 * Keys every row drops: the id columns, and every column named `*_at` of the game's tables (read
 * from the catalogue once per statement, so a new time-of-day column is left out too).
 */
const DROPPED_KEYS = sql.raw(`(array[${ID_COLUMNS.map((column) => `'${column}'`).join(', ')}]::text[] || array(
    select distinct a.attname::text from pg_attribute a join pg_class t on t.oid = a.attrelid
    where t.relnamespace = current_schema()::regnamespace and t.relkind = 'r' and a.attnum > 0 and a.attname like '%\\_at'))`);

/** The row's columns without ids and times of day, as canonical jsonb text: the definition (docs/replay.md). */
function jsonbColumns(alias: string): SQL {
  return sql`(to_jsonb(${sql.raw(alias)}) - (select keys from dropped))::text`;
}

const INTEGER_COLUMNS = new Set(['PgInteger', 'PgSmallInt', 'PgBigInt53', 'PgBigInt64', 'PgSerial', 'PgSmallSerial', 'PgBigSerial53', 'PgBigSerial64']);

/** One column's value as jsonb prints it: integers and booleans as their text, strings JSON-escaped. */
function jsonValue(alias: string, column: PgColumn): SQL {
  const ref = sql.raw(`${alias}.${toSnakeCase(column.name)}`);
  const printed =
    INTEGER_COLUMNS.has(column.columnType) || column.columnType === 'PgBoolean'
      ? sql`${ref}::text`
      : column.columnType === 'PgText' || column.columnType === 'PgVarchar'
        ? sql`to_json(${ref})::text`
        : sql`to_jsonb(${ref})::text`;
  return sql`coalesce(${printed}, 'null')`;
}

/** The table's columns that count (no ids, no times of day), in the order jsonb prints their keys: shortest name first, then by bytes. */
function keptColumns(table: PgTable): { column: PgColumn; name: string }[] {
  return Object.values(getTableColumns(table))
    .map((column) => ({ column, name: toSnakeCase(column.name) }))
    .filter(({ name }) => !name.endsWith('_at') && !ID_COLUMNS.includes(name))
    .sort((a, b) => Buffer.byteLength(a.name) - Buffer.byteLength(b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The same text as `jsonbColumns`, written out column by column from the table's schema: jsonb
 * prints an object's keys shortest first, then by bytes, with ": " and ", ". Building the jsonb
 * of each row and printing it was most of the hash's time (a class world's 15,200 city markets
 * every turn: ~50 ms of CPU against ~15 this way). The test compares both on every section.
 */
function columns(alias: string, table: PgTable): SQL {
  const kept = keptColumns(table);
  if (kept.length === 0) return sql`'{}'`;
  const parts = kept.map(({ column, name }, index) => sql`${sql.raw(`'${index === 0 ? '{' : ', '}"${name}": '`)} || ${jsonValue(alias, column)}`);
  return sql`(${sql.join(parts, sql` || `)} || '}')`;
}

/**
 * A row's key: its numbers printed as 8 digits joined by ':' (ranks and catalogue ids, all below
 * 10^8), then `rest` if any. The numbers also come as k1..k3, which the hash sorts by: in that
 * order the lines are in code-unit order (fixed-width digits compare as the numbers do), and
 * sorting 16,000 integers costs a fraction of sorting the lines. Equal numbers: the line decides.
 */
function keyed(numbers: SQL[], rest?: SQL): SQL {
  const printed = numbers.map((value) => sql`lpad((${value})::text, 8, '0')`);
  const parts = rest ? [...printed, rest] : printed;
  const k = [0, 1, 2].map((index) => (numbers[index] ? sql`(${numbers[index]})::bigint` : sql`null::bigint`));
  return sql`${parts.length === 0 ? sql`''` : sql.join(parts, sql` || ':' || `)} as key, ${k[0]} as k1, ${k[1]} as k2, ${k[2]} as k3`;
}

/**
 * Version 3's row text: PostgreSQL's text of a record (`(1,2,"a b",)`: a value quoted only where
 * it must be, an empty field for null), one output function per column and one string per row,
 * instead of the jsonb text written out with two concatenations per column. Building the lines
 * was most of the hash's time at 10,000 companies (docs/benchmarks.md, 2026-12-07 (turnA)).
 * Integers, booleans and text go in as they are; any other type (a float, jsonb) as its jsonb
 * text, which no session setting changes (a float's own text follows extra_float_digits).
 */
function recordValue(alias: string, column: PgColumn): SQL {
  const ref = sql.raw(`${alias}.${toSnakeCase(column.name)}`);
  const plain = INTEGER_COLUMNS.has(column.columnType) || ['PgBoolean', 'PgText', 'PgVarchar'].includes(column.columnType);
  return plain ? ref : sql`to_jsonb(${ref})::text`;
}

/** Version 3: the kept columns (in version 2's order) as one record's text. */
function recordColumns(alias: string, table: PgTable): SQL {
  const kept = keptColumns(table);
  if (kept.length === 0) return sql`'()'`;
  return sql`row(${sql.join(
    kept.map(({ column }) => recordValue(alias, column)),
    sql`, `,
  )})::text`;
}

/** Version 3: the key's numbers (and `rest`) as one record's text; the numbers also as k1..k3. */
function keyedRecord(numbers: SQL[], rest?: SQL): SQL {
  const parts = rest ? [...numbers, rest] : numbers;
  const k = [0, 1, 2].map((index) => (numbers[index] ? sql`(${numbers[index]})::bigint` : sql`null::bigint`));
  return sql`${parts.length === 0 ? sql`''` : sql`row(${sql.join(parts, sql`, `)})::text`} as key, ${k[0]} as k1, ${k[1]} as k2, ${k[2]} as k3`;
}

/**
 * The canonical form's version. 1: every row of every section. 2 (issue 25): a city market only
 * while its demand is away from its base level. A world's city markets are copied from the
 * catalogue at its creation and only their demand level ever moves (markets.ts brings it back to
 * the base), so version 1 hashed ~15,200 rows of a class world every turn that no turn had changed,
 * the hash's largest part. A stored hash names its version from 2 on (`v2:<hex>`); a plain hex
 * hash is version 1, and replay computes that version to compare with it (docs/replay.md).
 */
export const STATE_HASH_VERSION = 3;
export type StateHashVersion = 1 | 2 | 3;

/** The canonical form a stored hash was computed with. */
export function stateHashVersionOf(stored: string): StateHashVersion {
  return stored.startsWith('v3:') ? 3 : stored.startsWith('v2:') ? 2 : 1;
}

/** One section: its rows' canonical keys and columns. */
function section(name: string, query: SQL): SQL {
  return sql`select ${name}::text as section, key, k1, k2, k3, cols from (${query}) s`;
}

/**
 * How a version prints a row: its key (`keyed`; `keyedRecord` from version 3) and its columns
 * (versions 1 and 2: the definition `jsonbColumns` or the same text written out, `columns`;
 * version 3: `recordColumns`).
 */
interface RowForm {
  keyed: (numbers: SQL[], rest?: SQL) => SQL;
  cols: (alias: string, table: PgTable) => SQL;
}

/** The form the turn hashes a version with. */
function formOf(version: StateHashVersion): RowForm {
  return version >= 3 ? { keyed: keyedRecord, cols: recordColumns } : { keyed, cols: columns };
}

/** The companies' ranks in the world (`co`) and the buildings' (`bu`): the sections join them. */
function rankSql(worldId: number): { co: SQL; bu: SQL } {
  return {
    co: sql`select id, row_number() over (order by id) as k from companies where world_id = ${worldId}::int`,
    bu: sql`select b.id, co.k as ck, row_number() over (partition by b.company_id order by b.id) as bk
    from buildings b join co on co.id = b.company_id where b.world_id = ${worldId}::int`,
  };
}

/** Every section by name: each a query of (key, k1, k2, k3, cols) over the ranks `co` and `bu`. */
function sectionsSql(worldId: number, { keyed, cols }: RowForm, version: StateHashVersion): Record<string, SQL> {
  // Every section names its world on each table it reads, though the ranks' joins already keep
  // its rows only: the planner then reads the world's rows by index. Without (the companies and
  // the buildings here) it misjudged the ranks' rows and read every world's, hash-joined: with
  // 200 class worlds ~0.4 s of the hash (docs/benchmarks.md).
  return {
    world: sql`select ${keyed([])}, current_week::text as cols from worlds where id = ${worldId}::int`,
    company: sql`select ${keyed([sql`co.k`])}, ${cols('c', companies)} as cols from companies c join co on co.id = c.id where c.world_id = ${worldId}::int`,
    warehouse: sql`select ${keyed([sql`co.k`, sql`i.product_id`])}, ${cols('i', inventoryItems)} as cols
        from inventory_items i join co on co.id = i.company_id where i.world_id = ${worldId}::int`,
    building: sql`select ${keyed([sql`bu.ck`, sql`bu.bk`])}, ${cols('b', buildings)} as cols
        from buildings b join bu on bu.id = b.id where b.world_id = ${worldId}::int`,
    back_room: sql`select ${keyed([sql`bu.ck`, sql`bu.bk`, sql`r.product_id`])}, ${cols('r', buildingInventoryItems)} as cols
        from building_inventory_items r join bu on bu.id = r.building_id where r.world_id = ${worldId}::int`,
    shelf: sql`select ${keyed([sql`bu.ck`, sql`bu.bk`, sql`p.product_id`])}, ${cols('p', storeProducts)} as cols
        from store_products p join bu on bu.id = p.building_id where p.world_id = ${worldId}::int`,
    shares: sql`select ${keyed([sql`co.k`])}, ${cols('s', shareRecords)} as cols from share_records s join co on co.id = s.company_id where s.world_id = ${worldId}::int`,
    position: sql`select ${keyed([sql`h.k`, sql`i.k`])}, ${cols('p', portfolioEntries)} as cols
        from portfolio_entries p join co h on h.id = p.holder_company_id join co i on i.id = p.issuer_company_id where p.world_id = ${worldId}::int`,
    influence: sql`select ${keyed([sql`co.k`, sql`r.country_id`])}, ${cols('r', influenceRecords)} as cols
        from influence_records r join co on co.id = r.company_id where r.world_id = ${worldId}::int`,
    research: sql`select ${keyed([sql`co.k`, sql`r.upgrade_id`])}, ${cols('r', companyResearch)} as cols
        from company_research r join co on co.id = r.company_id where r.world_id = ${worldId}::int`,
    order: sql`select ${keyed([sql`co.k`, sql`row_number() over (partition by o.company_id order by o.id)`])}, ${cols('o', exchangeOrders)} as cols
        from exchange_orders o join co on co.id = o.company_id where o.world_id = ${worldId}::int`,
    contract: sql`select ${keyed([sql`s.k`, sql`row_number() over (partition by c.seller_company_id order by c.id)`, sql`b.k`])},
          ${cols('c', contracts)} as cols
        from contracts c join co s on s.id = c.seller_company_id join co b on b.id = c.buyer_company_id where c.world_id = ${worldId}::int`,
    price: sql`select ${keyed([sql`p.product_id`])}, ${cols('p', worldProducts)} as cols from world_products p where p.world_id = ${worldId}::int`,
    city_market: sql`select ${keyed([sql`m.city_id`, sql`m.product_id`])}, ${cols('m', cityMarketData)} as cols
        from city_market_data m where m.world_id = ${worldId}::int
        ${version >= 2 ? sql`and m.demand_level <> m.base_demand_level` : sql``}`,
    country: sql`select ${keyed([sql`c.country_id`])}, ${cols('c', worldCountries)} as cols from world_countries c where c.world_id = ${worldId}::int`,
    political_event: sql`select ${keyed([sql`e.country_id`, sql`e.started_week`], sql`e.event_type || ':' || coalesce(lpad(co.k::text, 8, '0'), '-')`)},
          ${cols('e', politicalEvents)} as cols
        from political_events e left join co on co.id = e.beneficiary_company_id where e.world_id = ${worldId}::int`,
  };
}

/** Every line as (section, key, k1, k2, k3, cols): the sections' union, after the ranks. */
function stateSql(worldId: number, form: RowForm, version: StateHashVersion): SQL {
  const { co, bu } = rankSql(worldId);
  const sections = Object.entries(sectionsSql(worldId, form, version)).map(([name, query]) => section(name, query));
  return sql`with co as (${co}), bu as (${bu}) ${sql.join(sections, sql` union all `)}`;
}

/**
 * The world's canonical state, one line per row, in the hash's order (docs/replay.md). Versions 1
 * and 2: each row read as jsonb (the definition), sorted by code units. Version 3: sections by
 * name, then the key's numbers, then the line's bytes (a record's numbers are not fixed-width, so
 * code-unit order is no longer the key's order).
 */
export async function canonicalState(db: DbExecutor, worldId: number, version: StateHashVersion = STATE_HASH_VERSION): Promise<string[]> {
  if (version >= 3) {
    const rows = await db.execute<{ line: string }>(sql`
      select (section || '|' || key || '|' || cols) collate "C" as line from (${stateSql(worldId, formOf(version), version)}) lines
      order by section collate "C", k1, k2, k3, line`);
    return rows.map((row) => row.line);
  }
  const rows = await db.execute<{ line: string }>(sql`
    with dropped as (select ${DROPPED_KEYS} as keys)
    select section || '|' || key || '|' || cols as line from (${stateSql(worldId, { keyed, cols: jsonbColumns }, version)}) lines`);
  return rows.map((row) => row.line).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * SHA-256 (hex) of the world's canonical state: its lines joined by newlines, as UTF-8. Computed
 * where the rows are: sending a class world's ~16,000 lines to the worker, sorting and hashing
 * them there cost every turn more than its phases (docs/benchmarks.md). Byte order (collation "C")
 * is code-unit order for every line a world has: the lines of one section differ first in their
 * keys (digits, ':' and the names of event types), which are ASCII.
 *
 * Each section's lines are joined on their own, in their keys' order, and the sections in their
 * names' order (the same text as sorting every line at once): one sort of 260,000 wide lines at
 * 10,000 companies spilled to disk, while the largest section's sort fits in memory. Each line is
 * built once (a sort key that differs from the aggregated value, even by its collation, is built
 * again), and the companies' and buildings' ranks once for every section that joins them:
 * 1.43 -> 1.0 s of CPU at 10,000 companies, the same hash values (docs/turn.md). The price: each
 * section's sort keeps its memory until the statement ends (the hash's backend peaked at ~420 MB
 * instead of ~230 MB at 10,000 companies); hashing the sections in the worker instead saved ~100 MB
 * there but cost ~15% more CPU (tried). From version 2 on the hex is prefixed with its version
 * (`v2:`).
 */
export async function stateHash(db: DbExecutor, worldId: number, version: StateHashVersion = STATE_HASH_VERSION): Promise<string> {
  const { co, bu } = rankSql(worldId);
  const sections = Object.entries(sectionsSql(worldId, formOf(version), version)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const texts = sections.map(
    ([name, query]) =>
      sql`(select string_agg(line, E'\n' order by k1, k2, k3, line)
           from (select k1, k2, k3, (${`${name}|`}::text || key || '|' || cols) collate "C" as line from (${query}) s) l)`,
  );
  // concat_ws skips a section without lines (null), as the lines joined all at once would.
  const [row] = await db.execute<{ hash: string }>(sql`
    with co as materialized (${co}), bu as materialized (${bu})
    select encode(sha256(convert_to(concat_ws(E'\n', ${sql.join(texts, sql`, `)}), 'UTF8')), 'hex') as hash`);
  return version === 1 ? row!.hash : `v${version}:${row!.hash}`;
}
