/**
 * Open data (docs/open-data.md): a class world plays three weeks (market trades, a share purchase,
 * a store selling bread), then its weekly files say what the API said of the same weeks: the
 * leaderboard file is GET /api/leaderboard right after the turn, prices are GET
 * /api/market/products/{id}'s history with the units traded, share prices are GET
 * /api/stocks/history's, the companies' figures are their week reports' public lines, and the
 * stores' sales per city are what the shelves sold. The Parquet file reads back (hyparquet) to the
 * same rows as the CSV, the manifest's checksums are the files', and the HTTP side holds: strong
 * ETags and 304s, immutable caching (private for a class world), byte ranges, 404 for a week not
 * finished or a world the reader is not in, 400 for an unknown table or file, 401 without sign-in.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { createWorld, joinWorld, users } from '@marketcraft/db';
import { DATA_TABLES, PUBLIC_WORLD_ID, weekNotFinishedMessage, type DataTableName } from '@marketcraft/shared';
import { MANIFEST_MAKES_WEEKS } from '@marketcraft/db';
import { runTurn } from '../../worker/src/turn/index.ts';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';

type Row = Record<string, string>;

/** A gzipped CSV as rows of text by column name (the files quote only names with commas or quotes). */
function parseCsvGz(content: Buffer): Row[] {
  const text = gunzipSync(content).toString('utf8');
  expect(text.endsWith('\r\n')).toBe(true);
  const lines = text.slice(0, -2).split('\r\n');
  const split = (line: string) =>
    [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].slice(0, -1).map((match) => match[1]!.replace(/^"|"$/g, '').replaceAll('""', '"'));
  const header = split(lines[0]!);
  return lines.slice(1).map((line) => Object.fromEntries(split(line).map((value, index) => [header[index]!, value])));
}

