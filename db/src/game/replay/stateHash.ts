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
 * countries, recipes, upgrades) come from the seed and are the same everywhere. Columns are printed
 * as jsonb prints the row (keys sorted as jsonb sorts them, integers printed exactly) without the
 * ids and without any time of day (`*_at`): every other column of these tables counts, new ones
 * included (they are read from the catalogue).
 */
import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
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

/** The tables the canonical state reads (their aliases below name them). */
const HASHED_TABLES = [
  'companies',
  'inventory_items',
  'buildings',
  'building_inventory_items',
  'store_products',
  'share_records',
  'portfolio_entries',
  'influence_records',
  'company_research',
  'exchange_orders',
  'contracts',
  'world_products',
  'city_market_data',
  'world_countries',
  'political_events',
] as const;
type HashedTable = (typeof HASHED_TABLES)[number];

/** Types whose text form is their jsonb text: printed with `::text`, several times cheaper than `to_jsonb`. */
const PLAIN_TYPES = new Set(['smallint', 'integer', 'bigint', 'boolean']);

/** Per hashed table, the columns that count (no ids, no `*_at`) in jsonb's key order, each with its type. */
type CountedColumns = ReadonlyMap<HashedTable, readonly { name: string; type: string }[]>;

/** The columns of the hashed tables, from the catalogue: every column counts, new ones included. */
async function countedColumns(db: DbExecutor): Promise<CountedColumns> {
  const rows = await db.execute<{ table: HashedTable; name: string; type: string }>(sql`
    select c.relname as "table", a.attname as name, format_type(a.atttypid, null) as type
    from pg_attribute a join pg_class c on c.oid = a.attrelid
    where c.oid = any(${`{${HASHED_TABLES.join(',')}}`}::regclass[]) and a.attnum > 0 and not a.attisdropped`);
  const counted = new Map<HashedTable, { name: string; type: string }[]>(HASHED_TABLES.map((table) => [table, []]));
  for (const row of rows) {
    if (row.name.endsWith('_at') || ID_COLUMNS.includes(row.name)) continue;
    if (!/^[a-z_][a-z0-9_]*$/.test(row.name)) throw new Error(`stateHash: column ${row.table}.${row.name} needs quoting`);
    counted.get(row.table)!.push({ name: row.name, type: row.type });
  }
  // jsonb orders an object's keys by length, then byte by byte (the names are ASCII).
  for (const list of counted.values()) list.sort((a, b) => a.name.length - b.name.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return counted;
}

/**
 * The row's counted columns as the text of the jsonb object `to_jsonb(row)` minus ids and times
 * would print (`{"key": value, ...}`, keys in jsonb's order), built by concatenation: building and
 * printing a jsonb object for each of a world's ~15,000 city market rows was most of the hash's
 * time. Integers and booleans print as their text; other types through `to_jsonb` (quoting).
 */
function rowColumns(alias: string, list: readonly { name: string; type: string }[]): SQL {
  if (list.length === 0) return sql.raw(`'{}'`);
  const values = list.map(({ name, type }) => {
    const value = PLAIN_TYPES.has(type) ? `${alias}.${name}::text` : `to_jsonb(${alias}.${name})::text`;
    return `'"${name}": ' || coalesce(${value}, 'null')`;
  });
  return sql.raw(`('{' || ${values.join(` || ', ' || `)} || '}')`);
}

/** One section: its rows' canonical keys (already sorted) and columns. */
function section(name: string, query: SQL): SQL {
  return sql`select ${name}::text as section, key, cols from (${query}) s`;
}

function stateSql(worldId: number, counted: CountedColumns): SQL {
  const columns = (alias: string, table: HashedTable) => rowColumns(alias, counted.get(table)!);
  const co = sql`select id, row_number() over (order by id) as k from companies where world_id = ${worldId}::int`;
  const bu = sql`select b.id, co.k as ck, row_number() over (partition by b.company_id order by b.id) as bk
    from buildings b join (${co}) co on co.id = b.company_id where b.world_id = ${worldId}::int`;
  const sections = [
    section('world', sql`select '' as key, current_week::text as cols from worlds where id = ${worldId}::int`),
    section('company', sql`select lpad(co.k::text, 8, '0') as key, ${columns('c', 'companies')} as cols from companies c join (${co}) co on co.id = c.id`),
    section(
      'warehouse',
      sql`select lpad(co.k::text, 8, '0') || ':' || lpad(i.product_id::text, 8, '0') as key, ${columns('i', 'inventory_items')} as cols
        from inventory_items i join (${co}) co on co.id = i.company_id where i.world_id = ${worldId}::int`,
    ),
    section(
      'building',
      sql`select lpad(bu.ck::text, 8, '0') || ':' || lpad(bu.bk::text, 8, '0') as key, ${columns('b', 'buildings')} as cols
        from buildings b join (${bu}) bu on bu.id = b.id`,
    ),
    section(
      'back_room',
      sql`select lpad(bu.ck::text, 8, '0') || ':' || lpad(bu.bk::text, 8, '0') || ':' || lpad(r.product_id::text, 8, '0') as key, ${columns('r', 'building_inventory_items')} as cols
        from building_inventory_items r join (${bu}) bu on bu.id = r.building_id where r.world_id = ${worldId}::int`,
    ),
    section(
      'shelf',
      sql`select lpad(bu.ck::text, 8, '0') || ':' || lpad(bu.bk::text, 8, '0') || ':' || lpad(p.product_id::text, 8, '0') as key, ${columns('p', 'store_products')} as cols
        from store_products p join (${bu}) bu on bu.id = p.building_id where p.world_id = ${worldId}::int`,
    ),
    section(
      'shares',
      sql`select lpad(co.k::text, 8, '0') as key, ${columns('s', 'share_records')} as cols from share_records s join (${co}) co on co.id = s.company_id where s.world_id = ${worldId}::int`,
    ),
    section(
      'position',
      sql`select lpad(h.k::text, 8, '0') || ':' || lpad(i.k::text, 8, '0') as key, ${columns('p', 'portfolio_entries')} as cols
        from portfolio_entries p join (${co}) h on h.id = p.holder_company_id join (${co}) i on i.id = p.issuer_company_id where p.world_id = ${worldId}::int`,
    ),
    section(
      'influence',
      sql`select lpad(co.k::text, 8, '0') || ':' || lpad(r.country_id::text, 8, '0') as key, ${columns('r', 'influence_records')} as cols
        from influence_records r join (${co}) co on co.id = r.company_id where r.world_id = ${worldId}::int`,
    ),
    section(
      'research',
      sql`select lpad(co.k::text, 8, '0') || ':' || lpad(r.upgrade_id::text, 8, '0') as key, ${columns('r', 'company_research')} as cols
        from company_research r join (${co}) co on co.id = r.company_id where r.world_id = ${worldId}::int`,
    ),
    section(
      'order',
      sql`select lpad(co.k::text, 8, '0') || ':' || lpad((row_number() over (partition by o.company_id order by o.id))::text, 8, '0') as key, ${columns('o', 'exchange_orders')} as cols
        from exchange_orders o join (${co}) co on co.id = o.company_id where o.world_id = ${worldId}::int`,
    ),
    section(
      'contract',
      sql`select lpad(s.k::text, 8, '0') || ':' || lpad((row_number() over (partition by c.seller_company_id order by c.id))::text, 8, '0') || ':' || lpad(b.k::text, 8, '0') as key,
          ${columns('c', 'contracts')} as cols
        from contracts c join (${co}) s on s.id = c.seller_company_id join (${co}) b on b.id = c.buyer_company_id where c.world_id = ${worldId}::int`,
    ),
    section(
      'price',
      sql`select lpad(p.product_id::text, 8, '0') as key, ${columns('p', 'world_products')} as cols from world_products p where p.world_id = ${worldId}::int`,
    ),
    section(
      'city_market',
      sql`select lpad(m.city_id::text, 8, '0') || ':' || lpad(m.product_id::text, 8, '0') as key, ${columns('m', 'city_market_data')} as cols
        from city_market_data m where m.world_id = ${worldId}::int`,
    ),
    section(
      'country',
      sql`select lpad(c.country_id::text, 8, '0') as key, ${columns('c', 'world_countries')} as cols from world_countries c where c.world_id = ${worldId}::int`,
    ),
    section(
      'political_event',
      sql`select lpad(e.country_id::text, 8, '0') || ':' || lpad(e.started_week::text, 8, '0') || ':' || e.event_type || ':' || coalesce(lpad(co.k::text, 8, '0'), '-') as key,
          ${columns('e', 'political_events')} as cols
        from political_events e left join (${co}) co on co.id = e.beneficiary_company_id where e.world_id = ${worldId}::int`,
    ),
  ];
  return sql.join(sections, sql` union all `);
}

/** The world's canonical state, one line per row (docs/replay.md). */
async function canonicalState(db: DbExecutor, worldId: number): Promise<string[]> {
  const rows = await db.execute<{ section: string; key: string; cols: string }>(stateSql(worldId, await countedColumns(db)));
  // Sorted here, by code units: PostgreSQL's text order follows the server's collation.
  return rows.map((row) => `${row.section}|${row.key}|${row.cols}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** SHA-256 (hex) of the world's canonical state. */
export async function stateHash(db: DbExecutor, worldId: number): Promise<string> {
  const lines = await canonicalState(db, worldId);
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}
