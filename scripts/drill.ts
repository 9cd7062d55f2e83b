/**
 * `npm run drill -- [--url http://127.0.0.1:3000] [--admin-email a@b --admin-password ...] [--seconds 120] [--throttle]`
 *
 * Reliability and security drills against a RUNNING Marketcraft server, the way an attacker or a
 * crowd would use it, over HTTP on this machine only (loopback: the drill refuses any other host).
 * It signs up a few throwaway players (drill-*@drill.invalid), then:
 *
 * - money races: 40 concurrent market buys, stock buys, builds and oversized sells: no overdraft,
 *   every success accounted for in the company's cash to the cent;
 * - concurrent advances (with an admin account): rounds of 10 concurrent 'Advance Turn' presses,
 *   one week each, with the answer times;
 * - fuzz of every route of /api/openapi.json with invalid bodies, query values and path ids
 *   (control characters, wrong types, huge numbers): 4xx JSON, never 5xx;
 * - access: another player's building, admin routes, a cookie after sign-out, a cross-origin cookie
 *   mutation, oversized tRPC batches, security headers, /api/health;
 * - with --throttle: 20 concurrent wrong passwords (locks sign-in from this address for 10 minutes).
 *
 * It prints what it tried and what held, as a table, and exits 1 if anything did not hold. Bounded
 * in time (--seconds, default 120; every request times out after 15 s).
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.DRILL_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}` },
    'admin-email': { type: 'string', default: process.env.DRILL_ADMIN_EMAIL },
    'admin-password': { type: 'string', default: process.env.DRILL_ADMIN_PASSWORD },
    seconds: { type: 'string', default: '120' },
    throttle: { type: 'boolean', default: false },
  },
});

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const base = new URL(args.url!);
if (!LOOPBACK_HOSTS.has(base.hostname) && !base.hostname.startsWith('127.')) {
  process.stderr.write(`drill: ${base.hostname} is not this machine; the drill runs against loopback only (e.g. --url http://127.0.0.1:3000)\n`);
  process.exit(2);
}
const origin = base.origin;
const deadline = Date.now() + Number(args.seconds) * 1000;
const REQUEST_TIMEOUT_MS = 15_000;
/** An Advance Turn press answers when the turn commits: on a loaded machine that took 15-20 s; this only catches a hang. */
const TURN_PRESS_TIMEOUT_MS = 120_000;
const PASSWORD = `drill-${randomUUID()}`;
const CONCURRENCY = 40;

interface Answer {
  status: number;
  body: any;
  headers: Headers;
  ms: number;
}

interface Row {
  area: string;
  check: string;
  tried: string;
  held: boolean | null;
  notes: string;
}
const rows: Row[] = [];

function record(area: string, check: string, tried: string, held: boolean | null, notes = ''): void {
  rows.push({ area, check, tried, held, notes });
}

function timeLeft(): boolean {
  return Date.now() < deadline;
}

async function request(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const started = performance.now();
  try {
    const response = await fetch(new URL(path, origin), {
      method,
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS),
    });
    // A stream of events (GET /api/realtime) never ends: its status and headers are the answer.
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      await response.body?.cancel();
      return { status: response.status, body: null, headers: response.headers, ms: performance.now() - started };
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON
    }
    return { status: response.status, body: parsed, headers: response.headers, ms: performance.now() - started };
  } catch (error) {
    return { status: 0, body: { error: error instanceof Error ? error.message : String(error) }, headers: new Headers(), ms: performance.now() - started };
  }
}

function countStatuses(answers: Answer[]): string {
  const counts = new Map<number, number>();
  for (const answer of answers) counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${count}x${status}`)
    .join(' ');
}

const cents = (dollars: number) => Math.round(dollars * 100);

interface Player {
  email: string;
  token: string;
  companyId: number;
}

async function signUp(label: string): Promise<Player> {
  const email = `drill-${label}-${randomUUID().slice(0, 8)}@drill.invalid`;
  const answer = await request('POST', '/api/auth/signup', { body: { email, password: PASSWORD }, headers: { origin } });
  if (answer.status !== 200) throw new Error(`sign-up of ${email} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  const company = await request('GET', '/api/company', { token: answer.body.token });
  return { email, token: answer.body.token, companyId: company.body.id };
}