describe('open data: the weekly files of a class world', { timeout: 180_000 }, () => {
  let app: TestApp;
  let teacher: TestPlayer;
  let alice: TestPlayer;
  let bob: TestPlayer;
  let worldId: number;
  let aliceCompany: number;
  let bobCompany: number;
  let bread: { id: number; name: string };
  let wheat: { id: number };
  /** GET /api/leaderboard as each turn left it (no bots: nothing moves between the turn and the read). */
  const leaderboardAfter = new Map<number, { companies: Array<Record<string, unknown>> }>();

  const as = (player: TestPlayer, method: string, path: string, body?: unknown) => app.api(method, path, { token: player.token, body });
  async function ok(player: TestPlayer, method: string, path: string, body?: unknown) {
    const response = await as(player, method, path, body);
    expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBe(200);
    return response.body;
  }
  const file = (player: TestPlayer | null, path: string, headers: Record<string, string> = {}) =>
    fetch(`${app.baseUrl}/api/data/worlds/${worldId}/${path}`, { headers: { ...(player ? { authorization: `Bearer ${player.token}` } : {}), ...headers } });
  async function download(week: number, table: DataTableName, format: 'csv.gz' | 'parquet' = 'csv.gz'): Promise<Buffer> {
    const response = await file(alice, `weeks/${week}/${table}.${format}`);
    expect(response.status, `${table}.${format} of week ${week}: ${response.status}`).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  }
  const turn = async () => {
    const result = await runTurn(app.database.db, { worldId });
    expect(result.status).toBe('advanced');
    if (result.status === 'advanced') leaderboardAfter.set(result.week, await ok(alice, 'GET', '/leaderboard'));
  };

  beforeAll(async () => {
    app = await startTestApp();
    teacher = await app.createPlayer({ name: 'Data Teacher' });
    alice = await app.createPlayer({ name: 'Alice Public Co' });
    bob = await app.createPlayer({ name: 'Bob Public Co' });
    const db = app.database.db;
    const world = await createWorld(
      db,
      { id: teacher.userId, isAdmin: false },
      { name: 'Data class', turnIntervalMinutes: null, startingCashDollars: 200_000, bots: 0, seed: 25, maxPlayers: 30 },
    );
    worldId = world.id;
    for (const [player, name] of [
      [alice, 'Alice, "Data" & Co'],
      [bob, 'Bob Data Co'],
    ] as const) {
      const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, player.userId));
      await joinWorld(db, { id: player.userId, isAdmin: false, email: user!.email }, { code: world.join_code!, companyName: name });
      await ok(player, 'PUT', '/session/world', { world_id: worldId });
    }
    aliceCompany = (await ok(alice, 'GET', '/company')).id;
    bobCompany = (await ok(bob, 'GET', '/company')).id;
    const goods = (await ok(alice, 'GET', '/goods')) as Array<{ id: number; name: string }>;
    bread = goods.find((good) => good.name === 'White Bread')!;
    wheat = goods.find((good) => good.name === 'Wheat') ?? goods[0]!;
    const cities = (await ok(alice, 'GET', '/cities')) as Array<{ id: number; name: string }>;
    const portAldor = cities.find((city) => city.name === 'Port Aldor')!;

    // Week 1: Alice buys 300 wheat and sells 100 back, buys 7 of Bob's shares, and opens a bread shop.
    await ok(alice, 'POST', '/market/trade', { product_id: wheat.id, quantity: 300, action: 'buy' });
    await ok(alice, 'POST', '/market/trade', { product_id: wheat.id, quantity: 100, action: 'sell' });
    await ok(alice, 'POST', '/stocks/trade', { company_id: bobCompany, shares: 7, action: 'buy' });
    const store = await ok(alice, 'POST', '/buildings', { type: 'store', city_id: portAldor.id });
    await ok(alice, 'POST', `/buildings/${store.id}/inventory/purchase`, { product_id: bread.id, quantity: 400 });
    await ok(alice, 'POST', `/buildings/${store.id}/inventory/transfer-to-store`, { product_id: bread.id, quantity: 400, retail_price: 30 });
    await turn();
    // Week 2: Alice sells 3 of Bob's shares back. Week 3: nobody trades.
    await ok(alice, 'POST', '/stocks/trade', { company_id: bobCompany, shares: 3, action: 'sell' });
    await turn();
    await turn();
  }, 300_000);
  afterAll(async () => {
    await app.close();
  });

  it("lists every finished week with each table in both formats, and the checksums are the files'", async () => {
    const manifest = await ok(alice, 'GET', `/data/worlds/${worldId}/manifest.json`);
    expect(manifest).toMatchObject({ world_id: worldId, world_name: 'Data class', current_week: 4, format_version: 1 });
    expect(manifest.tables.map((table: { name: string }) => table.name)).toEqual(DATA_TABLES.map((table) => table.name));
    const prices = manifest.tables.find((table: { name: string }) => table.name === 'prices');
    expect(prices.columns.find((column: { name: string }) => column.name === 'posted_price')).toMatchObject({
      type: 'dollars',
      unit: 'dollars',
      nullable: false,
    });
    expect(manifest.weeks.map((week: { week: number }) => week.week)).toEqual([1, 2, 3]);
    const week2 = manifest.weeks[1].files as Array<{ table: string; format: string; url: string; rows: number; bytes: number; sha256: string }>;
    expect(week2.map((entry) => `${entry.table}.${entry.format}`)).toEqual(DATA_TABLES.flatMap((table) => [`${table.name}.csv.gz`, `${table.name}.parquet`]));
    for (const entry of week2) {
      const response = await fetch(`${app.baseUrl}${entry.url}`, { headers: { authorization: `Bearer ${alice.token}` } });
      const content = Buffer.from(await response.arrayBuffer());
      expect(content.length).toBe(entry.bytes);
      expect(createHash('sha256').update(content).digest('hex')).toBe(entry.sha256);
      expect(response.headers.get('etag')).toBe(`"${entry.sha256}"`);
      if (entry.format === 'csv.gz') expect(parseCsvGz(content)).toHaveLength(entry.rows);
    }
  });

  it('the leaderboard file of each week is the leaderboard the API answered right after that turn', async () => {
    for (const week of [1, 2, 3]) {
      const rows = parseCsvGz(await download(week, 'leaderboard'));
      const api = leaderboardAfter.get(week)!.companies;
      expect(
        rows.map((row) => ({
          rank: Number(row.rank),
          id: Number(row.company_id),
          name: row.company,
          net_worth: Number(row.net_worth),
          cash: Number(row.cash),
          share_price: Number(row.share_price),
        })),
      ).toEqual(
        api.map((company) => ({
          rank: company.rank,
          id: company.id,
          name: company.name,
          net_worth: company.net_worth,
          cash: company.cash,
          share_price: company.share_price,
        })),
      );
      expect(rows.every((row) => row.week === String(week) && row.is_bot === 'false')).toBe(true);
    }
  });

  it('prices: the posted price is GET /api/market/products/{id} history, with the units the exchange traded', async () => {
    const detail = await ok(alice, 'GET', `/market/products/${wheat.id}`);
    const history = new Map((detail.history as Array<{ week: number; price: number }>).map((point) => [point.week, point.price]));
    for (const week of [1, 2, 3]) {
      const rows = parseCsvGz(await download(week, 'prices'));
      const goods = (await ok(alice, 'GET', '/goods')) as unknown[];
      expect(rows).toHaveLength(goods.length);
      const row = rows.find((candidate) => Number(candidate.product_id) === wheat.id)!;
      expect(Number(row.posted_price)).toBe(history.get(week));
      expect([Number(row.units_bought), Number(row.units_sold)]).toEqual(week === 1 ? [300, 100] : [0, 0]);
      // 200 units net bought lift the curve above the posted price; a quiet week leaves it there.
      if (week === 1) expect(Number(row.curve_price)).toBeGreaterThan(Number(row.posted_price));
      else expect(row.curve_price).toBe(row.posted_price);
    }
  });

  it("shares: the week's close is GET /api/stocks/history, with the shares bought and sold back", async () => {
    const history = (await ok(alice, 'GET', `/stocks/history?company_id=${bobCompany}`)) as Array<{ week: number; price: number }>;
    for (const week of [1, 2, 3]) {
      const rows = parseCsvGz(await download(week, 'shares'));
      const bobRow = rows.find((row) => Number(row.company_id) === bobCompany)!;
      expect(Number(bobRow.share_price)).toBe(history.find((point) => point.week === week)!.price);
      expect([Number(bobRow.shares_bought), Number(bobRow.shares_sold)]).toEqual(week === 1 ? [7, 0] : week === 2 ? [0, 3] : [0, 0]);
      expect(Number(bobRow.market_cap)).toBeCloseTo(Number(bobRow.share_price) * Number(bobRow.total_shares), 2);
    }
  });

  it("companies: each student's figures are the public lines of their week report, and nothing private is in any file", async () => {
    for (const week of [1, 2, 3]) {
      const rows = parseCsvGz(await download(week, 'companies'));
      expect(rows).toHaveLength(2);
      for (const [player, companyId] of [
        [alice, aliceCompany],
        [bob, bobCompany],
      ] as const) {
        const report = await ok(player, 'GET', `/reports/${week}`);
        const row = rows.find((candidate) => Number(candidate.company_id) === companyId)!;
        expect(Number(row.net_worth)).toBe(report.net_worth);
        expect(Number(row.cash)).toBe(report.cash_end);
        expect(Number(row.rank)).toBe(report.rank);
        expect(Number(row.companies_ranked)).toBe(2);
        expect(row.status).toBe('active');
      }
      expect(rows.find((row) => Number(row.company_id) === aliceCompany)!.company).toBe('Alice, "Data" & Co');
    }
    // The columns are the public ones the manifest names: no profit, revenue, wages or stock of a company.
    const columns = DATA_TABLES.flatMap((table) => table.columns.map((column) => column.name));
    for (const secret of ['profit', 'store_revenue', 'wages', 'tax', 'inventory', 'quantity', 'user_id', 'email']) expect(columns).not.toContain(secret);
  });

  it("city_retail: every city and product with the week's reference price, and what Alice's shop sold there", async () => {
    const rows = parseCsvGz(await download(1, 'city_retail'));
    const cities = (await ok(alice, 'GET', '/cities')) as unknown[];
    const goods = (await ok(alice, 'GET', '/goods')) as unknown[];
    expect(rows).toHaveLength(cities.length * goods.length);
    const breadRows = rows.filter((row) => Number(row.product_id) === bread.id && Number(row.units_sold) > 0);
    expect(breadRows.map((row) => row.city)).toEqual(['Port Aldor']);
    const report = await ok(alice, 'GET', '/reports/1');
    const sold = (report.sales as Array<{ product_id: number; units: number; revenue: number }>).filter((line) => line.product_id === bread.id);
    expect(Number(breadRows[0]!.units_sold)).toBe(sold.reduce((sum, line) => sum + line.units, 0));
    expect(Number(breadRows[0]!.revenue)).toBeCloseTo(
      sold.reduce((sum, line) => sum + line.revenue, 0),
      2,
    );
    expect(breadRows[0]!.stores).toBe('1');
    // This week's reference price in a city is the one GET /api/cities/{id}/market-data shows now (week 4's).
    const week3 = parseCsvGz(await download(3, 'city_retail'));
    expect(week3.every((row) => Number(row.reference_price) > 0)).toBe(true);
  });

  it('the Parquet file reads back (hyparquet) to the rows of the CSV, typed, with its units', async () => {
    for (const table of DATA_TABLES) {
      const csvRows = parseCsvGz(await download(2, table.name));
      const parquet = await download(2, table.name, 'parquet');
      const buffer = parquet.buffer.slice(parquet.byteOffset, parquet.byteOffset + parquet.byteLength) as ArrayBuffer;
      const objects = (await parquetReadObjects({ file: buffer })) as Array<Record<string, unknown>>;
      expect(objects).toHaveLength(csvRows.length);
      const asText = (value: unknown, type: string) =>
        value === null || value === undefined ? '' : type === 'dollars' ? (value as number).toFixed(2) : String(value);
      expect(objects.map((object) => Object.fromEntries(table.columns.map((column) => [column.name, asText(object[column.name], column.type)])))).toEqual(
        csvRows,
      );
      const metadata = parquetMetadata(buffer);
      const units = JSON.parse(metadata.key_value_metadata!.find((entry) => entry.key === 'marketcraft.units')!.value!);
      expect(units.week).toBe('week');
    }
  });

  it('answers a finished week as an immutable file: strong ETag, 304, byte ranges, HEAD', async () => {
    const whole = await file(alice, 'weeks/2/prices.parquet');
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('application/vnd.apache.parquet');
    expect(whole.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('ratelimit-remaining')).not.toBeNull();
    const etag = whole.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(bytes.subarray(0, 4).toString()).toBe('PAR1');

    const again = await file(alice, 'weeks/2/prices.parquet', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);

    const tail = await file(alice, 'weeks/2/prices.parquet', { range: 'bytes=-8' });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(`bytes ${bytes.length - 8}-${bytes.length - 1}/${bytes.length}`);
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(bytes.subarray(bytes.length - 8));
    const middle = await file(alice, 'weeks/2/prices.parquet', { range: 'bytes=4-11' });
    expect(Buffer.from(await middle.arrayBuffer())).toEqual(bytes.subarray(4, 12));
    const outside = await file(alice, 'weeks/2/prices.parquet', { range: `bytes=${bytes.length}-` });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${bytes.length}`);

    const head = await fetch(`${app.baseUrl}/api/data/worlds/${worldId}/weeks/2/prices.parquet`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));

    // The same bytes on every request: made once, kept.
    expect(Buffer.from(await (await file(bob, 'weeks/2/prices.parquet')).arrayBuffer())).toEqual(bytes);
  });

  it('refuses clearly: week not finished 404, unknown table or file 400, outsiders 404, no sign-in 401', async () => {
    const notFinished = await file(alice, 'weeks/4/prices.csv.gz');
    expect(notFinished.status).toBe(404);
    expect(await notFinished.json()).toEqual({ error: weekNotFinishedMessage(4, 4) });
    expect((await file(alice, 'weeks/99/prices.csv.gz')).status).toBe(404);

    const unknownTable = await file(alice, 'weeks/1/salaries.csv.gz');
    expect(unknownTable.status).toBe(400);
    expect(((await unknownTable.json()) as { error: string }).error).toBe(
      'Unknown table: salaries. The tables are prices, city_retail, leaderboard, companies, shares (manifest.json lists their columns)',
    );
    const unknownFormat = await file(alice, 'weeks/1/prices.json');
    expect(unknownFormat.status).toBe(400);
    expect(((await unknownFormat.json()) as { error: string }).error).toBe("Unknown file: a week's files are <table>.csv.gz and <table>.parquet");
    for (const week of ['0', 'abc', '2.5']) {
      const response = await file(alice, `weeks/${week}/prices.csv.gz`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBe('week must be a whole number, 1 or more');
    }

    const posted = await fetch(`${app.baseUrl}/api/data/worlds/${worldId}/weeks/1/prices.csv.gz`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD');

    const outsider = await app.createPlayer({ name: 'Data Outsider' });
    for (const path of ['weeks/1/prices.csv.gz', 'manifest.json']) {
      const response = await file(outsider, path);
      expect(response.status).toBe(404);
      expect(response.headers.get('cache-control')).toBeNull();
    }
    expect((await file(null, 'weeks/1/prices.csv.gz')).status).toBe(401);
    expect((await file(null, 'manifest.json')).status).toBe(401);
    // The teacher reads the class's data too.
    expect((await file(teacher, 'weeks/1/leaderboard.parquet')).status).toBe(200);
  });

  it('a manifest makes at most the newest MANIFEST_MAKES_WEEKS unmade weeks; their first file request makes the others', async () => {
    const db = app.database.db;
    const long = await createWorld(
      db,
      { id: teacher.userId, isAdmin: false },
      { name: 'Long season', turnIntervalMinutes: null, startingCashDollars: 100_000, bots: 0, seed: 26, maxPlayers: 30 },
    );
    for (let week = 1; week <= MANIFEST_MAKES_WEEKS + 2; week += 1) expect((await runTurn(db, { worldId: long.id })).status).toBe('advanced');
    const first = await ok(teacher, 'GET', `/data/worlds/${long.id}/manifest.json`);
    expect(first.weeks.map((week: { week: number; files: unknown[] }) => [week.week, week.files.length])).toEqual([
      [1, 0],
      [2, 0],
      [3, 10],
      [4, 10],
      [5, 10],
      [6, 10],
    ]);
    const made = await fetch(`${app.baseUrl}/api/data/worlds/${long.id}/weeks/1/prices.csv.gz`, { headers: { authorization: `Bearer ${teacher.token}` } });
    expect(made.status).toBe(200);
    const second = await ok(teacher, 'GET', `/data/worlds/${long.id}/manifest.json`);
    expect(second.weeks.map((week: { files: unknown[] }) => week.files.length)).toEqual([10, 10, 10, 10, 10, 10]);
    expect(second.weeks[0].files.find((entry: { table: string; format: string }) => entry.table === 'prices' && entry.format === 'csv.gz').sha256).toBe(
      made.headers.get('etag')!.replaceAll('"', ''),
    );
  });

  it("a personal token with the read scope reads a world it plays in; the public world's files are public", async () => {
    const { token } = await ok(alice, 'POST', '/tokens', { name: 'notebook', scope: 'read' });
    const manifest = await fetch(`${app.baseUrl}/api/data/worlds/${worldId}/manifest.json`, { headers: { authorization: `Bearer ${token}` } });
    expect(manifest.status).toBe(200);
    const publicWorld = await app.api('GET', `/data/worlds/${PUBLIC_WORLD_ID}/manifest.json`, { token });
    expect(publicWorld.status).toBe(200);
    expect(publicWorld.body.world_id).toBe(PUBLIC_WORLD_ID);
    await runTurn(app.database.db, { worldId: PUBLIC_WORLD_ID });
    const week = (await app.api('GET', `/data/worlds/${PUBLIC_WORLD_ID}/manifest.json`, { token })).body.weeks.at(-1).week;
    const response = await fetch(`${app.baseUrl}/api/data/worlds/${PUBLIC_WORLD_ID}/weeks/${week}/leaderboard.csv.gz`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});
