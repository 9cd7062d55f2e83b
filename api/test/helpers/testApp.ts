/**
 * Integration-test harness: the real HTTP app on a random port over a fresh database copied from
 * the seeded template. `createPlayer` makes a user with a company and a session directly (fast);
 * tests of the sign-up flow itself go through /api/auth/signup instead.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { companies, createPlayerCompany, users } from '@marketcraft/db';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { dollarsToCents } from '@marketcraft/shared';
import { silentLogger } from '@marketcraft/db/logger.ts';
import { loadApiConfig } from '../../src/config.ts';
import { createApp } from '../../src/app.ts';
import { connectApiDatabase } from '../../src/server.ts';
import { createSession } from '../../src/auth/session.ts';
import type { ApiServices } from '../../src/context.ts';

export interface TestPlayer {
  userId: number;
  companyId: number;
  email: string;
  /** Session token: send as `Authorization: Bearer <token>` (or as the session cookie). */
  token: string;
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestApp {
  baseUrl: string;
  database: TestDatabase;
  services: ApiServices;
  createPlayer: (options?: { email?: string; isAdmin?: boolean; cash?: number; name?: string }) => Promise<TestPlayer>;
  /** JSON request to `/api${path}`; `token` authenticates as a player. */
  api: <T = any>(method: string, path: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }) => Promise<ApiResponse<T>>;
  close: () => Promise<void>;
}

let playerCounter = 0;

/**
 * `services`: what to replace, or a function of the test's database that says it (e.g. a db reached
 * through a proxy). `realtime`: also serve GET /api/realtime (LISTENing on the test database).
 */
export async function startTestApp(
  options: {
    env?: Record<string, string>;
    services?: Partial<ApiServices> | ((database: TestDatabase) => Promise<Partial<ApiServices>>);
    realtime?: boolean;
    /** The database's `now()` stays at one moment (createTestDatabase): for tests of the rate limits' minute. */
    frozenClock?: boolean;
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase({ max: 20, frozenClock: options.frozenClock });
  // Tests sign up many players from 127.0.0.1: the sign-up throttle's own test sets its limit.
  const config = loadApiConfig({
    DATABASE_URL: database.url,
    PORT: '0',
    HOST: '127.0.0.1',
    NODE_ENV: 'test',
    SIGNUPS_PER_ADDRESS_PER_HOUR: '0',
    ...options.env,
  });
  const overrides = typeof options.services === 'function' ? await options.services(database) : options.services;
  // The API's own pools (api/src/server.ts: reads on a small pipelined pool, mutations and
  // transactions on the other), so every API test runs on the production layout.
  const connection = connectApiDatabase(database.url);
  const services: ApiServices = { db: connection.db, writeDb: connection.writes, config, logger: silentLogger(), ...overrides };
  // A test that gives its own db (e.g. one reached through a proxy it cuts) gives it for writes too.
  if (overrides?.db && !overrides.writeDb) services.writeDb = overrides.db;
  const app = createApp(services, options.realtime ? { realtimeSql: database.sql } : {});
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;

  async function createPlayer(playerOptions: { email?: string; isAdmin?: boolean; cash?: number; name?: string; worldId?: number } = {}): Promise<TestPlayer> {
    playerCounter += 1;
    const email = playerOptions.email ?? `player${playerCounter}-${Date.now().toString(36)}@example.com`;
    const { userId, companyId } = await database.db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ email, isAdmin: playerOptions.isAdmin ?? false })
        .returning({ id: users.id });
      const company = await createPlayerCompany(tx, { worldId: playerOptions.worldId ?? 1, userId: user!.id, email, mode: 'flat', name: playerOptions.name });
      if (playerOptions.cash !== undefined) {
        const cents = dollarsToCents(playerOptions.cash);
        await tx.update(companies).set({ cashCents: cents, startingCashCents: cents }).where(eq(companies.id, company.id));
      }
      return { userId: user!.id, companyId: company.id };
    });
    const { token } = await createSession(database.db, userId);
    return { userId, companyId, email, token };
  }

  async function api<T = any>(
    method: string,
    path: string,
    requestOptions: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...requestOptions.headers };
    if (requestOptions.token) headers.authorization = `Bearer ${requestOptions.token}`;
    if (requestOptions.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${baseUrl}/api${path}`, {
      method,
      headers,
      body: requestOptions.body === undefined ? undefined : typeof requestOptions.body === 'string' ? requestOptions.body : JSON.stringify(requestOptions.body),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: body as T, headers: response.headers };
  }

  return {
    baseUrl,
    database,
    services,
    createPlayer,
    api,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await connection.close();
      await database.drop();
    },
  };
}
