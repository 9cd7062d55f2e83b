/**
 * Sign-in throttling: 10 consecutive failures lock an account (email) or an address (ip) for 10
 * minutes. The test server listens on 127.0.0.1 and requests come from other loopback addresses
 * (127.0.0.x), so each test has addresses of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { authThrottles } from '@marketcraft/db';
import { startTestApp, type TestApp } from './helpers/testApp.ts';
import { rawRequest } from './helpers/authHttp.ts';
import { hashPassword, verifyPassword } from '../src/auth/password.ts';

const TOO_MANY = 'Too many failed sign-in attempts. Try again in 10 minutes.';

describe('sign-in throttling', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  const signIn = (email: string, password: string, from: string) =>
    rawRequest(app.baseUrl, 'POST', '/api/auth/signin', { body: { email, password }, localAddress: from });
  const signUp = async (email: string) => {
    const response = await rawRequest(app.baseUrl, 'POST', '/api/auth/signup', { body: { email, password: 'right-password' }, localAddress: '127.0.0.1' });
    expect(response.status).toBe(200);
  };

  it('locks an account after 10 failures, even with the right password and from another address', async () => {
    await signUp('locked@example.com');
    await signUp('neighbour@example.com');
    for (let i = 0; i < 10; i += 1) {
      expect((await signIn('locked@example.com', `wrong-${i}`, '127.0.0.2')).status).toBe(401);
    }
    const rightPassword = await signIn('LOCKED@example.com', 'right-password', '127.0.0.3');
    expect(rightPassword).toMatchObject({ status: 429, body: { error: TOO_MANY } });
    // Another account from a fresh address is unaffected.
    expect((await signIn('neighbour@example.com', 'right-password', '127.0.0.3')).status).toBe(200);

    // Once the 10 minutes are over (moved back in the database), the right password works again.
    await app.database.db
      .update(authThrottles)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(authThrottles.key, 'email:locked@example.com'));
    expect((await signIn('locked@example.com', 'right-password', '127.0.0.3')).status).toBe(200);
    expect(await app.database.db.select().from(authThrottles).where(eq(authThrottles.key, 'email:locked@example.com'))).toEqual([]);
  });

  it('locks an address after 10 failures across different emails', async () => {
    await signUp('victim@example.com');
    for (let i = 0; i < 10; i += 1) {
      expect((await signIn(`guess-${i}@example.com`, 'whatever', '127.0.0.4')).status).toBe(401);
    }
    expect(await signIn('victim@example.com', 'right-password', '127.0.0.4')).toMatchObject({ status: 429, body: { error: TOO_MANY } });
    // The account itself is not locked: from another address it signs in.
    expect((await signIn('victim@example.com', 'right-password', '127.0.0.5')).status).toBe(200);
  });

  it('counts consecutive failures only: a success resets the account and the address', async () => {
    await signUp('forgetful@example.com');
    for (let i = 0; i < 9; i += 1) expect((await signIn('forgetful@example.com', 'wrong', '127.0.0.6')).status).toBe(401);
    expect((await signIn('forgetful@example.com', 'right-password', '127.0.0.6')).status).toBe(200);
    for (let i = 0; i < 9; i += 1) expect((await signIn('forgetful@example.com', 'wrong', '127.0.0.6')).status).toBe(401);
    expect((await signIn('forgetful@example.com', 'right-password', '127.0.0.6')).status).toBe(200);
  });

  it('answers a locked attempt before hashing: refusing is faster than verifying', async () => {
    for (let i = 0; i < 10; i += 1) await signIn('fast@example.com', 'wrong', '127.0.0.7');
    let started = performance.now();
    for (let i = 0; i < 5; i += 1) expect((await signIn('fast@example.com', 'wrong', '127.0.0.8')).status).toBe(429);
    const refusing = performance.now() - started;
    const stored = await hashPassword('right-password');
    started = performance.now();
    for (let i = 0; i < 5; i += 1) await verifyPassword(stored, 'wrong');
    const verifying = performance.now() - started;
    expect(refusing).toBeLessThan(verifying);
  });
});
