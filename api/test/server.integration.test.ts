/**
 * The API process's start (startApiServer, what `npm start` runs): ADMIN_EMAILS makes the listed
 * Google accounts (no password) that already exist admins at start, so an operator can be listed
 * after first signing in with Google; a listed password account is not (docs/auth.md, "Admins").
 */
import { connect } from 'node:net';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { apiTokenUsage, users } from '@marketcraft/db';
import { createTestDatabase, type TestDatabase } from '@marketcraft/db/testing/freshDatabase.ts';
import { loadApiConfig } from '../src/config.ts';
import { startApiServer } from '../src/server.ts';
import { createSession } from '../src/auth/session.ts';
import { createApiToken } from '../src/access/personalTokens.ts';

describe('API start', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ max: 2 });
  });
  afterAll(async () => {
    await database.drop();
  });

  it('applies ADMIN_EMAILS to Google users who signed up before the start, not to password users, and serves the API', async () => {
    const [operator, player, squatter] = await database.db
      .insert(users)
      .values([{ email: 'Operator@Example.com' }, { email: 'player@example.com' }, { email: 'squatter@example.com', passwordHash: 'x' }])
      .returning({ id: users.id });
    const server = await startApiServer(
      loadApiConfig({ DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'test', ADMIN_EMAILS: 'operator@example.com,squatter@example.com' }),
    );
    try {
      const check = async (userId: number) => {
        const { token } = await createSession(database.db, userId);
        const response = await fetch(`http://127.0.0.1:${server.port}/api/admin/check`, { headers: { authorization: `Bearer ${token}` } });
        return response.json();
      };
      expect(await check(operator!.id)).toEqual({ isAdmin: true });
      expect(await check(player!.id)).toEqual({ isAdmin: false });
      expect(await check(squatter!.id)).toEqual({ isAdmin: false });
      const [row] = await database.db.select({ isAdmin: users.isAdmin }).from(users).where(eq(users.id, operator!.id));
      expect(row?.isAdmin).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('keeps an idle connection open after a 6 s pause, so a client that reuses it (Node and Playwright keep theirs 5 s) is answered, not reset', async () => {
    const server = await startApiServer(loadApiConfig({ DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'test' }));
    const socket = connect(server.port, '127.0.0.1');
    try {
      await once(socket, 'connect');
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
      let closed = false;
      socket.on('close', () => (closed = true));
      const ask = async () => {
        received = '';
        socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
        await expect.poll(() => received || closed, { timeout: 10_000 }).toBeTruthy();
        return received.split('\r\n')[0];
      };
      expect(await ask()).toBe('HTTP/1.1 200 OK');
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(closed).toBe(false);
      expect(await ask()).toBe('HTTP/1.1 200 OK');
    } finally {
      socket.destroy();
      await server.close();
    }
  });

  it("writes a personal access token's calls to its daily counts when it stops (they are gathered in the process)", async () => {
    const [scripter] = await database.db.insert(users).values({ email: 'scripter@example.com' }).returning({ id: users.id });
    const { id, token } = await createApiToken(database.db, scripter!.id, { name: 'notebook', scope: 'read' });
    const server = await startApiServer(loadApiConfig({ DATABASE_URL: database.url, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'test' }));
    try {
      for (let call = 0; call < 3; call += 1) {
        const response = await fetch(`http://127.0.0.1:${server.port}/api/world`, { headers: { authorization: `Bearer ${token}` } });
        expect(response.status).toBe(200);
      }
    } finally {
      await server.close();
    }
    const rows = await database.db.select({ requests: apiTokenUsage.requests }).from(apiTokenUsage).where(eq(apiTokenUsage.tokenId, id));
    expect(rows).toEqual([{ requests: 3 }]);
  });
});
