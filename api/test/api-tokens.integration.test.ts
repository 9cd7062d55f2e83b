/**
 * Personal access tokens (issue 12, docs/api.md): created on the profile's routes with a session,
 * shown once and stored as a hash; `Authorization: Bearer` works on every REST route within the
 * token's scope (and over tRPC), never on session-only routes; malformed, unknown, revoked,
 * expired and out-of-scope tokens each get their own error; a token in a URL is refused; at most
 * 10 active tokens; the daily audit, the admins' busiest tokens and the leaderboard's API badge.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { sha256 } from '@oslojs/crypto/sha2';
import { apiTokens, apiTokenUsage } from '@marketcraft/db';
import { API_TOKEN_SCOPES, MAX_ACTIVE_API_TOKENS, scopeCovers, type ApiTokenScope } from '@marketcraft/shared';
import { restRoutes } from '../src/rest.ts';
import { buildOpenApiDocument } from '../src/openapi.ts';
import { SESSION_ONLY_MESSAGE } from '../src/access/guard.ts';
import { pruneApiAccessRows } from '../src/access/audit.ts';
import { TOKEN_IN_URL_MESSAGE } from '../src/access/credentials.ts';
import { TOKEN_MESSAGES, TOO_MANY_TOKENS_MESSAGE } from '../src/access/personalTokens.ts';
import { createProductionWorld, type ProductionWorld } from './helpers/productionFixtures.ts';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';

describe('personal access tokens', () => {
  let app: TestApp;
  let world: ProductionWorld;
  beforeAll(async () => {
    app = await startTestApp();
    world = await createProductionWorld(app.database.db);
  });
  afterAll(async () => {
    await app.close();
  });

  async function createToken(player: TestPlayer, scope: ApiTokenScope, extra: { name?: string; expires_in_days?: number | null } = {}) {
    const created = await app.api('POST', '/tokens', {
      token: player.token,
      body: { name: extra.name ?? `${scope} bot`, scope, expires_in_days: extra.expires_in_days },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body as { id: number; token: string; scope: ApiTokenScope; prefix: string; expires_at: string | null };
  }

  it('is shown once, stored only as a hash, and reads the company with Authorization: Bearer', async () => {
    const player = await app.createPlayer({ name: 'Scripted Inc' });
    const created = await createToken(player, 'read', { name: 'Spreadsheet', expires_in_days: 30 });
    expect(created.token).toMatch(/^mc_pat_[a-z2-9]{16}_[a-z2-9]{32}$/);
    expect(created.prefix).toBe(`${created.token.slice(0, 11)}…`);
    expect(Date.parse(created.expires_at!) - Date.now()).toBeGreaterThan(29.9 * 24 * 3600 * 1000);

    const [row] = await app.database.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    const secret = created.token.split('_')[3]!;
    expect(Buffer.from(row!.secretHash)).toEqual(Buffer.from(sha256(new TextEncoder().encode(secret))));
    expect(JSON.stringify(row)).not.toContain(secret);

    const listed = await app.api('GET', '/tokens', { token: player.token });
    expect(listed.body.tokens).toEqual([expect.objectContaining({ id: created.id, name: 'Spreadsheet', scope: 'read', status: 'active', last_used_at: null })]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    expect(listed.body).toMatchObject({ max_active: 10, limits: { token: { requests_per_minute: 120, mutations_per_minute: 30 } } });

    const company = await app.api('GET', '/company', { token: created.token });
    expect(company.status).toBe(200);
    expect(company.body).toMatchObject({ id: player.companyId, name: 'Scripted Inc' });
    // The first use is recorded, and counted for the day.
    const after = await app.api('GET', '/tokens', { token: player.token });
    expect(after.body.tokens[0].last_used_at).not.toBeNull();
    expect(after.body.tokens[0].requests_today).toBe(1);
  });

  it('reaches every REST route within its scope and no other: 403 out of scope, 403 on session-only routes', async () => {
    const player = await app.createPlayer({ cash: 1_000_000 });
    const tokens = Object.fromEntries(await Promise.all(API_TOKEN_SCOPES.map(async (scope) => [scope, (await createToken(player, scope)).token]))) as Record<
      ApiTokenScope,
      string
    >;
    const routes = restRoutes();
    expect(routes.length).toBeGreaterThan(40);
    for (const route of routes) {
      const path = route.path.replace(/\{\w+\}/g, '999999');
      const access = (route.procedure._def.meta as { access?: string } | undefined)?.access;
      expect(['read', 'trade', 'manage', 'session'], `${route.method} ${route.path} declares its access`).toContain(access);
      for (const scope of API_TOKEN_SCOPES) {
        const response = await app.api(route.method, path, {
          token: tokens[scope],
          body: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
        });
        const where = `${scope} token, ${route.method} ${route.path} (${access}): ${JSON.stringify(response.body)}`;
        if (access === 'session') {
          expect(response.status, where).toBe(403);
          expect(response.body.error, where).toBe(SESSION_ONLY_MESSAGE);
        } else if (!scopeCovers(scope, access as ApiTokenScope)) {
          expect(response.status, where).toBe(403);
          expect(response.body.error, where).toBe(
            `This API token has the "${scope}" scope; ${route.method} /api${route.path} needs "${access}". Create a token with the ${access} scope on your profile.`,
          );
          expect(response.headers.get('www-authenticate'), where).toBe(`Bearer error="insufficient_scope", scope="${access}"`);
        } else {
          // Within scope: the procedure itself answers (bad input or an unknown id here), never 401/403.
          expect([200, 400, 404, 409, 422], where).toContain(response.status);
        }
      }
    }
  });

  it('declares access in one place: docs/api.md and the OpenAPI document say what each procedure declares', async () => {
    const declared = restRoutes().map((route) => {
      const access = (route.procedure._def.meta as { access?: string } | undefined)?.access;
      return `| ${route.method} | \`/api${route.path}\` | ${access === 'session' ? 'session only' : access} |`;
    });
    const guide = await readFile(path.resolve(import.meta.dirname, '../../docs/api.md'), 'utf8');
    const documented = guide.split('\n').filter((line) => /^\| (GET|POST|PUT|PATCH|DELETE) \| `\/api/.test(line));
    expect(documented, `docs/api.md's route table should read:\n${declared.join('\n')}`).toEqual(declared);

    const document = buildOpenApiDocument() as { paths: Record<string, Record<string, { 'x-token-scope': string | null; security: unknown[] }>> };
    for (const route of restRoutes()) {
      const access = (route.procedure._def.meta as { access: string }).access;
      const operation = document.paths[route.path]![route.method.toLowerCase()]!;
      expect(operation['x-token-scope'], `${route.method} ${route.path}`).toBe(access === 'session' ? null : access);
      const tokenRequirement = operation.security.find((requirement) => Object.hasOwn(requirement as object, 'personalAccessToken'));
      // The scope is x-token-scope: a bearer scheme's requirement lists no scopes (OpenAPI: only OAuth2 and OpenID Connect have them).
      expect(tokenRequirement, `${route.method} ${route.path}`).toEqual(access === 'session' ? undefined : { personalAccessToken: [] });
    }
    const docsPage = await (await fetch(`${app.baseUrl}/api/docs`)).text();
    for (const text of ['Authorization: Bearer mc_pat_', 'RateLimit-Remaining', 'Retry-After', '120 requests, of which 30 actions', 'session only'])
      expect(docsPage).toContain(text);
  });

  it('acts within scope: read cannot trade, trade trades and restocks a store, manage builds', async () => {
    const player = await app.createPlayer({ cash: 1_000_000 });
    const read = (await createToken(player, 'read')).token;
    const trade = (await createToken(player, 'trade')).token;
    const manage = (await createToken(player, 'manage')).token;
    const buy = { product_id: world.bread.id, quantity: 20, action: 'buy' };
    expect((await app.api('POST', '/market/trade', { token: read, body: buy })).status).toBe(403);
    expect((await app.api('POST', '/market/trade', { token: trade, body: buy })).status).toBe(200);
    expect((await app.api('POST', '/buildings', { token: trade, body: { type: 'store', city_id: world.retailCity.id } })).status).toBe(403);
    const store = await app.api('POST', '/buildings', { token: manage, body: { type: 'store', city_id: world.retailCity.id } });
    expect(store.status).toBe(200);
    const shelf = await app.api('POST', `/buildings/${store.body.id}/inventory/transfer-to-store`, {
      token: trade,
      body: { product_id: world.bread.id, quantity: 20, retail_price: 6 },
    });
    expect(shelf.status, JSON.stringify(shelf.body)).toBe(200);
    const products = await app.api('GET', `/stores/${store.body.id}/products`, { token: read });
    expect(products.body).toEqual([expect.objectContaining({ product_id: world.bread.id, quantity: 20, retail_price: 6 })]);
    // Another player's building stays out of reach, token or not.
    const other = await app.createPlayer();
    const otherManage = (await createToken(other, 'manage')).token;
    expect((await app.api('GET', `/buildings/${store.body.id}`, { token: otherManage })).status).toBe(404);
  });

  it('works over tRPC with the same scopes', async () => {
    const player = await app.createPlayer({ cash: 1_000_000 });
    const read = (await createToken(player, 'read')).token;
    const get = await fetch(`${app.baseUrl}/api/trpc/company.get`, { headers: { authorization: `Bearer ${read}` } });
    expect(get.status).toBe(200);
    expect(((await get.json()) as any).result.data.id).toBe(player.companyId);
    const trade = await fetch(`${app.baseUrl}/api/trpc/market.trade`, {
      method: 'POST',
      headers: { authorization: `Bearer ${read}`, 'content-type': 'application/json' },
      body: JSON.stringify({ product_id: world.bread.id, quantity: 1, action: 'buy' }),
    });
    expect(trade.status).toBe(403);
    expect(((await trade.json()) as any).error.message).toContain('needs "trade"');
    const tokens = await fetch(`${app.baseUrl}/api/trpc/tokens.list`, { headers: { authorization: `Bearer ${read}` } });
    expect(tokens.status).toBe(403);
  });

  it('gives malformed, unknown, revoked and expired tokens each their own 401, at once', async () => {
    const player = await app.createPlayer();
    const token = (await createToken(player, 'manage')).token;
    const expect401 = async (credential: string, message: string, path = '/company') => {
      const response = await app.api('GET', path, { headers: { authorization: `Bearer ${credential}` } });
      expect(response.status, credential).toBe(401);
      expect(response.body, credential).toEqual({ error: message });
      expect(response.headers.get('www-authenticate'), credential).toMatch(/^Bearer error="invalid_token"/);
    };
    await expect401('mc_pat_tooshort', TOKEN_MESSAGES.malformed);
    await expect401(`${token}x`, TOKEN_MESSAGES.malformed);
    await expect401('not-a-token-at-all', TOKEN_MESSAGES.malformed);
    await expect401('', TOKEN_MESSAGES.malformed);
    // Even a public route refuses a broken credential instead of ignoring it.
    await expect401('mc_pat_tooshort', TOKEN_MESSAGES.malformed, '/world');
    await expect401(`mc_pat_${'a'.repeat(16)}_${'b'.repeat(32)}`, TOKEN_MESSAGES.unknown);
    // The real id with another secret is just as unknown (the secret is checked in constant time first).
    await expect401(`${token.slice(0, 24)}${'c'.repeat(32)}`, TOKEN_MESSAGES.unknown);

    expect((await app.api('GET', '/company', { token })).status).toBe(200);
    const [{ id }] = (await app.api('GET', '/tokens', { token: player.token })).body.tokens;
    const revoked = await app.api('DELETE', `/tokens/${id}`, { token: player.token });
    expect(revoked.body).toMatchObject({ id, status: 'revoked' });
    const revokedAt = new Date(revoked.body.revoked_at);
    await expect401(token, TOKEN_MESSAGES.revoked(revokedAt));
    // Revoking twice changes nothing; another player's token is not found.
    expect((await app.api('DELETE', `/tokens/${id}`, { token: player.token })).body.revoked_at).toBe(revoked.body.revoked_at);
    const stranger = await app.createPlayer();
    expect((await app.api('DELETE', `/tokens/${id}`, { token: stranger.token })).status).toBe(404);

    const expiring = await createToken(player, 'read', { expires_in_days: 1 });
    expect((await app.api('GET', '/company', { token: expiring.token })).status).toBe(200);
    const expiredAt = new Date(Date.now() - 1000);
    await app.database.db.update(apiTokens).set({ expiresAt: expiredAt }).where(eq(apiTokens.id, expiring.id));
    await expect401(expiring.token, TOKEN_MESSAGES.expired(expiredAt));
    const list = (await app.api('GET', '/tokens', { token: player.token })).body.tokens as { id: number; status: string }[];
    expect(list.find((each) => each.id === expiring.id)?.status).toBe('expired');
  });

  it('refuses a token in the query string, whatever the route', async () => {
    const player = await app.createPlayer();
    const token = (await createToken(player, 'read')).token;
    for (const path of [
      `/company?access_token=${token}`,
      `/world?token=${token}`,
      `/goods?q=${token}`,
      `/trpc/company.get?input=${encodeURIComponent(JSON.stringify({ t: token }))}`,
    ]) {
      const response = await app.api('GET', path);
      expect(response.status, path).toBe(400);
      expect(response.body, path).toEqual({ error: TOKEN_IN_URL_MESSAGE });
    }
  });

  it('never manages tokens, signs out or reaches admin routes, even for an admin', async () => {
    const admin = await app.createPlayer({ isAdmin: true });
    const token = (await createToken(admin, 'manage')).token;
    for (const [method, path] of [
      ['GET', '/tokens'],
      ['POST', '/tokens'],
      ['GET', '/admin/check'],
      ['GET', '/admin/world-state'],
      ['POST', '/admin/advance-turn'],
      ['GET', '/admin/tokens/busiest'],
    ] as const) {
      const response = await app.api(method, path, { token, body: method === 'POST' ? { name: 'x', scope: 'manage' } : undefined });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.error).toBe(SESSION_ONLY_MESSAGE);
    }
    const signOut = await app.api('POST', '/auth/signout', { token });
    expect(signOut.status).toBe(403);
    expect((await app.api('GET', '/company', { token })).status).toBe(200);
    // The admin's session still reaches the admin route.
    expect((await app.api('GET', '/admin/world-state', { token: admin.token })).status).toBe(200);
  });

  it('refuses an 11th active token with a message, also when created concurrently', async () => {
    const player = await app.createPlayer();
    for (let i = 0; i < MAX_ACTIVE_API_TOKENS - 2; i += 1) await createToken(player, 'read', { name: `token ${i}` });
    const burst = await Promise.all(
      Array.from({ length: 5 }, (_, i) => app.api('POST', '/tokens', { token: player.token, body: { name: `burst ${i}`, scope: 'read' } })),
    );
    expect(burst.filter((response) => response.status === 200)).toHaveLength(2);
    for (const refused of burst.filter((response) => response.status !== 200)) {
      expect(refused).toMatchObject({ status: 409, body: { error: TOO_MANY_TOKENS_MESSAGE } });
    }
    const list = (await app.api('GET', '/tokens', { token: player.token })).body.tokens as { id: number }[];
    expect(list).toHaveLength(MAX_ACTIVE_API_TOKENS);
    // Revoked (or expired) tokens do not count.
    await app.api('DELETE', `/tokens/${list[0]!.id}`, { token: player.token });
    expect((await app.api('POST', '/tokens', { token: player.token, body: { name: 'replacement', scope: 'trade' } })).status).toBe(200);
  });

  it('validates the form: name, scope and expiry', async () => {
    const player = await app.createPlayer();
    const attempt = (body: unknown) => app.api('POST', '/tokens', { token: player.token, body });
    expect((await attempt({ name: '  ', scope: 'read' })).body).toEqual({ error: 'Token name cannot be empty' });
    expect((await attempt({ name: 'x'.repeat(51), scope: 'read' })).body).toEqual({ error: 'Token name must be 50 characters or less' });
    expect((await attempt({ name: 'a\u0000b', scope: 'read' })).body).toEqual({ error: 'Token name cannot contain control characters' });
    expect((await attempt({ name: 'bot', scope: 'admin' })).body).toEqual({ error: 'The scope must be one of: read, trade, manage' });
    expect((await attempt({ name: 'bot', scope: 'read', expires_in_days: 0 })).body).toEqual({ error: 'Expiry must be at least 1 day' });
    expect((await attempt({ name: 'bot', scope: 'read', expires_in_days: 2.5 })).body).toEqual({ error: 'Expiry must be a whole number of days' });
    expect((await attempt({ name: 'bot', scope: 'read', expires_in_days: 400 })).body).toEqual({ error: 'Expiry can be at most 366 days' });
    const never = await attempt({ name: 'forever', scope: 'read', expires_in_days: null });
    expect(never.body).toMatchObject({ status: 'active', expires_at: null });
  });

  it('housekeeping deletes old rate windows, usage beyond 90 days and tokens ended 30 days ago, and keeps the rest', async () => {
    const db = app.database.db;
    const player = await app.createPlayer();
    const kept = await createToken(player, 'read', { name: 'kept' });
    const recentlyRevoked = await createToken(player, 'read', { name: 'revoked last week' });
    const longRevoked = await createToken(player, 'read', { name: 'revoked long ago' });
    const day = 24 * 3600 * 1000;
    await db
      .update(apiTokens)
      .set({ revokedAt: new Date(Date.now() - 7 * day) })
      .where(eq(apiTokens.id, recentlyRevoked.id));
    await db
      .update(apiTokens)
      .set({ revokedAt: new Date(Date.now() - 31 * day) })
      .where(eq(apiTokens.id, longRevoked.id));
    await db.execute(sql`insert into api_token_usage (token_id, day, requests) values
      (${kept.id}, (now() at time zone 'utc')::date - 91, 5), (${kept.id}, (now() at time zone 'utc')::date - 89, 7)`);
    await db.execute(sql`insert into rate_limit_counters (subject, window_start, requests, mutations) values
      ('token:prune-test', date_trunc('minute', now()) - interval '10 minutes', 3, 0), ('token:prune-test', date_trunc('minute', now()), 2, 0)`);
    await pruneApiAccessRows(db);
    const names = (await app.api('GET', '/tokens', { token: player.token })).body.tokens.map((token: { name: string }) => token.name);
    expect(names.sort()).toEqual(['kept', 'revoked last week']);
    const usage = await db.execute<{ requests: number }>(sql`select requests from api_token_usage where token_id = ${kept.id}`);
    expect(usage.map((row) => Number(row.requests))).toEqual([7]);
    const windows = await db.execute<{ requests: number }>(sql`select requests from rate_limit_counters where subject = 'token:prune-test'`);
    expect(windows.map((row) => Number(row.requests))).toEqual([2]);
  });

  it("writes a token's calls to its daily counts within a second, with no reader asking (another API server reads them there)", async () => {
    const player = await app.createPlayer();
    const created = await createToken(player, 'read');
    for (let call = 0; call < 4; call += 1) expect((await app.api('GET', '/inventory', { token: created.token })).status).toBe(200);
    const written = async () =>
      (await app.database.db.select({ requests: apiTokenUsage.requests }).from(apiTokenUsage).where(eq(apiTokenUsage.tokenId, created.id))).map(
        (row) => row.requests,
      );
    const deadline = Date.now() + 5_000;
    while ((await written()).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await written()).toEqual([4]);
  });

  it('counts requests per token per day for the profile, shows admins the busiest, and badges companies that act through tokens', async () => {
    const admin = await app.createPlayer({ isAdmin: true });
    const reader = await app.createPlayer({ name: 'Only Reads Ltd' });
    const trader = await app.createPlayer({ name: 'Trades By Script Ltd', cash: 100_000 });
    const readToken = await createToken(reader, 'read');
    const tradeToken = await createToken(trader, 'trade');
    for (let i = 0; i < 3; i += 1) expect((await app.api('GET', '/goods', { token: readToken.token })).status).toBe(200);
    for (let i = 0; i < 5; i += 1) expect((await app.api('GET', '/inventory', { token: tradeToken.token })).status).toBe(200);
    expect((await app.api('POST', '/market/trade', { token: tradeToken.token, body: { product_id: world.bread.id, quantity: 2, action: 'buy' } })).status).toBe(
      200,
    );

    const usage = await app.api('GET', `/tokens/${tradeToken.id}/usage`, { token: trader.token });
    expect(usage.body).toHaveLength(30);
    expect(usage.body.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), requests: 6, reads: 5, mutations: 1, limited: 0 });
    expect(usage.body[0]).toMatchObject({ requests: 0 });
    expect((await app.api('GET', `/tokens/${tradeToken.id}/usage`, { token: reader.token })).status).toBe(404);
    expect((await app.api('GET', '/tokens', { token: trader.token })).body.tokens[0]).toMatchObject({ requests_today: 6, requests_7_days: 6 });

    // Older days count in the week, not today; the admins see the total.
    await app.database.db
      .insert(apiTokenUsage)
      .values({ tokenId: readToken.id, day: sql`(now() at time zone 'utc')::date - 2` as unknown as string, requests: 40 });
    const busiest = await app.api('GET', '/admin/tokens/busiest', { token: admin.token });
    expect(busiest.status).toBe(200);
    const rows = busiest.body as { token_id: number; requests: number; requests_today: number; owner_email: string; company_name: string }[];
    expect(rows.map((row) => row.requests)).toEqual(rows.map((row) => row.requests).sort((a, b) => b - a));
    expect(rows.filter((row) => row.token_id === readToken.id || row.token_id === tradeToken.id)).toEqual([
      expect.objectContaining({ token_id: readToken.id, requests: 43, requests_today: 3, owner_email: reader.email, company_name: 'Only Reads Ltd' }),
      expect.objectContaining({ token_id: tradeToken.id, requests: 6, requests_today: 6, mutations: 1, company_name: 'Trades By Script Ltd' }),
    ]);
    expect((await app.api('GET', '/admin/tokens/busiest', { token: reader.token })).status).toBe(403);

    const board = (await app.api('GET', '/companies', { token: admin.token })).body as { id: number; uses_api: boolean; is_bot: boolean }[];
    const badge = (companyId: number) => board.find((company) => company.id === companyId)?.uses_api;
    expect(badge(trader.companyId)).toBe(true);
    expect(badge(reader.companyId)).toBe(false); // reading is not acting
    expect(badge(admin.companyId)).toBe(false);
    expect(board.some((company) => company.is_bot)).toBe(true);
  });
});
