/**
 * Worlds (docs/worlds.md, docs/architecture.md "Scale-out"): every game table belongs to one world.
 * Read from the migrated database itself, so a table added later without `world_id` fails here:
 * its primary key and every foreign key to another game table must lead with `world_id`, which is
 * what distributing the tables by world_id (Citus) or routing worlds to separate servers needs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../src/testing/freshDatabase.ts';

/** Shared by every world: the catalogue. */
const CATALOGUE_TABLES = ['products', 'recipes', 'recipe_inputs', 'building_types', 'research_upgrades', 'countries', 'cities'];
/**
 * Not game state: accounts, sessions, the API's tokens and counters, the worlds themselves, and the
 * link to course systems (LTI: the tool's keys, registered platforms, logins, launched users, the
 * course-to-world links and the scores last posted: docs/classroom.md), which is keyed by the
 * platform's own ids, not by a world.
 */
const NON_GAME_TABLES = [
  'worlds',
  'users',
  'sessions',
  'oauth_accounts',
  'auth_throttles',
  'api_tokens',
  'api_token_usage',
  'rate_limit_counters',
  'lti_tool_keys',
  'lti_platforms',
  'lti_login_states',
  'lti_users',
  'lti_contexts',
  'lti_scores',
  'lti_line_items',
  'lti_line_item_scores',
];

describe('every game table belongs to one world', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ max: 2 });
  });
  afterAll(async () => {
    await database.drop();
  });

  async function gameTables(): Promise<string[]> {
    const rows = await database.sql<{ tablename: string }[]>`select tablename from pg_tables where schemaname = 'public' order by 1`;
    return rows.map((row) => row.tablename).filter((name) => !CATALOGUE_TABLES.includes(name) && !NON_GAME_TABLES.includes(name));
  }

  /** Each constraint of a kind on a table, with its columns in key order. */
  async function constraints(table: string, kind: 'p' | 'f' | 'u'): Promise<{ name: string; columns: string[]; references: string | null }[]> {
    const rows = await database.sql<{ name: string; columns: string[]; references: string | null }[]>`
      select c.conname as name,
             array(select a.attname from unnest(c.conkey) with ordinality k(attnum, n)
                   join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum order by k.n)::text[] as columns,
             c.confrelid::regclass::text as references
      from pg_constraint c
      where c.conrelid = ${`public.${table}`}::regclass and c.contype = ${kind}`;
    return rows.map((row) => ({ ...row, references: row.references === '-' ? null : row.references }));
  }

  it('knows the game tables (the list below is what the test checks)', async () => {
    expect(await gameTables()).toEqual(
      expect.arrayContaining(['companies', 'buildings', 'transactions', 'turns', 'city_market_data', 'share_records', 'product_price_history']),
    );
  });

  it('gives every game table a world_id that leads its primary key', async () => {
    for (const table of await gameTables()) {
      const [primary] = await constraints(table, 'p');
      expect(primary, `${table} has no primary key`).toBeDefined();
      expect(primary!.columns[0], `${table}'s primary key (${primary!.columns.join(', ')}) does not lead with world_id`).toBe('world_id');
      const [column] = await database.sql<{ is_nullable: string }[]>`
        select is_nullable from information_schema.columns where table_schema = 'public' and table_name = ${table} and column_name = 'world_id'`;
      expect(column?.is_nullable, `${table}.world_id`).toBe('NO');
    }
  });

  it('leads every unique key and every foreign key to another game table with world_id', async () => {
    const tables = await gameTables();
    for (const table of tables) {
      for (const key of await constraints(table, 'f')) {
        if (key.references !== null && tables.includes(key.references)) {
          expect(key.columns[0], `${table}.${key.name} -> ${key.references}`).toBe('world_id');
        }
      }
      for (const key of await constraints(table, 'u')) expect(key.columns[0], `${table}.${key.name}`).toBe('world_id');
      const indexes = await database.sql<{ indexname: string; indexdef: string }[]>`
        select indexname, indexdef from pg_indexes where schemaname = 'public' and tablename = ${table} and indexdef like 'CREATE UNIQUE%'`;
      for (const index of indexes) expect(index.indexdef, `${table}.${index.indexname}`).toMatch(/\(world_id[,)]/);
    }
  });

  it('puts the seeded game in the public world (id 1)', async () => {
    const [world] = await database.sql<{ id: number; kind: string; name: string }[]>`select id, kind, name from worlds`;
    expect(world).toEqual({ id: 1, kind: 'public', name: 'Public world' });
    const [bots] = await database.sql<{ n: number }[]>`select count(*)::int as n from companies where is_bot and world_id = 1`;
    expect(bots!.n).toBe(25);
  });
});
