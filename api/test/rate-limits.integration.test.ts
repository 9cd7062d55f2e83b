/**
 * Rate limits (docs/api.md): per personal access token 120 calls and 30 mutations a minute, per
 * session 600 and 120; RateLimit headers on every answer, 429 with Retry-After over the budget;
 * the counters live in PostgreSQL, so two API server processes on one database share them.
 * The window is the database's clock minute. The test database's clock stands still (frozenClock),
 * so a burst counts in one minute wherever in a minute it starts and however slow the machine is.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProductionWorld, type ProductionWorld } from './helpers/productionFixtures.ts';
import { startTestApp, type ApiResponse, type TestApp, type TestPlayer } from './helpers/testApp.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');

describe('rate limits', () => {
  let app: TestApp;
  let world: ProductionWorld;
  beforeAll(async () => {
    app = await startTestApp({ frozenClock: true });
    world = await createProductionWorld(app.database.db);
  });
  afterAll(async () => {
    await app.close();
  });

  async function tokenOf(player: TestPlayer, scope: 'read' | 'trade' | 'manage'): Promise<string> {
    const created = await app.api('POST', '/tokens', { token: player.token, body: { name: `${scope} bot`, scope } });
    expect(created.status).toBe(200);
    return created.body.token;
  }

  const header = (response: ApiResponse, name: string) => response.headers.get(name);

  it('gives a token 120 calls a minute, counting down in the headers, then 429 with Retry-After', async () => {
    const player = await app.createPlayer();
    const token = await tokenOf(player, 'read');
    const remaining: number[] = [];
    for (let i = 0; i < 120; i += 1) {
      const response = await app.api('GET', '/goods', { token });
      expect(response.status).toBe(200);
      expect(header(response, 'ratelimit-limit')).toBe('120');
      remaining.push(Number(header(response, 'ratelimit-remaining')));
    }
    expect(remaining).toEqual(Array.from({ length: 120 }, (_, i) => 119 - i));
    const refused = await app.api('GET', '/goods', { token });
    expect(refused.status).toBe(429);
    // The database's clock stands at 5 s into its minute: the window ends in 55 s.
    const retryAfter = Number(header(refused, 'retry-after'));
    expect(retryAfter).toBe(55);
    expect(header(refused, 'ratelimit-remaining')).toBe('0');
    expect(header(refused, 'ratelimit-reset')).toBe(String(retryAfter));
    expect(header(refused, 'ratelimit-policy')).toBe('"requests";q=120;w=60, "mutations";q=30;w=60');
    expect(refused.body).toEqual({
      error: `Rate limit reached: this API token may make 120 requests a minute. Try again in ${retryAfter} s (see the Retry-After and RateLimit headers).`,
    });
    // Another token of the same player, and the player's session, have budgets of their own.
    expect((await app.api('GET', '/goods', { token: await tokenOf(player, 'read') })).status).toBe(200);
    expect((await app.api('GET', '/goods', { token: player.token })).status).toBe(200);
    // The audit counts the refused call too.
    const listed = (await app.api('GET', '/tokens', { token: player.token })).body.tokens as { requests_today: number }[];
    expect(listed.map((each) => each.requests_today).sort((a, b) => a - b)).toEqual([1, 121]);
  });

  it('gives a token 30 mutations a minute; its reads go on', async () => {
    const player = await app.createPlayer({ cash: 1_000_000 });
    const token = await tokenOf(player, 'trade');
    const buy = { product_id: world.wheat.id, quantity: 1, action: 'buy' };
    for (let i = 0; i < 30; i += 1) {
      const response = await app.api('POST', '/market/trade', { token, body: buy });
      expect(response.status).toBe(200);
      expect(header(response, 'ratelimit-limit')).toBe('30');
      expect(header(response, 'ratelimit-remaining')).toBe(String(29 - i));
    }
    const refused = await app.api('POST', '/market/trade', { token, body: buy });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toContain('30 actions (mutations) a minute');
    expect(Number(header(refused, 'retry-after'))).toBeGreaterThan(0);
    expect(header(refused, 'ratelimit')).toMatch(/^"requests";r=89;t=\d+, "mutations";r=0;t=\d+$/);
    // Nothing was bought by the refused call: 30 units held.
    const inventory = await app.api('GET', '/inventory', { token });
    expect(inventory.status).toBe(200);
    expect(inventory.body.find((item: { product_id: number }) => item.product_id === world.wheat.id).quantity).toBe(30);
    expect(header(inventory, 'ratelimit-limit')).toBe('120');
  });

  it('gives a session 600 calls and 120 mutations a minute, tRPC batches counting each call', async () => {
    const player = await app.createPlayer({ cash: 1_000_000 });
    // The calls within the budget go 8 at a time (each is counted by one atomic upsert, so the order
    // does not matter): one after the other, 600 calls took over 60 s on a busy machine.
    const inBatches = async (count: number, call: () => Promise<ApiResponse>) => {
      const statuses: number[] = [];
      for (let sent = 0; sent < count; sent += 8) {
        const batch = await Promise.all(Array.from({ length: Math.min(8, count - sent) }, call));
        statuses.push(...batch.map((response) => response.status));
      }
      return statuses;
    };
    const buy = () => app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.wheat.id, quantity: 1, action: 'buy' } });
    expect(await inBatches(119, buy)).toEqual(Array(119).fill(200));
    // A guessed token (the session's id with a wrong secret) is refused and spends none of its budget.
    const [sessionId] = player.token.split('.') as [string, string];
    const guessed = await app.api('GET', '/company', { token: `${sessionId}.${'A'.repeat(32)}` });
    expect(guessed.status).toBe(401);
    // A tRPC batch of 3 reads counts 3.
    const batch = await fetch(`${app.baseUrl}/api/trpc/company.get,catalog.goods,world.state?batch=1&input=${encodeURIComponent('{}')}`, {
      headers: { authorization: `Bearer ${player.token}` },
    });
    expect(batch.status).toBe(200);
    expect(batch.headers.get('ratelimit-remaining')).toBe(String(600 - 122));
    expect((await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.wheat.id, quantity: 1, action: 'buy' } })).status).toBe(
      200,
    );
    const overMutations = await app.api('POST', '/market/trade', { token: player.token, body: { product_id: world.wheat.id, quantity: 1, action: 'buy' } });
    expect(overMutations.status).toBe(429);
    expect(overMutations.body.error).toContain('this session may make 120 actions (mutations) a minute');
    // 124 calls so far; reads go on up to 600, errors included (a 404 still counts and says so).
    const missing = await app.api('GET', '/buildings/999999', { token: player.token });
    expect(missing.status).toBe(404);
    expect(header(missing, 'ratelimit-remaining')).toBe(String(600 - 125));
    expect(await inBatches(600 - 125, () => app.api('GET', '/world', { token: player.token }))).toEqual(Array(600 - 125).fill(200));
    const overRequests = await app.api('GET', '/world', { token: player.token });
    expect(overRequests.status).toBe(429);
    expect(Number(header(overRequests, 'retry-after'))).toBeGreaterThan(0);
    // Anonymous reads of the public world are not counted.
    expect((await app.api('GET', '/world')).status).toBe(200);
  });

  // Two Node processes load the whole API: 3 s on an idle machine, 30-50 s on one shared by other test runs.
  it('shares one budget between two API server processes on the same database', { timeout: 180_000 }, async ({ signal }) => {
    const player = await app.createPlayer();
    const token = await tokenOf(player, 'read');
    const servers = await Promise.all([startApiProcess(app.database.url, signal), startApiProcess(app.database.url, signal)]);
    try {
      const answers: { server: number; status: number; remaining: string | null }[] = [];
      for (let i = 0; i < 12; i += 1) {
        const server = servers[i % 2]!;
        const response = await fetch(`${server.baseUrl}/api/company`, { headers: { authorization: `Bearer ${token}` } });
        answers.push({ server: i % 2, status: response.status, remaining: response.headers.get('ratelimit-remaining') });
      }
      // RATE_LIMIT_TOKEN_REQUESTS=10 on both: the 11th call overall is refused, whichever server gets it.
      expect(answers.map((answer) => answer.status)).toEqual([...Array(10).fill(200), 429, 429]);
      expect(answers.slice(0, 10).map((answer) => answer.remaining)).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
      expect(new Set(answers.slice(0, 10).map((answer) => answer.server))).toEqual(new Set([0, 1]));
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The API the production way (`node api/src/main.ts`), as a separate process with a small token budget. */
async function startApiProcess(databaseUrl: string, signal: AbortSignal): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [path.join(repoRoot, 'api/src/main.ts')], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'test', RATE_LIMIT_TOKEN_REQUESTS: '10' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  // Until it answers or exits: loading the API's modules takes a few seconds on an idle machine and
  // 30 s or more when the machine is busy, so the test's own timeout is the only limit (its signal stops the process).
  signal.addEventListener('abort', () => void stop(), { once: true });
  for (;;) {
    if (signal.aborted) throw new Error(`the API process did not answer before the test's timeout: ${output}`);
    if (child.exitCode !== null) throw new Error(`the API process exited (${child.exitCode}): ${output}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return { baseUrl, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
