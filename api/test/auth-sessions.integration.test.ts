/**
 * Session lifetimes after Lucia's design (docs/auth.md): absolute 30 days from sign-in, idle 7 days
 * since the last use, the last use written at most once an hour, and the cookie re-sent on every
 * cookie request with the lifetime left. Time is moved by back-dating the session row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { sessions } from '@marketcraft/db';
import { startTestApp, type TestApp, type TestPlayer } from './helpers/testApp.ts';
import { findSetCookie, rawRequest } from './helpers/authHttp.ts';
import { SESSION_COOKIE_NAME, SESSION_ID_LENGTH, SESSION_SECRET_LENGTH } from '../src/auth/session.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe('session lifetimes', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  const sessionIdOf = (player: TestPlayer) => player.token.split('.')[0]!;
  const withCookie = (player: TestPlayer, path = '/api/company') =>
    rawRequest(app.baseUrl, 'GET', path, { headers: { cookie: `${SESSION_COOKIE_NAME}=${player.token}` } });
  /** Moves the session's sign-in and last use into the past. */
  async function backdate(player: TestPlayer, times: { createdAgoMs?: number; lastUsedAgoMs: number }) {
    const now = Date.now();
    const lastVerified = new Date(now - times.lastUsedAgoMs).toISOString();
    const created = new Date(now - (times.createdAgoMs ?? times.lastUsedAgoMs)).toISOString();
    await app.database.db.execute(sql`update sessions set created_at = ${created}::timestamptz, last_verified_at = ${lastVerified}::timestamptz
                                      where id = ${sessionIdOf(player)}`);
  }
  async function sessionRow(player: TestPlayer) {
    const [row] = await app.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionIdOf(player)));
    return row ?? null;
  }
  const maxAgeOf = (setCookies: string[]) => Number(findSetCookie(setCookies, SESSION_COOKIE_NAME)?.attributes.get('max-age'));

  it('gives a token of a 120-bit id and a 160-bit secret from the 32-letter alphabet; a tampered secret answers 401', async () => {
    const player = await app.createPlayer();
    const [id, secret] = player.token.split('.');
    expect(id).toMatch(new RegExp(`^[a-km-np-z2-9]{${SESSION_ID_LENGTH}}$`));
    expect(secret).toMatch(new RegExp(`^[a-km-np-z2-9]{${SESSION_SECRET_LENGTH}}$`));
    expect(SESSION_SECRET_LENGTH * 5).toBeGreaterThanOrEqual(128);
    const tampered = `${id}.${secret!.slice(0, -1)}${secret!.endsWith('a') ? 'b' : 'a'}`;
    expect((await app.api('GET', '/company', { token: tampered })).status).toBe(401);
    expect((await app.api('GET', '/company', { token: player.token })).status).toBe(200);
  });

  it('slides the idle limit forward on use, writing the last use at most once an hour, and re-sends the cookie', async () => {
    const player = await app.createPlayer();
    // Used 6 days ago: one day of idle time left, but a use now renews it to 7 days.
    await backdate(player, { lastUsedAgoMs: 6 * DAY });
    const before = await sessionRow(player);
    const renewed = await withCookie(player);
    expect(renewed.status).toBe(200);
    const after = await sessionRow(player);
    expect(after!.lastVerifiedAt.getTime()).toBeGreaterThan(before!.lastVerifiedAt.getTime() + 6 * DAY - HOUR);
    expect(after!.createdAt).toEqual(before!.createdAt);
    expect(maxAgeOf(renewed.setCookies)).toBeGreaterThan((7 * DAY) / 1000 - 60);
    const cookie = findSetCookie(renewed.setCookies, SESSION_COOKIE_NAME);
    expect(cookie?.value).toBe(player.token);
    expect(cookie?.attributes.has('httponly')).toBe(true);
    expect(cookie?.attributes.get('samesite')).toBe('Lax');

    // Used 10 minutes ago: still valid, the row is not written again (at most once an hour).
    await backdate(player, { createdAgoMs: 6 * DAY, lastUsedAgoMs: 10 * 60 * 1000 });
    const recent = await sessionRow(player);
    expect((await withCookie(player)).status).toBe(200);
    expect((await sessionRow(player))!.lastVerifiedAt).toEqual(recent!.lastVerifiedAt);
  });

  it('ends a session idle for more than 7 days: 401, and the row is deleted', async () => {
    const player = await app.createPlayer();
    await backdate(player, { lastUsedAgoMs: 7 * DAY + 60_000 });
    const response = await withCookie(player);
    expect(response).toMatchObject({ status: 401, body: { error: 'Please sign in to continue' } });
    expect(findSetCookie(response.setCookies, SESSION_COOKIE_NAME)).toBeNull();
    expect(await sessionRow(player)).toBeNull();
    expect((await withCookie(player, '/api/auth/session')).body).toEqual({ user: null });
  });

  it('ends a session 30 days after sign-in even when it is used every day', async () => {
    const player = await app.createPlayer();
    // 29 days after sign-in, used an hour ago: valid, and the cookie lives only until day 30.
    await backdate(player, { createdAgoMs: 29 * DAY, lastUsedAgoMs: HOUR });
    const lastDay = await withCookie(player);
    expect(lastDay.status).toBe(200);
    const maxAge = maxAgeOf(lastDay.setCookies);
    expect(maxAge).toBeLessThanOrEqual(DAY / 1000);
    expect(maxAge).toBeGreaterThan(DAY / 1000 - 120);

    await backdate(player, { createdAgoMs: 30 * DAY + 60_000, lastUsedAgoMs: 60_000 });
    expect((await withCookie(player)).status).toBe(401);
    expect(await sessionRow(player)).toBeNull();
  });

  it('starts a new session at every sign-in and ends the one the browser brought along', async () => {
    const email = `resign-${Date.now().toString(36)}@example.com`;
    const signup = await rawRequest(app.baseUrl, 'POST', '/api/auth/signup', { body: { email, password: 'secret1' } });
    expect(signup.status).toBe(200);
    const first: string = signup.body.token;
    const signin = await rawRequest(app.baseUrl, 'POST', '/api/auth/signin', {
      body: { email, password: 'secret1' },
      headers: { cookie: `${SESSION_COOKIE_NAME}=${first}`, origin: app.baseUrl },
    });
    expect(signin.status).toBe(200);
    expect(signin.body.token).not.toBe(first);
    expect(findSetCookie(signin.setCookies, SESSION_COOKIE_NAME)?.value).toBe(signin.body.token);
    expect((await app.api('GET', '/company', { token: first })).status).toBe(401);
    expect((await app.api('GET', '/company', { token: signin.body.token })).status).toBe(200);
  });
});
