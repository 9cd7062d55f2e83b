/**
 * Sign-in throttling: 10 consecutive failures lock an address (ip), 50 an account (email), for 10
 * minutes. The test server trusts one proxy (TRUST_PROXY_HOPS=1) and each request says the network
 * address it comes from in X-Forwarded-For (203.0.113.x, 198.51.100.x), so each test has addresses
 * of its own. The game's own machine (loopback) is counted per account (its last tests).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { authThrottles, sessions } from '@marketcraft/db';
import { startTestApp, type TestApp } from './helpers/testApp.ts';
import { rawRequest } from './helpers/authHttp.ts';
import { pruneExpiredAuthRows } from '../src/auth/housekeeping.ts';
import { argon2RunCount } from '../src/auth/password.ts';

const TOO_MANY = 'Too many failed sign-in attempts. Try again in 10 minutes.';

describe('sign-in throttling', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { TRUST_PROXY_HOPS: '1' } });
  });
  afterAll(async () => {
    await app.close();
  });

  const signIn = (email: string, password: string, from: string) =>
    rawRequest(app.baseUrl, 'POST', '/api/auth/signin', { body: { email, password }, headers: { 'x-forwarded-for': from } });
  const signUp = async (email: string) => {
    const response = await rawRequest(app.baseUrl, 'POST', '/api/auth/signup', { body: { email, password: 'right-password' }, localAddress: '127.0.0.1' });
    expect(response.status).toBe(200);
  };

  it('10 failures from one address lock the address, not the player: they sign in from another', async () => {
    await signUp('griefed@example.com');
    for (let i = 0; i < 10; i += 1) {
      expect((await signIn('griefed@example.com', `wrong-${i}`, '203.0.113.30')).status).toBe(401);
    }
    // The address that guessed is locked, whatever it tries...
    expect(await signIn('griefed@example.com', 'right-password', '203.0.113.30')).toMatchObject({ status: 429, body: { error: TOO_MANY } });
    // ...but nobody can lock a player out with 10 wrong passwords: from their own address they sign in.
    expect((await signIn('griefed@example.com', 'right-password', '203.0.113.31')).status).toBe(200);
  });

  it('locks an account after 50 failures from several addresses, even with the right password and from another address', async () => {
    await signUp('locked@example.com');
    await signUp('neighbour@example.com');
    for (let address = 0; address < 5; address += 1) {
      for (let i = 0; i < 10; i += 1) {
        expect((await signIn('locked@example.com', `wrong-${i}`, `198.51.100.${address + 1}`)).status).toBe(401);
      }
    }
    const rightPassword = await signIn('LOCKED@example.com', 'right-password', '203.0.113.3');
    expect(rightPassword).toMatchObject({ status: 429, body: { error: TOO_MANY } });
    // Another account from a fresh address is unaffected.
    expect((await signIn('neighbour@example.com', 'right-password', '203.0.113.3')).status).toBe(200);

    // Once the 10 minutes are over (moved back in the database), the right password works again.
    await app.database.db
      .update(authThrottles)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(authThrottles.key, 'email:locked@example.com'));
    expect((await signIn('locked@example.com', 'right-password', '203.0.113.3')).status).toBe(200);
    expect(await app.database.db.select().from(authThrottles).where(eq(authThrottles.key, 'email:locked@example.com'))).toEqual([]);
  });

  it('answers a locked attempt before any password hashing, and 10 concurrent failures all count', async () => {
    await signUp('hammered@example.com');
    // Ten wrong passwords at once: the counter is atomic, so the address is locked after them.
    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => signIn('hammered@example.com', `wrong-${i}`, '203.0.113.11')));
    expect(burst.map((response) => response.status)).toEqual(Array(10).fill(401));
    const runsBefore = argon2RunCount();
    const locked = await Promise.all([
      signIn('hammered@example.com', 'right-password', '203.0.113.11'),
      signIn('hammered@example.com', 'wrong', '203.0.113.11'),
      signIn('someone-else@example.com', 'whatever', '203.0.113.11'),
    ]);
    expect(locked.map((response) => response.status)).toEqual([429, 429, 429]);
    expect(argon2RunCount()).toBe(runsBefore); // not one hash or verification for them
    // An attempt that is not locked does hash (so the counter above is not idle).
    expect((await signIn('someone-else@example.com', 'whatever', '203.0.113.14')).status).toBe(401);
    expect(argon2RunCount()).toBeGreaterThan(runsBefore);
  });

  it('checks at most 10 of 40 concurrent wrong passwords: the rest answer 429 with Retry-After, before any hashing', async () => {
    await signUp('stormed@example.com');
    const runsBefore = argon2RunCount();
    const storm = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn('stormed@example.com', `wrong-${i}`, '203.0.113.21')));
    const statuses = storm.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);
    expect(argon2RunCount() - runsBefore).toBe(10);
    for (const refused of storm.filter((response) => response.status === 429)) {
      expect(refused.body).toEqual({ error: TOO_MANY });
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(9 * 60);
      expect(retryAfter).toBeLessThanOrEqual(10 * 60);
    }
    // The storming address stays locked, even for the right password, with the time left; the
    // player, from their own address, signs in.
    const later = await signIn('stormed@example.com', 'right-password', '203.0.113.21');
    expect(later.status).toBe(429);
    expect(Number(later.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn('stormed@example.com', 'right-password', '203.0.113.22')).status).toBe(200);
  });

  it('locks an address after 10 failures across different emails', async () => {
    await signUp('victim@example.com');
    for (let i = 0; i < 10; i += 1) {
      expect((await signIn(`guess-${i}@example.com`, 'whatever', '203.0.113.4')).status).toBe(401);
    }
    expect(await signIn('victim@example.com', 'right-password', '203.0.113.4')).toMatchObject({ status: 429, body: { error: TOO_MANY } });
    // The account itself is not locked: from another address it signs in.
    expect((await signIn('victim@example.com', 'right-password', '203.0.113.5')).status).toBe(200);
  });

  it('counts consecutive failures only: a success resets the account and the address', async () => {
    await signUp('forgetful@example.com');
    for (let i = 0; i < 9; i += 1) expect((await signIn('forgetful@example.com', 'wrong', '203.0.113.6')).status).toBe(401);
    expect((await signIn('forgetful@example.com', 'right-password', '203.0.113.6')).status).toBe(200);
    for (let i = 0; i < 9; i += 1) expect((await signIn('forgetful@example.com', 'wrong', '203.0.113.6')).status).toBe(401);
    expect((await signIn('forgetful@example.com', 'right-password', '203.0.113.6')).status).toBe(200);
  });

  it('behind a trusted proxy, counts the address the proxy saw, not what the client claims', async () => {
    const viaProxy = (forwardedFor: string) =>
      rawRequest(app.baseUrl, 'POST', '/api/auth/signin', {
        body: { email: 'nobody@example.com', password: 'whatever' },
        localAddress: '127.0.0.9',
        headers: { 'x-forwarded-for': forwardedFor },
      });
    // The client forges a different left-most entry each time; the proxy's entry (right-most) is what counts.
    for (let i = 0; i < 10; i += 1) expect((await viaProxy(`10.0.0.${i}, 203.0.113.77`)).status).toBe(401);
    const rows = await app.database.db.select().from(authThrottles).where(eq(authThrottles.key, 'ip:203.0.113.77'));
    expect(rows[0]?.failures).toBe(10);
    expect((await viaProxy('198.51.100.1, 203.0.113.77')).status).toBe(429);
    // Another address the proxy saw is counted apart (the email, 10 failures in, is not locked).
    expect((await viaProxy('203.0.113.78')).status).toBe(401);
  });

  it('without TRUST_PROXY_HOPS ignores X-Forwarded-For and counts the socket address', async () => {
    const direct = await startTestApp();
    try {
      await rawRequest(direct.baseUrl, 'POST', '/api/auth/signin', {
        body: { email: 'header-ignored@example.com', password: 'wrong' },
        localAddress: '127.0.0.10',
        headers: { 'x-forwarded-for': '203.0.113.99' },
      });
      const keys = (await direct.database.db.select({ key: authThrottles.key }).from(authThrottles)).map((row) => row.key);
      expect(keys).toContain('ip:127.0.0.10|email:header-ignored@example.com');
      expect(keys.some((key) => key.includes('203.0.113.99'))).toBe(false);
    } finally {
      await direct.close();
    }
  });

  it("on the game's own machine (loopback) 10 failures lock that account from it, not every player on it", async () => {
    await signUp('console-a@example.com');
    await signUp('console-b@example.com');
    const local = (email: string, password: string) =>
      rawRequest(app.baseUrl, 'POST', '/api/auth/signin', { body: { email, password }, localAddress: '127.0.0.1' });
    // 40 wrong passwords at once from this machine: still at most 10 checked, the rest 429.
    const storm = await Promise.all(Array.from({ length: 40 }, (_, i) => local('console-a@example.com', `wrong-${i}`)));
    expect(storm.filter((response) => response.status === 401)).toHaveLength(10);
    expect(storm.filter((response) => response.status === 429)).toHaveLength(30);
    expect((await local('console-a@example.com', 'right-password')).status).toBe(429);
    // Every other player of this machine (a console, scripted players) still signs in.
    expect((await local('console-b@example.com', 'right-password')).status).toBe(200);
  });

  it('housekeeping removes expired sessions and stale throttle records, and keeps live ones', async () => {
    const db = app.database.db;
    const now = new Date();
    const day = 24 * 60 * 60 * 1000;
    const player = await app.createPlayer();
    const stale = await app.createPlayer();
    await db.execute(sql`update sessions set last_verified_at = ${new Date(now.getTime() - 8 * day).toISOString()}::timestamptz
                         where user_id = ${stale.userId}`);
    await db.insert(authThrottles).values([
      { key: 'ip:old-and-unlocked', failures: 3, lockedUntil: null, updatedAt: new Date(now.getTime() - 2 * day) },
      { key: 'ip:recent', failures: 3, lockedUntil: null, updatedAt: new Date(now.getTime() - 60_000) },
    ]);
    await pruneExpiredAuthRows(db, now);
    expect((await app.api('GET', '/auth/session', { token: player.token })).body.user).toMatchObject({ id: player.userId });
    expect((await app.api('GET', '/auth/session', { token: stale.token })).body).toEqual({ user: null });
    expect(await db.select().from(sessions).where(eq(sessions.userId, stale.userId))).toEqual([]);
    const keys = (await db.select({ key: authThrottles.key }).from(authThrottles)).map((row) => row.key);
    expect(keys).toContain('ip:recent');
    expect(keys).not.toContain('ip:old-and-unlocked');
  });
});
