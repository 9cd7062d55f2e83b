/**
 * The instructor's CSV exports of a big world (docs/worlds.md, "CSV files"): the .csv download is
 * streamed from a database cursor (every row, in order, sent in pieces as they are read; an
 * abandoned download gives its connection back), and the JSON form, one string in one answer, is
 * bounded with a 422 that names the download. Refusals come before the first byte, as JSON, and
 * at most EXPORT_DOWNLOADS_AT_ONCE downloads hold a database connection at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { MAX_JSON_EXPORT_ROWS, jsonExportTooLargeMessage } from '@marketcraft/db';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';
import { EXPORT_BUSY_MESSAGE, EXPORT_DOWNLOADS_AT_ONCE } from '../src/worldExports.ts';

describe('world CSV exports of a big world', () => {
  let app: TestApp;
  let teacher: TestPlayer;
  let worldId: number;
  let ledgerRows: number;
  const EXPORT_QUERY_MARK = 'from transactions t join companies c';

  beforeAll(async () => {
    app = await startTestApp();
    teacher = await app.createPlayer({ name: 'Big Class Teacher' });
    const created = await app.api('POST', '/worlds', { token: teacher.token, body: { name: 'Big class', bots: 0 } });
    worldId = created.body.id;
    const student = await app.createPlayer({ name: 'Busy Student' });
    expect((await app.api('POST', '/worlds/join', { token: student.token, body: { code: created.body.join_code } })).status).toBe(200);
    // A season of trading: more ledger rows than the JSON form carries (written directly: speed).
    await app.database.db.execute(sql`
      insert into transactions (world_id, company_id, type, reason, amount_cents, description, week)
      select ${worldId}::int, c.id, 'purchase', 'market_buy', -(100 + n), 'Bought wheat, lot ' || n, 1 + n / 5000
      from companies c, generate_series(1, ${MAX_JSON_EXPORT_ROWS + 500}::int) as n
      where c.world_id = ${worldId}::int and c.user_id = ${student.userId}::int`);
    const [count] = await app.database.db.execute<{ n: number }>(sql`select count(*)::int as n from transactions where world_id = ${worldId}::int`);
    ledgerRows = count!.n;
  }, 120_000);
  afterAll(async () => {
    await app.close();
  });

  const download = (path: string, init: RequestInit = {}) =>
    fetch(`${app.baseUrl}/api/worlds/${worldId}/export/${path}`, { ...init, headers: { authorization: `Bearer ${teacher.token}` } });

  it('streams the .csv download: every row in order, sent in pieces without a content-length', async () => {
    const response = await download('transactions.csv');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="big-class-world-${worldId}-transactions.csv"`);
    // Built in memory, the answer had its length up front; streamed, it cannot.
    expect(response.headers.get('content-length')).toBeNull();
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let pieces = 0;
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      pieces += 1;
      text += decoder.decode(read.value, { stream: true });
    }
    expect(pieces).toBeGreaterThan(1);
    const lines = text.split('\r\n');
    expect(lines.pop()).toBe(''); // ends with a line break
    expect(lines[0]).toBe('id,week,company_id,company,type,reason,amount,description,created_at');
    expect(lines).toHaveLength(ledgerRows + 1);
    const ids = lines.slice(1).map((line) => Number(line.split(',')[0]));
    expect(ids.every((id, index) => index === 0 || id > ids[index - 1]!)).toBe(true);
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^\\d+,11,\\d+,[^,]+,purchase,market_buy,-${(100 + MAX_JSON_EXPORT_ROWS + 500) / 100}\\.00,"Bought wheat, lot ${MAX_JSON_EXPORT_ROWS + 500}",`,
      ),
    );
  });

  it('bounds the JSON form with a 422 that names the download; smaller exports answer as before', async () => {
    const big = await app.api('GET', `/worlds/${worldId}/export/transactions`, { token: teacher.token });
    expect(big).toMatchObject({ status: 422, body: { error: jsonExportTooLargeMessage(worldId, 'transactions') } });
    expect(big.body.error).toBe(`This export has more than 50,000 rows: download it as a file from /api/worlds/${worldId}/export/transactions.csv`);
    const prices = await app.api('GET', `/worlds/${worldId}/export/prices`, { token: teacher.token });
    expect(prices.status).toBe(200);
    expect(prices.body.filename).toBe(`big-class-world-${worldId}-prices.csv`);
    expect(prices.body.csv.split('\r\n')[0]).toBe('week,product_id,product,category,price');
  });

  it('refuses before the first byte, as JSON: outsiders 404, no sign-in 401, an unknown file 400', async () => {
    const outsider = await app.createPlayer({ name: 'Export Outsider' });
    const hidden = await fetch(`${app.baseUrl}/api/worlds/${worldId}/export/transactions.csv`, { headers: { authorization: `Bearer ${outsider.token}` } });
    expect(hidden.status).toBe(404);
    expect(hidden.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await fetch(`${app.baseUrl}/api/worlds/${worldId}/export/transactions.csv`)).status).toBe(401);
    const unknown = await download('ledger.csv');
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: string }).error).toContain('Export companies, transactions or prices');
  });

  it('a download abandoned halfway closes its cursor and gives the connection back', async () => {
    const openExports = async () => {
      const [row] = await app.database.db.execute<{ n: number }>(sql`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle' and query like ${`%${EXPORT_QUERY_MARK}%`}`);
      return row!.n;
    };
    const abort = new AbortController();
    const response = await download('transactions.csv', { signal: abort.signal });
    const reader = response.body!.getReader();
    await reader.read();
    abort.abort();
    await reader.cancel().catch(() => {});
    let open = await openExports();
    for (let waited = 0; open > 0 && waited < 100; waited += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      open = await openExports();
    }
    expect(open).toBe(0);
    // And the server goes on answering downloads.
    expect((await download('companies.csv')).status).toBe(200);
  });

  it(`runs at most ${EXPORT_DOWNLOADS_AT_ONCE} downloads at once (each holds a database connection): the next gets 429 until one ends`, async () => {
    const waitingExports = async () => {
      const [row] = await app.database.db.execute<{ n: number }>(sql`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query like ${`%${EXPORT_QUERY_MARK}%`}`);
      return row!.n;
    };
    // The ledger is locked, so every download that starts waits for it: they stay running.
    const release = (() => {
      let open: () => void = () => {};
      const held = new Promise<void>((resolve) => (open = resolve));
      const locked = app.database.db.transaction(async (tx) => {
        await tx.execute(sql`lock table transactions in access exclusive mode`);
        await held;
      });
      return async () => {
        open();
        await locked;
      };
    })();
    try {
      const running = Array.from({ length: EXPORT_DOWNLOADS_AT_ONCE }, () =>
        download('transactions.csv').then(async (response) => ({ status: response.status, text: await response.text() })),
      );
      for (let waited = 0; (await waitingExports()) < EXPORT_DOWNLOADS_AT_ONCE && waited < 200; waited += 1)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await waitingExports()).toBe(EXPORT_DOWNLOADS_AT_ONCE);
      const busy = await download('prices.csv');
      expect(busy.status).toBe(429);
      expect(busy.headers.get('retry-after')).toBe('60');
      expect(await busy.json()).toEqual({ error: EXPORT_BUSY_MESSAGE });
      await release();
      const finished = await Promise.all(running);
      expect(finished.map((answer) => answer.status)).toEqual(Array(EXPORT_DOWNLOADS_AT_ONCE).fill(200));
      expect(finished[0]!.text.split('\r\n')).toHaveLength(ledgerRows + 2);
    } finally {
      await release();
    }
    expect((await download('prices.csv')).status).toBe(200);
  });
});