async function cashOf(player: Player): Promise<number> {
  const answer = await request('GET', '/api/company', { token: player.token });
  return cents(answer.body.cash);
}

// ---------------------------------------------------------------------------------------------
// Access, headers, limits

async function drillBasics(a: Player, b: Player): Promise<void> {
  const health = await request('GET', '/api/health');
  record('health', 'GET /api/health answers ok', '1 request', health.status === 200 && health.body?.ok === true, JSON.stringify(health.body));

  const page = await request('GET', '/');
  const api = await request('GET', '/api/world');
  const headersHeld = [page, api].every(
    (answer) =>
      (answer.headers.get('content-security-policy') ?? '').includes("frame-ancestors 'none'") &&
      answer.headers.get('x-content-type-options') === 'nosniff' &&
      answer.headers.get('x-frame-options') !== null &&
      answer.headers.get('referrer-policy') !== null,
  );
  record('access', 'security headers on HTML and API answers', 'GET /, GET /api/world', headersHeld, 'CSP, nosniff, X-Frame-Options, Referrer-Policy');

  // B's building, reached by A.
  const cities = await request('GET', '/api/cities', { token: b.token });
  const cityId = cities.body?.[0]?.id;
  const built = await request('POST', '/api/buildings', { token: b.token, body: { type: 'farm', city_id: cityId } });
  if (built.status === 200) {
    const id = built.body.id;
    const attempts = await Promise.all([
      request('GET', `/api/buildings/${id}`, { token: a.token }),
      request('GET', `/api/buildings/${id}/inventory`, { token: a.token }),
      request('POST', `/api/buildings/${id}/hire-employees`, { token: a.token, body: { count: 1 } }),
      request('PUT', `/api/buildings/${id}/production-rate`, { token: a.token, body: { new_rate: 150 } }),
      request('POST', `/api/buildings/${id}/sell`, { token: a.token, body: {} }),
    ]);
    const after = await request('GET', `/api/buildings/${id}`, { token: b.token });
    const held = attempts.every((answer) => answer.status === 404 || answer.status === 403) && after.status === 200;
    record('access', "another player's building is not found", '5 reads and actions on it', held, countStatuses(attempts));
  } else {
    record('access', "another player's building is not found", 'build failed', null, `POST /api/buildings ${built.status}`);
  }

  const adminAsPlayer = await Promise.all(['/api/admin/world-state', '/api/admin/check?x=1'].map((path) => request('GET', path, { token: a.token })));
  const adminAnonymous = await request('GET', '/api/admin/world-state');
  const advanceAsPlayer = await request('POST', '/api/admin/advance-turn', { token: a.token });
  record(
    'access',
    'admin routes refuse players (403) and visitors (401)',
    '4 requests',
    adminAsPlayer[0]!.status === 403 && advanceAsPlayer.status === 403 && adminAnonymous.status === 401,
    `player ${adminAsPlayer[0]!.status}/${advanceAsPlayer.status}, visitor ${adminAnonymous.status}`,
  );

  // A cookie session: cross-origin mutation, then sign-out.
  const signin = await fetch(new URL('/api/auth/signin', origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email: a.email, password: PASSWORD }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const cookie = (signin.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const crossSite = await request('PATCH', '/api/company/profile', { body: { name: 'Cross Site Co' }, headers: { cookie, origin: 'https://evil.example' } });
  record(
    'access',
    'a cookie mutation from another origin is refused',
    'PATCH /api/company/profile, Origin evil.example',
    crossSite.status === 403,
    String(crossSite.status),
  );
  const signout = await request('POST', '/api/auth/signout', { headers: { cookie, origin } });
  const afterSignout = await request('GET', '/api/company', { headers: { cookie } });
  record(
    'access',
    'a cookie no longer works after sign-out',
    'sign in, sign out, reuse the cookie',
    signout.status === 200 && afterSignout.status === 401,
    `sign-out ${signout.status}, then ${afterSignout.status}`,
  );

  const batch = await request('GET', `/api/trpc/${Array.from({ length: 600 }, () => 'world.state').join(',')}?batch=1&input=%7B%7D`);
  record(
    'limits',
    'a tRPC batch of 600 calls is refused',
    '1 request',
    batch.status >= 400 && batch.status < 500,
    `${batch.status} ${JSON.stringify(batch.body).slice(0, 80)}`,
  );

  const nul = await request('PATCH', '/api/company/profile', { token: a.token, body: { name: 'a\u0000b', bio: 'x\u001b[2J' } });
  record(
    'limits',
    'NUL and control characters in text are refused (400)',
    'PATCH /api/company/profile',
    nul.status === 400,
    `${nul.status} ${JSON.stringify(nul.body)}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Money races

/** Runs `count` copies of `attempt` at once; checks cash never went negative and moved by exactly the successes. */
async function race(player: Player, check: string, count: number, attempt: () => Promise<Answer>, costOf: (answer: Answer) => number): Promise<void> {
  if (!timeLeft()) return record('money', check, 'skipped: out of time', null);
  const before = await cashOf(player);
  const answers = await Promise.all(Array.from({ length: count }, attempt));
  const after = await cashOf(player);
  const successes = answers.filter((answer) => answer.status === 200);
  const moved = successes.reduce((sum, answer) => sum + costOf(answer), 0);
  const serverErrors = answers.filter((answer) => answer.status >= 500 || answer.status === 0).length;
  const held = after >= 0 && before - after === moved && serverErrors === 0 && successes.length > 0;
  record(
    'money',
    check,
    `${count} concurrent`,
    held,
    `${countStatuses(answers)}; cash ${(before / 100).toFixed(2)} -> ${(after / 100).toFixed(2)}, successes account for ${(moved / 100).toFixed(2)}`,
  );
}

/** Each race uses a fresh player: a session's rate limit (mutations a minute) would otherwise answer 429 before the race. */
async function drillMoney(): Promise<void> {
  let buyer = await signUp('market');
  const cash = await cashOf(buyer);
  const goods = await request('GET', '/api/goods', { token: buyer.token });
  const product = (goods.body as Array<{ id: number; name: string; buy_price: number }>).slice().sort((x, y) => y.buy_price - x.buy_price)[0]!;
  // Each buy costs about a tenth of the cash: 40 at once must not all pass.
  const quantity = Math.max(1, Math.floor(cash / 10 / cents(product.buy_price)));
  await race(
    buyer,
    `market buys worth 4x the cash (${product.name})`,
    CONCURRENCY,
    () => request('POST', '/api/market/trade', { token: buyer.token, body: { product_id: product.id, quantity, action: 'buy' } }),
    (answer) => cents(answer.body.total),
  );

  const inventory = await request('GET', '/api/inventory', { token: buyer.token });
  const held =
    (inventory.body as Array<{ product_id?: number; id?: number; quantity: number }>).find((item) => (item.product_id ?? item.id) === product.id)?.quantity ??
    0;
  if (held > 0) {
    const sellQuantity = Math.max(1, Math.ceil(held / 8));
    const answers = await Promise.all(
      Array.from({ length: CONCURRENCY }, () =>
        request('POST', '/api/market/trade', { token: buyer.token, body: { product_id: product.id, quantity: sellQuantity, action: 'sell' } }),
      ),
    );
    const sold = answers.filter((answer) => answer.status === 200).length * sellQuantity;
    const left =
      ((await request('GET', '/api/inventory', { token: buyer.token })).body as Array<{ product_id?: number; id?: number; quantity: number }>).find(
        (item) => (item.product_id ?? item.id) === product.id,
      )?.quantity ?? 0;
    record(
      'money',
      'market sells worth 5x the goods held',
      `${CONCURRENCY} concurrent`,
      sold <= held && left === held - sold && answers.every((answer) => answer.status < 500 && answer.status > 0),
      `${countStatuses(answers)}; held ${held}, sold ${sold}, left ${left}`,
    );
  }

  buyer = await signUp('stocks');
  const companies = await request('GET', '/api/companies', { token: buyer.token });
  const bot = (companies.body as Array<{ id: number; is_bot: boolean; share_price: number; name: string }>).find((company) => company.is_bot);
  if (bot) {
    const shares = Math.max(1, Math.floor((await cashOf(buyer)) / 10 / cents(bot.share_price)));
    await race(
      buyer,
      `stock buys worth 4x the cash (${bot.name})`,
      CONCURRENCY,
      () => request('POST', '/api/stocks/trade', { token: buyer.token, body: { company_id: bot.id, shares, action: 'buy' } }),
      (answer) => cents(answer.body.total),
    );
    const ownedOf = async () =>
      ((await request('GET', '/api/portfolio', { token: buyer.token })).body as Array<{ company_id: number; shares_owned: number }>).find(
        (entry) => entry.company_id === bot.id,
      )?.shares_owned ?? 0;
    buyer = {
      ...buyer,
      token: (await request('POST', '/api/auth/signin', { body: { email: buyer.email, password: PASSWORD }, headers: { origin } })).body.token,
    };
    const owned = await ownedOf();
    // Each sell is a quarter of the holding: 40 at once must not sell more than it.
    const sellShares = Math.max(1, Math.ceil(owned / 4));
    const sells = await Promise.all(
      Array.from({ length: CONCURRENCY }, () =>
        request('POST', '/api/stocks/trade', { token: buyer.token, body: { company_id: bot.id, shares: sellShares, action: 'sell' } }),
      ),
    );
    const soldShares = sells.filter((answer) => answer.status === 200).length * sellShares;
    const left = await ownedOf();
    record(
      'money',
      'share sells of 10x the shares held',
      `${CONCURRENCY} concurrent`,
      sells.every((answer) => answer.status < 500 && answer.status > 0) && soldShares <= owned && left === owned - soldShares,
      `${countStatuses(sells)}; held ${owned}, sold ${soldShares}, left ${left}`,
    );
  }

  buyer = await signUp('builds');
  const cities = await request('GET', '/api/cities', { token: buyer.token });
  const cityId = cities.body?.[0]?.id;
  const before = await cashOf(buyer);
  const builds = await Promise.all(
    Array.from({ length: CONCURRENCY }, () => request('POST', '/api/buildings', { token: buyer.token, body: { type: 'factory', city_id: cityId } })),
  );
  const after = await cashOf(buyer);
  const built = builds.filter((answer) => answer.status === 200).length;
  const perBuild = built > 0 ? (before - after) / built : 0;
  record(
    'money',
    'builds worth more than the cash',
    `${CONCURRENCY} concurrent`,
    after >= 0 &&
      (built === 0 ? before === after : Number.isInteger(perBuild) && perBuild > 0) &&
      builds.every((answer) => answer.status < 500 && answer.status > 0),
    `${countStatuses(builds)}; cash ${(before / 100).toFixed(2)} -> ${(after / 100).toFixed(2)}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Concurrent advances

async function drillAdvances(): Promise<void> {
  const email = args['admin-email'];
  const password = args['admin-password'];
  if (!email || !password) return record('turns', 'concurrent Advance Turn presses', 'skipped: no --admin-email/--admin-password', null);
  const signin = await request('POST', '/api/auth/signin', { body: { email, password }, headers: { origin } });
  if (signin.status !== 200)
    return record('turns', 'concurrent Advance Turn presses', 'admin sign-in failed', false, `${signin.status} ${JSON.stringify(signin.body)}`);
  const token = signin.body.token as string;
  for (let round = 1; round <= 3 && timeLeft(); round += 1) {
    const before = (await request('GET', '/api/world')).body.current_week as number;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => request('POST', '/api/admin/advance-turn', { token, timeoutMs: TURN_PRESS_TIMEOUT_MS })),
    );
    const after = (await request('GET', '/api/world')).body.current_week as number;
    const slowest = Math.max(...answers.map((answer) => answer.ms));
    const held = after === before + 1 && answers.every((answer) => answer.status === 200 && answer.body.current_week === before + 1);
    record(
      'turns',
      `round ${round}: 10 concurrent Advance Turn presses advance one week`,
      '10 concurrent',
      held,
      `${countStatuses(answers)}; week ${before} -> ${after}; slowest answer ${Math.round(slowest)} ms`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Fuzz of every OpenAPI route

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
}

const NOT_FUZZED = new Set(['/auth/signout', '/auth/signin', '/auth/signup', '/auth/google', '/auth/google/callback']);
const BAD_VALUES: unknown[] = ['a\u0000b', '\u001b[2J', -1, 0, 1.5, 1e20, 'abc', '', true, null, [1, 2], { nested: {} }, 'x'.repeat(5000)];
const BAD_IDS = ['abc', '-1', '0', '1.5', '99999999999', '%00'];

/** A fresh player every FUZZ_REQUESTS_PER_PLAYER requests, so the rate limits answer none of them. */
const FUZZ_REQUESTS_PER_PLAYER = 100;
/**
 * The players' blocks of requests run side by side on this many lanes: the fuzz's requests wait on
 * the server, not on each other (one after another, 2,400 of them ran into the drill's time limit
 * on a loaded machine). A player's own requests still go one at a time, in the routes' order.
 */
const FUZZ_LANES = 4;

interface FuzzAttempt {
  route: string;
  verb: string;
  url: string;
  body?: unknown;
}

async function drillFuzz(): Promise<void> {
  const document = await request('GET', '/api/openapi.json');
  const paths = Object.entries(
    (document.body?.paths ?? {}) as Record<
      string,
      Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> }; parameters?: Array<{ name: string; in: string }> }>
    >,
  );
  const attempts: FuzzAttempt[] = [];
  for (const [path, operations] of paths) {
    if (NOT_FUZZED.has(path)) continue;
    for (const [method, operation] of Object.entries(operations)) {
      const verb = method.toUpperCase();
      const route = `${verb} ${path}`;
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      const fields = [
        ...Object.keys(schema?.properties ?? {}),
        ...(operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
      ];
      const hasIds = /\{\w+\}/.test(path);
      const forRoute: FuzzAttempt[] = [];
      const add = (url: string, body?: unknown) => forRoute.push({ route, verb, url, body });
      const withIds = (id: string) => `/api${path.replace(/\{\w+\}/g, id)}`;
      for (const field of fields) {
        for (const bad of BAD_VALUES) {
          if (verb === 'GET' || verb === 'DELETE') {
            if (typeof bad === 'object' && bad !== null) continue;
            add(`${withIds('1')}?${new URLSearchParams({ [field]: String(bad) })}`);
          } else {
            add(withIds('1'), { [field]: bad });
          }
        }
      }
      if (verb !== 'GET' && verb !== 'DELETE') for (const raw of ['{"unterminated": ', '[1,2]', '"text"', 'null']) add(withIds('1'), raw);
      if (hasIds) for (const id of BAD_IDS) add(withIds(id), verb === 'GET' || verb === 'DELETE' ? undefined : {});
      if (path === '/admin/advance-turn' || forRoute.length === 0) add(withIds('1'));
      attempts.push(...forRoute);
    }
  }
  const blocks: FuzzAttempt[][] = [];
  for (let at = 0; at < attempts.length; at += FUZZ_REQUESTS_PER_PLAYER) blocks.push(attempts.slice(at, at + FUZZ_REQUESTS_PER_PLAYER));
  let tried = 0;
  let rateLimited = 0;
  const routes = new Set<string>();
  const failures: string[] = [];
  let nextBlock = 0;
  const lane = async () => {
    while (nextBlock < blocks.length && timeLeft()) {
      const block = blocks[nextBlock++]!;
      const player = await signUp('fuzz');
      for (const attempt of block) {
        const answer = await request(attempt.verb, attempt.url, { token: player.token, body: attempt.body });
        tried += 1;
        routes.add(attempt.route);
        if (answer.status === 429) rateLimited += 1;
        const jsonError = answer.status < 400 || typeof answer.body?.error === 'string' || typeof answer.body?.error?.message === 'string';
        if (answer.status >= 500 || answer.status === 0 || !jsonError)
          failures.push(`${attempt.route.split(' ')[0]} ${attempt.url.slice(0, 80)} ${JSON.stringify(attempt.body)?.slice(0, 60) ?? ''} -> ${answer.status}`);
      }
    }
  };
  await Promise.all(Array.from({ length: FUZZ_LANES }, lane));
  record(
    'fuzz',
    'every OpenAPI route: invalid input answers 4xx JSON, never 5xx',
    `${tried} requests on ${routes.size} routes`,
    failures.length === 0,
    failures.length ? failures.slice(0, 3).join('; ') : `${rateLimited} of them rate limited`,
  );
}

async function drillThrottle(): Promise<void> {
  if (!args.throttle)
    return record(
      'access',
      'sign-in throttle under 20 concurrent wrong passwords',
      'skipped: --throttle not given (it locks sign-in from this address for 10 minutes)',
      null,
    );
  const victim = await signUp('throttle');
  const answers = await Promise.all(
    Array.from({ length: 20 }, () => request('POST', '/api/auth/signin', { body: { email: victim.email, password: 'wrong password' }, headers: { origin } })),
  );
  const limited = answers.filter((answer) => answer.status === 429);
  record(
    'access',
    'sign-in throttle under 20 concurrent wrong passwords',
    '20 concurrent',
    answers.filter((answer) => answer.status === 401).length <= 10 &&
      limited.length >= 10 &&
      limited.every((answer) => Number(answer.headers.get('retry-after')) > 0),
    countStatuses(answers),
  );
}

// ---------------------------------------------------------------------------------------------

function printTable(): void {
  const header: Row = { area: 'area', check: 'check', tried: 'tried', held: null, notes: 'notes' };
  const cells = (row: Row) => [row.area, row.check, row.tried, row === header ? 'held' : row.held === null ? 'skipped' : row.held ? 'yes' : 'NO', row.notes];
  const all = [header, ...rows].map(cells);
  const widths = all[0]!.map((_, column) => Math.min(column === 4 ? 90 : 70, Math.max(...all.map((cellsOfRow) => cellsOfRow[column]!.length))));
  const line = (values: string[]) =>
    values.map((value, column) => (value.length > widths[column]! ? value.slice(0, widths[column]! - 1) + '…' : value.padEnd(widths[column]!))).join(' | ');
  process.stdout.write(`${line(all[0]!)}\n${widths.map((width) => '-'.repeat(width)).join('-|-')}\n`);
  for (const values of all.slice(1)) process.stdout.write(`${line(values)}\n`);
}

const started = Date.now();
process.stdout.write(`drill against ${origin} (loopback), at most ${args.seconds} s\n`);
try {
  const [a, b] = [await signUp('a'), await signUp('b')];
  await drillBasics(a, b);
  await drillMoney();
  await drillAdvances();
  await drillFuzz();
  await drillThrottle();
} catch (error) {
  record('drill', 'the drill itself ran', 'setup', false, error instanceof Error ? error.message : String(error));
}
printTable();
const failed = rows.filter((row) => row.held === false).length;
process.stdout.write(
  `\n${rows.length} checks, ${rows.filter((row) => row.held).length} held, ${failed} did not, ${rows.filter((row) => row.held === null).length} skipped, in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
);
process.exit(failed > 0 ? 1 : 0);
