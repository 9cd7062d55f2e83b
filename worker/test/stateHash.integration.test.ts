/**
 * The state hash (docs/replay.md, "The canonical state and its hash") is computed by PostgreSQL
 * with each row's columns written out from the schema (db/src/game/replay/stateHash.ts), but keeps
 * its definition: SHA-256 of the canonical lines (each row as jsonb without ids and times) sorted
 * by code units and joined by newlines. A class world with bots after two turns, with a row in
 * every section and a company whose name and bio need UTF-8 and JSON escapes. Version 2 of the
 * canonical form leaves out the city markets at their base demand; version 3 prints the same rows
 * as PostgreSQL's record text; versions 1 and 2 (the hashes stored before) still compute as they did.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { canonicalState, createWorld, stateHash, stateHashVersionOf, users } from '@marketcraft/db';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { runTurn } from '../src/turn/index.ts';

let database: TestDatabase;
let worldId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  const [teacher] = await database.db.insert(users).values({ email: 'teacher@example.com', isAdmin: true }).returning({ id: users.id });
  const world = await createWorld(
    database.db,
    { id: teacher!.id, isAdmin: true },
    { name: 'Hashed class', turnIntervalMinutes: null, startingCashDollars: 200_000, bots: 4, maxPlayers: 10, seed: 77 },
  );
  worldId = world.id;
  // Text jsonb must escape, and a row in every section the bots leave empty.
  await database.db.execute(sql`
    update companies set name = 'Boulangerie Ødegård 🍞', bio = ${'Say "bread" \\ twice,\tthen\nagain'}
    where id = (select min(id) from companies where world_id = ${worldId})`);
  const ids = (await database.db.execute<{ id: number }>(sql`select id from companies where world_id = ${worldId} order by id limit 2`)).map((row) =>
    Number(row.id),
  );
  await database.db.execute(sql`
    insert into portfolio_entries (world_id, holder_company_id, issuer_company_id, shares_owned, average_price_cents) values (${worldId}, ${ids[0]}, ${ids[1]}, 120, 345)`);
  await database.db.execute(sql`
    insert into influence_records (world_id, company_id, country_id, influence_points) select ${worldId}, ${ids[1]}, min(id), 7 from countries`);
  await database.db.execute(sql`
    insert into contracts (world_id, seller_company_id, buyer_company_id, product_id, quantity, unit_price_cents, week_offered, expires_week)
    select ${worldId}, ${ids[1]}, ${ids[0]}, min(id), 5, 250, 1, 9 from products`);
  for (const week of [1, 2]) expect((await runTurn(database.db, { worldId, week })).status).toBe('advanced');
});

afterAll(async () => {
  await database?.close();
});

describe('the state hash', () => {
  it('is SHA-256 of the canonical lines sorted by code units (version 1: every city market), as the turns stored before version 2', async () => {
    const lines = await canonicalState(database.db, worldId, 1);
    const sections = new Set(lines.map((line) => line.split('|')[0]));
    // Rows of most sections took part: the order between and within sections is exercised.
    for (const name of [
      'world',
      'company',
      'warehouse',
      'building',
      'back_room',
      'shelf',
      'shares',
      'position',
      'influence',
      'research',
      'order',
      'contract',
      'price',
      'city_market',
      'country',
      'political_event',
    ])
      expect(sections).toContain(name);
    expect(lines.filter((line) => line.startsWith('city_market|')).length).toBeGreaterThan(10_000);
    expect(lines.some((line) => line.includes('Ødegård 🍞') && line.includes('\\"bread\\"'))).toBe(true);
    const expected = createHash('sha256').update(lines.join('\n')).digest('hex');
    expect(await stateHash(database.db, worldId, 1)).toBe(expected);
    expect(stateHashVersionOf(expected)).toBe(1);
  });

  it('is, in version 2, the same lines without the city markets at their base demand', async () => {
    const all = await canonicalState(database.db, worldId, 1);
    const lines = await canonicalState(database.db, worldId, 2);
    expect(lines).toEqual(all.filter((line) => !line.startsWith('city_market|')));
    const expected = `v2:${createHash('sha256').update(lines.join('\n')).digest('hex')}`;
    expect(await stateHash(database.db, worldId, 2)).toBe(expected);
    expect(stateHashVersionOf(expected)).toBe(2);
  });

  it("is, from version 3, the rows of version 2 as record text, in their keys' order, as each turn stores it", async () => {
    const v2 = await canonicalState(database.db, worldId, 2);
    const lines = await canonicalState(database.db, worldId);
    // The same rows: section by section, the same count, and the same keys in the same order.
    const keys = (all: string[], parse: (key: string) => number[]) =>
      all.map((line) => {
        const [section, key] = line.split('|');
        return `${section}:${parse(key!).join(',')}`;
      });
    const numbers = /\d+/g;
    expect(keys(lines, (key) => (key.match(numbers) ?? []).map(Number))).toEqual(keys(v2, (key) => (key.match(numbers) ?? []).map(Number)));
    // A record quotes a value only where it must; quotes are doubled, backslashes too, UTF-8 kept.
    const company = lines.find((line) => line.startsWith('company|(1)|'));
    expect(company).toContain('"Boulangerie Ødegård 🍞"');
    expect(company).toContain('"Say ""bread"" \\\\ twice,\tthen\nagain"');
    const expected = `v3:${createHash('sha256').update(lines.join('\n')).digest('hex')}`;
    expect(await stateHash(database.db, worldId)).toBe(expected);
    expect(stateHashVersionOf(expected)).toBe(3);
    const [turn] = await database.db.execute<{ state_hash: string }>(sql`select state_hash from turns where world_id = ${worldId} and week = 2`);
    expect(turn!.state_hash).toBe(expected);
  });

  it('changes when one city market moves away from its base, with its line, and comes back with it', async () => {
    const before = { v1: await stateHash(database.db, worldId, 1), v2: await stateHash(database.db, worldId, 2), v3: await stateHash(database.db, worldId) };
    const market = sql`world_id = ${worldId} and city_id = (select min(city_id) from city_market_data where world_id = ${worldId}) and product_id = (select max(id) from products)`;
    const [{ level } = { level: 0 }] = await database.db.execute<{ level: number }>(sql`select demand_level as level from city_market_data where ${market}`);
    await database.db.execute(sql`update city_market_data set demand_level = ${(Number(level) + 1) % 101} where ${market}`);
    expect(await stateHash(database.db, worldId, 1)).not.toBe(before.v1);
    expect(await stateHash(database.db, worldId, 2)).not.toBe(before.v2);
    expect(await stateHash(database.db, worldId)).not.toBe(before.v3);
    const moved = (await canonicalState(database.db, worldId, 2)).filter((line) => line.startsWith('city_market|'));
    expect(moved).toHaveLength(1);
    expect(moved[0]).toContain(`"demand_level": ${(Number(level) + 1) % 101}`);
    await database.db.execute(sql`update city_market_data set demand_level = ${Number(level)} where ${market}`);
    expect(await stateHash(database.db, worldId, 1)).toBe(before.v1);
    expect(await stateHash(database.db, worldId, 2)).toBe(before.v2);
    expect(await stateHash(database.db, worldId)).toBe(before.v3);
  });
});
