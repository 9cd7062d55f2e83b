/**
 * The lists with a row per company of the world are bounded and pageable (docs/api.md, "Lists of
 * companies"): GET /api/companies, /api/leaderboard, /api/shares, /api/company-shares,
 * /api/stock-prices and /api/stocks/overview. Over real HTTP on a world of 600+ companies (more than
 * one default answer holds): walking the pages meets every company exactly once in the documented
 * order, the headers and body say where a page is, the default bounds an answer, and limits out of
 * range answer 400 instead of being clamped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { stockPriceHistory, type Database } from '@marketcraft/db';
import { COMPANY_LIST_DEFAULT_LIMIT, COMPANY_LIST_MAX_LIMIT } from '@marketcraft/shared';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';

/** Bots added to the seeded world: with its own bots and the players, more than one default page. */
const EXTRA_BOTS = 600;

type Row = Record<string, unknown>;

/** The `rel="next"` target of a Link header, if any (relative to the server: "/api/companies?...") */
function nextLink(link: string | null): string | null {
  const match = /<([^>]+)>; rel="next"/.exec(link ?? '');
  return match ? match[1]! : null;
}

describe('lists of companies: bounded and pageable', () => {
  let app: TestApp;
  let db: Database;
  let player: TestPlayer;
  let companyCount: number;
  let listedCount: number;

  beforeAll(async () => {
    app = await startTestApp();
    db = app.database.db;
    player = await app.createPlayer({ name: 'Paging Player' });
    // Deterministic cash (net worth) with ties every 7 companies, so the id must break them; names that sort apart from ids.
    await db.execute(sql`
      with made as (
        insert into companies (world_id, name, cash_cents, starting_cash_cents, is_bot, strategy)
        select 1, 'Pager ' || lpad(((n * 37) % ${EXTRA_BOTS})::text, 4, '0') || case when n % 50 = 0 then ' 100%_off' else '' end,
               1000000 + (n % 7) * 1000, 1000000, true, 'value_investor'
        from generate_series(1, ${EXTRA_BOTS}) n
        returning id, cash_cents
      )
      insert into share_records (world_id, company_id, total_shares, share_price_cents, fundamental_cents)
      select 1, id, 100, 1000 + (id % 13) * 100, 1000 from made`);
    // No analyze: the planner still thinks the world is the seeded one, as in a live world that just
    // grew before autovacuum runs. The leaderboard values the world once all the same (it took 25 s a
    // request when the valuation was joined inline and re-run per company).
    const [companiesRow] = await db.execute<{ n: number }>(sql`select count(*)::int as n from companies where world_id = 1 and status = 'active'`);
    companyCount = Number(companiesRow!.n);
    const [listedRow] = await db.execute<{ n: number }>(sql`
      select count(*)::int as n from share_records s join companies c on c.id = s.company_id
      where s.world_id = 1 and s.is_listed and c.status = 'active'`);
    listedCount = Number(listedRow!.n);
    expect(companyCount).toBeGreaterThan(COMPANY_LIST_DEFAULT_LIMIT);
  }, 60_000);
  afterAll(async () => {
    await app.close();
  });

  /** Follows Link rel="next" from `path` and returns every row met, in order, with the headers of the first page. */
  async function walk(path: string, idOf: (row: Row) => number): Promise<{ ids: number[]; rows: Row[]; pages: number; total: number }> {
    const rows: Row[] = [];
    let next: string | null = path;
    let pages = 0;
    let total = -1;
    while (next) {
      const response = await app.api<Row[]>('GET', next.replace(/^\/api/, ''), { token: player.token });
      expect(response.status, next).toBe(200);
      expect(Array.isArray(response.body)).toBe(true);
      total = Number(response.headers.get('x-total-count'));
      rows.push(...response.body);
      next = nextLink(response.headers.get('link'));
      pages += 1;
      expect(pages).toBeLessThan(1000);
    }
    return { ids: rows.map(idOf), rows, pages, total };
  }

  it('GET /api/companies: the pages meet every active company once, richest first with ties by id, each with its rank', async () => {
    const { ids, rows, pages, total } = await walk('/companies?limit=97', (row) => row.id as number);
    expect(total).toBe(companyCount);
    expect(pages).toBe(Math.ceil(companyCount / 97));
    expect(ids).toHaveLength(companyCount);
    expect(new Set(ids).size).toBe(companyCount);
    // The documented order: net worth descending, then id ascending (the ties made above need the id).
    for (let index = 1; index < rows.length; index += 1) {
      const before = rows[index - 1]!;
      const row = rows[index]!;
      const ordered =
        (before.net_worth as number) > (row.net_worth as number) || (before.net_worth === row.net_worth && (before.id as number) < (row.id as number));
      expect(ordered, `${before.id} before ${row.id}`).toBe(true);
      expect(row.rank).toBe(index + 1);
    }
    // The same order as one big page.
    const whole = await app.api<Row[]>('GET', `/companies?limit=${COMPANY_LIST_MAX_LIMIT}`, { token: player.token });
    expect(whole.body.map((row) => row.id)).toEqual(ids);
  });

  it('an unpaged call keeps its shape and is bounded by the default, and the headers say there is more', async () => {
    const response = await app.api<Row[]>('GET', '/companies', { token: player.token });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(COMPANY_LIST_DEFAULT_LIMIT);
    expect(Number(response.headers.get('x-total-count'))).toBe(companyCount);
    const link = response.headers.get('link')!;
    expect(link).toContain(`</api/companies?limit=${COMPANY_LIST_DEFAULT_LIMIT}&offset=0>; rel="first"`);
    expect(link).toContain(`</api/companies?limit=${COMPANY_LIST_DEFAULT_LIMIT}&offset=${COMPANY_LIST_DEFAULT_LIMIT}>; rel="next"`);
    expect(link).not.toContain('rel="prev"');

    for (const path of ['/shares', '/company-shares', '/stock-prices']) {
      const list = await app.api<Row[]>('GET', path, { token: player.token });
      expect(list.body, path).toHaveLength(COMPANY_LIST_DEFAULT_LIMIT);
      expect(Number(list.headers.get('x-total-count')), path).toBe(listedCount);
    }
    const overview = await app.api<{ companies: Row[]; total: number; limit: number; offset: number; portfolio: unknown }>('GET', '/stocks/overview', {
      token: player.token,
    });
    expect(overview.body.companies).toHaveLength(COMPANY_LIST_DEFAULT_LIMIT);
    expect(overview.body).toMatchObject({ total: listedCount, limit: COMPANY_LIST_DEFAULT_LIMIT, offset: 0 });
    expect(overview.body.portfolio).toBeDefined();
  });

  it('the share lists page by name then id, the prices by biggest move, each company once', async () => {
    await db.insert(stockPriceHistory).values([
      { worldId: 1, companyId: player.companyId, week: 1, priceCents: 10_000 },
      { worldId: 1, companyId: player.companyId, week: 2, priceCents: 13_000 },
    ]);
    for (const path of ['/shares?limit=250', '/company-shares?limit=333']) {
      const { ids, rows, total } = await walk(path, (row) => row.company_id as number);
      expect(total).toBe(listedCount);
      expect(new Set(ids).size).toBe(listedCount);
      expect(ids).toHaveLength(listedCount);
      const byDatabase = await db.execute<{ id: number }>(sql`
        select c.id from share_records s join companies c on c.id = s.company_id
        where s.world_id = 1 and s.is_listed and c.status = 'active' order by c.name, c.id`);
      expect(ids).toEqual(byDatabase.map((row) => Number(row.id)));
      expect(rows[0]).toHaveProperty('book_value_per_share');
    }
    const prices = await walk('/stock-prices?limit=101', (row) => row.company_id as number);
    expect(new Set(prices.ids).size).toBe(listedCount);
    expect(prices.ids).toHaveLength(listedCount);
    // The player's company moved 30 %: the biggest mover leads.
    expect(prices.rows[0]).toMatchObject({ company_id: player.companyId, change_percent: 30, previous_price: 100 });
    const changes = prices.rows.map((row) => Math.abs(row.change_percent as number));
    expect(changes).toEqual([...changes].sort((a, b) => b - a));
  });

  it('GET /api/stocks/overview pages in each of its orders, each company once, with total, limit and offset in the body', async () => {
    for (const [sort, order] of [
      ['company_name', 'asc'],
      ['market_cap', 'desc'],
      ['share_price', 'asc'],
      ['change_percent', 'desc'],
    ] as const) {
      const ids: number[] = [];
      const rows: Row[] = [];
      for (let offset = 0; ; offset += 150) {
        const page = await app.api<{ companies: Row[]; total: number; limit: number; offset: number }>(
          'GET',
          `/stocks/overview?limit=150&offset=${offset}&sort=${sort}&order=${order}`,
          {
            token: player.token,
          },
        );
        expect(page.status).toBe(200);
        expect(page.body).toMatchObject({ total: listedCount, limit: 150, offset });
        if (page.body.companies.length === 0) break;
        rows.push(...page.body.companies);
        ids.push(...page.body.companies.map((row) => row.company_id as number));
      }
      expect(ids, sort).toHaveLength(listedCount);
      expect(new Set(ids).size, sort).toBe(listedCount);
      if (sort === 'market_cap') {
        const caps = rows.map((row) => row.market_cap as number);
        expect(caps).toEqual([...caps].sort((a, b) => b - a));
      }
      if (sort === 'share_price') {
        const prices = rows.map((row) => row.share_price as number);
        expect(prices).toEqual([...prices].sort((a, b) => a - b));
      }
      if (sort === 'change_percent') expect(rows[0]!.company_id).toBe(player.companyId);
    }
  });

  it('search and company_id narrow a list (the count follows); a search is plain text, never a pattern', async () => {
    const found = await app.api<Row[]>('GET', `/companies?search=${encodeURIComponent('100%_OFF')}`, { token: player.token });
    expect(found.status).toBe(200);
    expect(found.body.length).toBe(EXTRA_BOTS / 50);
    expect(found.body.every((row) => (row.name as string).endsWith(' 100%_off'))).toBe(true);
    expect(Number(found.headers.get('x-total-count'))).toBe(EXTRA_BOTS / 50);
    // The rank stays the company's place on the whole leaderboard.
    const all = await app.api<Row[]>('GET', `/companies?limit=${COMPANY_LIST_MAX_LIMIT}`, { token: player.token });
    for (const row of found.body) expect(row.rank).toBe(all.body.findIndex((candidate) => candidate.id === row.id) + 1);

    // As a LIKE pattern 'P_ger' would match every 'Pager'; as text it matches no name.
    const nothing = await app.api<Row[]>('GET', '/shares?search=P_ger', { token: player.token });
    expect(nothing.body).toEqual([]);
    expect(nothing.headers.get('x-total-count')).toBe('0');

    const one = await app.api<Row[]>('GET', `/company-shares?company_id=${player.companyId}`, { token: player.token });
    expect(one.body.map((row) => row.company_id)).toEqual([player.companyId]);
    const overview = await app.api<{ companies: Row[]; total: number }>('GET', `/stocks/overview?company_id=${player.companyId}`, { token: player.token });
    expect(overview.body.companies).toHaveLength(1);
    expect(overview.body.companies[0]).toMatchObject({ company_id: player.companyId, is_you: true });
    expect(overview.body.total).toBe(1);
  });

  it('GET /api/leaderboard: a page with its place in the list, and your company wherever it ranks', async () => {
    const all = await app.api<Row[]>('GET', `/companies?limit=${COMPANY_LIST_MAX_LIMIT}`, { token: player.token });
    const mine = all.body.find((row) => row.id === player.companyId)!;
    // A page far below the player's place.
    const offset = (mine.rank as number) + 100;
    const page = await app.api<{ companies: Row[]; total: number; limit: number; offset: number; you: Row | null }>(
      'GET',
      `/leaderboard?limit=10&offset=${offset}`,
      { token: player.token },
    );
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: companyCount, limit: 10, offset });
    expect(page.body.companies.map((row) => row.rank)).toEqual(Array.from({ length: 10 }, (_, index) => offset + 1 + index));
    expect(page.body.you).toMatchObject({ id: player.companyId, is_you: true, rank: mine.rank, net_worth: mine.net_worth, uses_api: false });
    expect(page.body.companies.some((row) => row.is_you)).toBe(false);
  });

  it('past the end: an empty page that still counts the list', async () => {
    const response = await app.api<Row[]>('GET', `/companies?offset=${companyCount + 5}&limit=10`, { token: player.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
    expect(Number(response.headers.get('x-total-count'))).toBe(companyCount);
    expect(response.headers.get('link')).toContain('rel="prev"');
    expect(response.headers.get('link')).not.toContain('rel="next"');
  });

  it("limits out of range, malformed numbers and the ledger's paging words answer 400 with a clear message (never clamped)", async () => {
    const cases: Array<[string, string]> = [
      ['/companies?limit=0', `limit must be a whole number from 1 to ${COMPANY_LIST_MAX_LIMIT}`],
      [`/companies?limit=${COMPANY_LIST_MAX_LIMIT + 1}`, `limit must be a whole number from 1 to ${COMPANY_LIST_MAX_LIMIT}`],
      ['/shares?limit=ten', `limit must be a whole number from 1 to ${COMPANY_LIST_MAX_LIMIT}`],
      ['/company-shares?limit=2.5', `limit must be a whole number from 1 to ${COMPANY_LIST_MAX_LIMIT}`],
      ['/stock-prices?offset=-1', 'offset must be a whole number, 0 or more'],
      ['/stocks/overview?limit=-3', `limit must be a whole number from 1 to ${COMPANY_LIST_MAX_LIMIT}`],
      ['/stocks/overview?sort=gain', 'sort must be one of: company_name, share_price, change_percent, market_cap'],
      ['/leaderboard?limit=5000', `limit must be a whole number from 1 to ${COMPANY_LIST_MAX_LIMIT}`],
      ['/companies?search=a%00b', 'search must not contain control characters'],
      ['/companies?page=2', 'This list pages with limit and offset (page and page_size are for GET /api/transactions)'],
      [`/companies?search=${'x'.repeat(81)}`, 'search must be 80 characters or less'],
    ];
    for (const [path, message] of cases) {
      const response = await app.api('GET', path, { token: player.token });
      expect(response.status, path).toBe(400);
      expect(response.body, path).toEqual({ error: message });
    }
  });

  it('the headers are readable by a script of another site (CORS)', async () => {
    const response = await app.api('GET', '/companies?limit=1', { token: player.token, headers: { origin: 'https://notebook.example' } });
    const exposed = (response.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    expect(exposed).toContain('x-total-count');
    expect(exposed).toContain('link');
  });
});
