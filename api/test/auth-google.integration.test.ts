/**
 * Google sign-in against a local fake provider (node:http on 127.0.0.1): its authorization URL is
 * never visited (the test plays the browser), its token endpoint answers with an unsigned,
 * JWT-shaped id_token carrying the claims the test chose for that code.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase64urlNoPadding } from '@oslojs/encoding';
import { companies, oauthAccounts, users } from '@marketcraft/db';
import { startTestApp, type TestApp } from './helpers/testApp.ts';
import { findSetCookie, rawRequest } from './helpers/authHttp.ts';
import { SESSION_COOKIE_NAME } from '../src/auth/session.ts';
import { GOOGLE_STATE_COOKIE, GOOGLE_VERIFIER_COOKIE } from '../src/auth/routes.ts';

const CLIENT_ID = 'test-client-id.apps.googleusercontent.com';
const CLIENT_SECRET = 'test-client-secret';
const PUBLIC_URL = 'https://play.marketcraft.test';

interface TokenRequest {
  code: string | null;
  codeVerifier: string | null;
  redirectUri: string | null;
  authorization: string | undefined;
}

function unsignedJwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => encodeBase64urlNoPadding(new TextEncoder().encode(JSON.stringify(value)));
  return `${part({ alg: 'RS256', typ: 'JWT' })}.${part(claims)}.${encodeBase64urlNoPadding(new Uint8Array([1, 2, 3]))}`;
}

/** The fake Google: `claimsByCode` decides who each authorization code signs in. */
async function startFakeGoogle() {
  const claimsByCode = new Map<string, Record<string, unknown>>();
  const tokenRequests: TokenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      if (req.method !== 'POST' || req.url !== '/token') {
        res.writeHead(404).end();
        return;
      }
      const code = form.get('code');
      tokenRequests.push({ code, codeVerifier: form.get('code_verifier'), redirectUri: form.get('redirect_uri'), authorization: req.headers.authorization });
      const claims = code ? claimsByCode.get(code) : undefined;
      res.setHeader('content-type', 'application/json');
      if (!claims) {
        res.writeHead(400).end(JSON.stringify({ error: 'invalid_grant' }));
        return;
      }
      const idToken = unsignedJwt({ iss: 'https://accounts.google.com', aud: CLIENT_ID, iat: 1, exp: 9_999_999_999, ...claims });
      res.writeHead(200).end(JSON.stringify({ access_token: 'fake-access-token', token_type: 'Bearer', expires_in: 3600, id_token: idToken }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    claimsByCode,
    tokenRequests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('Google sign-in', () => {
  let app: TestApp;
  let google: Awaited<ReturnType<typeof startFakeGoogle>>;
  beforeAll(async () => {
    google = await startFakeGoogle();
    app = await startTestApp({
      env: {
        GOOGLE_CLIENT_ID: CLIENT_ID,
        GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
        PUBLIC_URL,
        GOOGLE_AUTHORIZATION_URL: `${google.url}/authorize`,
        GOOGLE_TOKEN_URL: `${google.url}/token`,
        ADMIN_EMAILS: 'google-admin@example.com,google-admin-2@example.com',
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await google.close();
  });

  /** GET /api/auth/google as a browser would: the redirect and the two cookies. */
  async function start() {
    const response = await rawRequest(app.baseUrl, 'GET', '/api/auth/google');
    expect(response.status).toBe(302);
    const location = new URL(String(response.headers.location));
    const state = findSetCookie(response.setCookies, GOOGLE_STATE_COOKIE);
    const verifier = findSetCookie(response.setCookies, GOOGLE_VERIFIER_COOKIE);
    expect(state && verifier).toBeTruthy();
    return { location, state: state!, verifier: verifier!, cookie: `${GOOGLE_STATE_COOKIE}=${state!.value}; ${GOOGLE_VERIFIER_COOKIE}=${verifier!.value}` };
  }

  async function callback(query: Record<string, string>, cookie: string) {
    return rawRequest(app.baseUrl, 'GET', `/api/auth/google/callback?${new URLSearchParams(query)}`, { headers: { cookie } });
  }

  it('tells the UI Google is available', async () => {
    expect((await app.api('GET', '/auth/providers')).body).toEqual({ google: true });
  });

  it('redirects to the authorization URL with PKCE and scopes, setting short-lived HttpOnly cookies', async () => {
    const { location, state, verifier } = await start();
    expect(`${location.origin}${location.pathname}`).toBe(`${google.url}/authorize`);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: `${PUBLIC_URL}/api/auth/google/callback`,
      scope: 'openid email profile',
      state: state.value,
      code_challenge_method: 'S256',
      code_challenge: encodeBase64urlNoPadding(sha256(new TextEncoder().encode(verifier.value))),
    });
    for (const cookie of [state, verifier]) {
      expect(cookie.attributes.has('httponly')).toBe(true);
      expect(cookie.attributes.get('samesite')).toBe('Lax');
      expect(cookie.attributes.get('path')).toBe('/');
      expect(cookie.attributes.get('max-age')).toBe('600');
      expect(cookie.attributes.has('secure')).toBe(true); // PUBLIC_URL is https
    }
  });

  it('refuses a callback whose state does not match the cookie, or has no cookie', async () => {
    const { cookie } = await start();
    google.claimsByCode.set('code-mismatch', { sub: 'sub-mismatch', email: 'mismatch@example.com', email_verified: true });
    const before = google.tokenRequests.length;
    const mismatch = await callback({ code: 'code-mismatch', state: 'not-the-state' }, cookie);
    expect(mismatch.status).toBe(302);
    expect(String(mismatch.headers.location)).toMatch(/^\/\?auth_error=/);
    expect(findSetCookie(mismatch.setCookies, SESSION_COOKIE_NAME)).toBeNull();
    const noCookie = await callback({ code: 'code-mismatch', state: 'whatever' }, '');
    expect(String(noCookie.headers.location)).toMatch(/^\/\?auth_error=/);
    expect(google.tokenRequests.length).toBe(before); // the code was never exchanged
    expect(await app.database.db.select().from(users).where(eq(users.email, 'mismatch@example.com'))).toEqual([]);
  });

  it('creates the user and company on the first callback, sends the code verifier, and reuses the user for the same sub', async () => {
    google.claimsByCode.set('code-first', { sub: 'google-sub-1', email: 'Gina@example.com', email_verified: true });
    const first = await start();
    const response = await callback({ code: 'code-first', state: first.state.value }, first.cookie);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('/');
    const exchange = google.tokenRequests.at(-1)!;
    expect(exchange).toMatchObject({ code: 'code-first', codeVerifier: first.verifier.value, redirectUri: `${PUBLIC_URL}/api/auth/google/callback` });
    expect(exchange.authorization).toBe(`Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`);
    // The state and verifier cookies are cleared; the session cookie is set.
    expect(findSetCookie(response.setCookies, GOOGLE_STATE_COOKIE)?.attributes.get('max-age')).toBe('0');
    const session = findSetCookie(response.setCookies, SESSION_COOKIE_NAME);
    expect(session?.attributes.has('httponly')).toBe(true);
    expect(session?.attributes.has('secure')).toBe(true);

    const me = await rawRequest(app.baseUrl, 'GET', '/api/auth/session', { headers: { cookie: `${SESSION_COOKIE_NAME}=${session!.value}` } });
    expect(me.body.user).toMatchObject({ email: 'Gina@example.com', isAdmin: false });
    const userId = me.body.user.id as number;
    const [user] = await app.database.db.select().from(users).where(eq(users.id, userId));
    expect(user?.passwordHash).toBeNull();
    expect(await app.database.db.select({ userId: oauthAccounts.userId }).from(oauthAccounts).where(eq(oauthAccounts.providerUserId, 'google-sub-1'))).toEqual([
      { userId },
    ]);
    const [company] = await app.database.db.select().from(companies).where(eq(companies.userId, userId));
    expect(company).toMatchObject({ name: 'Gina Enterprises', cashCents: 50_000_000 });

    // Second sign-in with the same sub (even with a changed email): the same user, a new session.
    google.claimsByCode.set('code-second', { sub: 'google-sub-1', email: 'gina.new@example.com', email_verified: true });
    const second = await start();
    const again = await callback({ code: 'code-second', state: second.state.value }, second.cookie);
    expect(again.headers.location).toBe('/');
    const secondSession = findSetCookie(again.setCookies, SESSION_COOKIE_NAME)!;
    expect(secondSession.value).not.toBe(session!.value);
    const me2 = await rawRequest(app.baseUrl, 'GET', '/api/auth/session', { headers: { cookie: `${SESSION_COOKIE_NAME}=${secondSession.value}` } });
    expect(me2.body.user.id).toBe(userId);
    expect(await app.database.db.select().from(companies).where(eq(companies.userId, userId))).toHaveLength(1);
  });

  it('makes a first Google sign-in with a listed verified email admin', async () => {
    google.claimsByCode.set('code-admin', { sub: 'google-sub-admin', email: 'Google-Admin@example.com', email_verified: true });
    const flow = await start();
    const response = await callback({ code: 'code-admin', state: flow.state.value }, flow.cookie);
    expect(response.headers.location).toBe('/');
    const token = findSetCookie(response.setCookies, SESSION_COOKIE_NAME)!.value;
    expect((await app.api('GET', '/auth/session', { token })).body.user).toMatchObject({ email: 'Google-Admin@example.com', isAdmin: true });
    expect((await app.api('GET', '/admin/check', { token })).body).toEqual({ isAdmin: true });
  });

  it('links a verified Google email to the existing password account and takes it over: the password, every earlier session and token end', async () => {
    // Somebody (maybe not the owner) signed up with the listed address and a password first, and
    // made a personal access token. The owner's first Google sign-in links the account: whoever
    // set that password can no longer sign in, and their session and token answer 401.
    const signup = await app.api('POST', '/auth/signup', { body: { email: 'google-admin-2@example.com', password: 'secret1' } });
    expect(signup.body.user.isAdmin).toBe(false);
    const earlierToken = await app.api('POST', '/tokens', { token: signup.body.token, body: { name: 'left behind', scope: 'trade' } });
    expect(earlierToken.status).toBe(200);
    google.claimsByCode.set('code-link', { sub: 'google-sub-link', email: 'GOOGLE-ADMIN-2@example.com', email_verified: true });
    const flow = await start();
    const response = await callback({ code: 'code-link', state: flow.state.value }, flow.cookie);
    expect(response.headers.location).toBe('/');
    const token = findSetCookie(response.setCookies, SESSION_COOKIE_NAME)!.value;
    // The same account (its company stays), now reached through Google only: a listed address
    // proven by Google is an admin, as for an account Google created.
    expect((await app.api('GET', '/auth/session', { token })).body.user).toEqual({
      id: signup.body.user.id,
      email: 'google-admin-2@example.com',
      isAdmin: true,
    });
    const again = await app.api('POST', '/auth/signin', { body: { email: 'google-admin-2@example.com', password: 'secret1' } });
    expect(again.status).toBe(401);
    expect((await app.api('GET', '/company', { token: signup.body.token })).status).toBe(401);
    expect((await app.api('GET', '/company', { token: earlierToken.body.token })).status).toBe(401);
    // A second Google sign-in of the same identity is a plain sign-in: its own earlier session lives on.
    google.claimsByCode.set('code-link-2', { sub: 'google-sub-link', email: 'google-admin-2@example.com', email_verified: true });
    const second = await start();
    const secondResponse = await callback({ code: 'code-link-2', state: second.state.value }, second.cookie);
    expect(secondResponse.headers.location).toBe('/');
    expect((await app.api('GET', '/company', { token })).status).toBe(200);
  });

  it('refuses an unverified Google email and a code the provider rejects, with a readable error', async () => {
    google.claimsByCode.set('code-unverified', { sub: 'google-sub-unverified', email: 'unverified@example.com', email_verified: false });
    let flow = await start();
    const unverified = await callback({ code: 'code-unverified', state: flow.state.value }, flow.cookie);
    expect(decodeURIComponent(String(unverified.headers.location))).toContain('no verified email address');
    expect(await app.database.db.select().from(users).where(eq(users.email, 'unverified@example.com'))).toEqual([]);

    flow = await start();
    const rejected = await callback({ code: 'unknown-code', state: flow.state.value }, flow.cookie);
    expect(decodeURIComponent(String(rejected.headers.location))).toContain('Google authentication failed');

    flow = await start();
    const cancelled = await callback({ error: 'access_denied', state: flow.state.value }, flow.cookie);
    expect(decodeURIComponent(String(cancelled.headers.location))).toContain('cancelled');
  });
});

describe('Google sign-in when not configured', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { GOOGLE_CLIENT_ID: CLIENT_ID } }); // no secret, no PUBLIC_URL
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers 503 with a message the UI can show, and providers says so', async () => {
    expect(await app.api('GET', '/auth/google')).toMatchObject({
      status: 503,
      body: { error: 'Google sign-in is not configured on this server: sign in (or sign up) with your email and password' },
    });
    expect((await app.api('GET', '/auth/providers')).body).toEqual({ google: false });
  });
});
