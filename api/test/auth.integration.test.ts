import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { companies, sessions, users } from '@marketcraft/db';
import { startTestApp, type TestApp } from './helpers/testApp.ts';
import { findSetCookie, rawRequest } from './helpers/authHttp.ts';
import { SESSION_COOKIE_NAME } from '../src/auth/session.ts';
import { applyAdminEmails, listedPasswordAccounts } from '../src/auth/admins.ts';

const run = promisify(execFile);
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let counter = 0;
const uniqueEmail = (label: string) => `${label}-${++counter}-${Date.now().toString(36)}@example.com`;

describe('accounts and sign-in', () => {
  let app: TestApp;
  const adminEmail = 'Operator@Example.com';
  beforeAll(async () => {
    // One proxy in front (TRUST_PROXY_HOPS=1): a test says where a request comes from with X-Forwarded-For.
    app = await startTestApp({ env: { ADMIN_EMAILS: ` other@example.com , ${adminEmail.toLowerCase()} `, TRUST_PROXY_HOPS: '1' } });
  });
  afterAll(async () => {
    await app.close();
  });

  const post = (p: string, body: unknown, headers: Record<string, string> = {}) => rawRequest(app.baseUrl, 'POST', `/api${p}`, { body, headers });
  const countUsers = async (email: string) =>
    (
      await app.database.db
        .select({ id: users.id })
        .from(users)
        .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
    ).length;

  it('signs up, reads the session, signs out and back in, with HttpOnly Lax cookies', async () => {
    const email = uniqueEmail('Jane.Doe');
    const signup = await post('/auth/signup', { email, password: 'secret1' });
    expect(signup.status).toBe(200);
    expect(signup.body).toMatchObject({ user: { email, isAdmin: false }, token: expect.any(String) });
    const cookie = findSetCookie(signup.setCookies, SESSION_COOKIE_NAME);
    expect(cookie?.value).toBe(signup.body.token);
    expect(cookie?.attributes.has('httponly')).toBe(true);
    expect(cookie?.attributes.get('samesite')).toBe('Lax');
    expect(cookie?.attributes.get('path')).toBe('/');
    expect(cookie?.attributes.has('secure')).toBe(false); // served over plain http here
    expect(Number(cookie?.attributes.get('max-age'))).toBeGreaterThan(6 * 24 * 3600);

    // Stored: the argon2id hash with the agreed parameters, a company founded with the early-bird bonus.
    const [row] = await app.database.db.select().from(users).where(eq(users.id, signup.body.user.id));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const [company] = await app.database.db.select().from(companies).where(eq(companies.userId, signup.body.user.id));
    expect(company).toMatchObject({ cashCents: 50_000_000, isBot: false, name: expect.stringMatching(/^Jane Doe /) });
    // The stored session is the hash of the secret, never the token.
    const [sessionId, secret] = signup.body.token.split('.');
    const [session] = await app.database.db.select().from(sessions).where(eq(sessions.id, sessionId));
    expect(Buffer.from(session!.secretHash).toString('utf8')).not.toContain(secret);
    expect(session!.secretHash.length).toBe(32);

    const cookieHeader = { cookie: `${SESSION_COOKIE_NAME}=${cookie!.value}` };
    const session1 = await rawRequest(app.baseUrl, 'GET', '/api/auth/session', { headers: cookieHeader });
    expect(session1.body).toEqual({ user: { id: signup.body.user.id, email, isAdmin: false } });
    expect((await app.api('GET', '/company', { token: signup.body.token })).status).toBe(200);

    const signout = await post('/auth/signout', undefined, { ...cookieHeader, origin: app.baseUrl });
    expect(signout.status).toBe(200);
    const blank = findSetCookie(signout.setCookies, SESSION_COOKIE_NAME);
    expect(blank).toMatchObject({ value: '' });
    expect(blank?.attributes.get('max-age')).toBe('0');
    expect((await rawRequest(app.baseUrl, 'GET', '/api/auth/session', { headers: cookieHeader })).body).toEqual({ user: null });
    expect((await app.api('GET', '/admin/check', { token: signup.body.token })).status).toBe(401);

    // Sign in with another case of the email: a new session each time.
    const signin1 = await post('/auth/signin', { email: email.toUpperCase(), password: 'secret1' });
    expect(signin1.status).toBe(200);
    expect(signin1.body.user).toEqual({ id: signup.body.user.id, email, isAdmin: false });
    const signin2 = await post('/auth/signin', { email, password: 'secret1' });
    expect(signin2.body.token).not.toBe(signin1.body.token);
    expect((await app.api('GET', '/admin/check', { token: signin1.body.token })).body).toEqual({ isAdmin: false });
    expect((await app.api('GET', '/admin/check', { token: signin2.body.token })).status).toBe(200);
  });

  it('answers GET /api/auth/session with user null without a session', async () => {
    expect(await app.api('GET', '/auth/session')).toMatchObject({ status: 200, body: { user: null } });
    expect((await rawRequest(app.baseUrl, 'GET', '/api/auth/session', { headers: { cookie: `${SESSION_COOKIE_NAME}=forged.token` } })).body).toEqual({
      user: null,
    });
  });

  it('refuses a bad email, a short password and a missing body with 400 and creates no user', async () => {
    const badEmail = await post('/auth/signup', { email: 'not-an-email', password: 'secret1' });
    expect(badEmail).toMatchObject({ status: 400, body: { error: 'Enter a valid email address' } });
    expect(await countUsers('not-an-email')).toBe(0);

    const email = uniqueEmail('short');
    const shortPassword = await post('/auth/signup', { email, password: '12345' });
    expect(shortPassword).toMatchObject({ status: 400, body: { error: 'The password must be at least 6 characters' } });
    expect(await countUsers(email)).toBe(0);

    const tooLong = await post('/auth/signup', { email, password: 'x'.repeat(129) });
    expect(tooLong).toMatchObject({ status: 400, body: { error: 'The password can be at most 128 characters' } });
    expect((await post('/auth/signup', 'not json')).status).toBe(400);
    expect((await post('/auth/signin', { email })).status).toBe(400);
    expect(await countUsers(email)).toBe(0);
  });

  it('refuses a duplicate email in another case with 409, also when two signups race', async () => {
    const email = uniqueEmail('dup');
    expect((await post('/auth/signup', { email, password: 'secret1' })).status).toBe(200);
    const again = await post('/auth/signup', { email: email.toUpperCase(), password: 'other-secret' });
    expect(again).toMatchObject({ status: 409, body: { error: 'An account with this email already exists' } });

    const raced = uniqueEmail('race');
    const answers = await Promise.all([0, 1, 2].map((i) => post('/auth/signup', { email: i ? raced.toUpperCase() : raced, password: 'secret1' })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    expect(await countUsers(raced)).toBe(1);
  });

  it('answers a wrong password and an unknown email with the same 401', async () => {
    const email = uniqueEmail('wrong');
    await post('/auth/signup', { email, password: 'secret1' });
    const wrongPassword = await post('/auth/signin', { email, password: 'secret2' });
    const unknownEmail = await post('/auth/signin', { email: uniqueEmail('nobody'), password: 'secret1' });
    expect(wrongPassword).toMatchObject({ status: 401, body: { error: 'Invalid email or password' } });
    expect(unknownEmail).toMatchObject({ status: 401, body: { error: 'Invalid email or password' } });
    expect(findSetCookie(wrongPassword.setCookies, SESSION_COOKIE_NAME)).toBeNull();
  });

  it('does not make a password sign-up with a listed address admin from the network: whoever signs up first with the operator address stays a player', async () => {
    // The attack: the operator listed their address in ADMIN_EMAILS and has not signed up yet;
    // somebody else signs up with it over the network (we never verify a password sign-up's email).
    const fromNetwork = { 'x-forwarded-for': '203.0.113.7' };
    const signup = await post('/auth/signup', { email: adminEmail, password: 'attacker1' }, fromNetwork);
    expect(signup.status).toBe(200);
    expect(signup.body.user).toMatchObject({ email: adminEmail, isAdmin: false });
    expect((await app.api('GET', '/admin/check', { token: signup.body.token })).body).toEqual({ isAdmin: false });
    expect((await app.api('GET', '/admin/world-state', { token: signup.body.token })).status).toBe(403);
    // Nor at a later sign-in from the network, nor at the next start of the API.
    const signin = await post('/auth/signin', { email: adminEmail.toLowerCase(), password: 'attacker1' }, fromNetwork);
    expect(signin.body.user).toMatchObject({ isAdmin: false });
    expect(await applyAdminEmails(app.database.db, [adminEmail.toLowerCase()])).toBe(0);
    expect((await app.api('GET', '/admin/check', { token: signin.body.token })).body).toEqual({ isAdmin: false });
    // The start log tells the operator how to grant it if the account is theirs.
    expect(await listedPasswordAccounts(app.database.db, [adminEmail.toLowerCase(), 'absent@example.com'])).toEqual([adminEmail]);
  });

  it("makes a listed password sign-up admin on the game's own machine (the operator's first run), and at a later sign-in there", async () => {
    const operator = 'other@example.com';
    const signup = await post('/auth/signup', { email: operator, password: 'operator1' }, { 'x-forwarded-for': '127.0.0.1' });
    expect(signup.body.user).toMatchObject({ email: operator, isAdmin: true });
    expect((await app.api('GET', '/admin/check', { token: signup.body.token })).body).toEqual({ isAdmin: true });
    // An account a network sign-up took (above) becomes admin when its password is typed on this machine.
    const local = await post('/auth/signin', { email: adminEmail, password: 'attacker1' }, { 'x-forwarded-for': '::1' });
    expect(local.body.user).toMatchObject({ isAdmin: true });
    // Unlisted addresses never are.
    const player = await post('/auth/signup', { email: uniqueEmail('local-player'), password: 'secret1' }, { 'x-forwarded-for': '127.0.0.1' });
    expect(player.body.user).toMatchObject({ isAdmin: false });
  });

  it('trusts no local password relayed by a proxy that TRUST_PROXY_HOPS does not declare (nginx on the same machine)', async () => {
    // TRUST_PROXY_HOPS 0 (the default): the socket is loopback, but a forwarding header says a proxy relayed it.
    const proxied = await startTestApp({
      env: { ADMIN_EMAILS: 'proxied-operator@example.com,proxied-2@example.com,proxied-3@example.com,console-operator@example.com' },
    });
    try {
      const signUpAs = (email: string, headers: Record<string, string>) =>
        rawRequest(proxied.baseUrl, 'POST', '/api/auth/signup', { body: { email, password: 'operator1' }, headers: { origin: proxied.baseUrl, ...headers } });
      const relayed: Array<[string, Record<string, string>]> = [
        ['proxied-operator@example.com', { 'x-forwarded-for': '203.0.113.50' }],
        ['proxied-2@example.com', { forwarded: 'for=203.0.113.50' }],
        ['proxied-3@example.com', { 'x-real-ip': '203.0.113.50' }],
      ];
      for (const [email, header] of relayed) {
        const squat = await signUpAs(email, header);
        expect(squat.status).toBe(200);
        expect(squat.body.user).toMatchObject({ isAdmin: false });
      }
      const signin = await rawRequest(proxied.baseUrl, 'POST', '/api/auth/signin', {
        body: { email: 'proxied-operator@example.com', password: 'operator1' },
        headers: { origin: proxied.baseUrl, 'x-real-ip': '203.0.113.50' },
      });
      expect(signin.body.user).toMatchObject({ isAdmin: false });
      // At the console itself (no proxy header) the operator's first run still works.
      expect((await signUpAs('console-operator@example.com', {})).body.user).toMatchObject({ isAdmin: true });
    } finally {
      await proxied.close();
    }
  });

  it('trusts no local password sign-up on a game with a public address (PUBLIC_URL)', async () => {
    const publicGame = await startTestApp({ env: { ADMIN_EMAILS: 'public-operator@example.com', PUBLIC_URL: 'https://marketcraft.example' } });
    try {
      const signup = await rawRequest(publicGame.baseUrl, 'POST', '/api/auth/signup', {
        body: { email: 'public-operator@example.com', password: 'operator1' },
        headers: { origin: 'https://marketcraft.example' },
      });
      expect(signup.status).toBe(200);
      expect(signup.body.user).toMatchObject({ isAdmin: false });
    } finally {
      await publicGame.close();
    }
  });

  it('applies ADMIN_EMAILS at API start (applyAdminEmails) to listed accounts without a password only, only granting', async () => {
    const [listed, unlisted, listedWithPassword] = await app.database.db
      .insert(users)
      .values([{ email: 'Started@Example.com' }, { email: 'not-listed@example.com' }, { email: 'started-password@example.com', passwordHash: 'x' }])
      .returning({ id: users.id });
    expect(await applyAdminEmails(app.database.db, ['started@example.com', 'absent@example.com', 'started-password@example.com'])).toBe(1);
    expect(await applyAdminEmails(app.database.db, ['started@example.com'])).toBe(0); // already admin
    const ids = [listed!.id, unlisted!.id, listedWithPassword!.id];
    const flags = await app.database.db.select({ id: users.id, isAdmin: users.isAdmin }).from(users).where(inArray(users.id, ids));
    expect(Object.fromEntries(flags.map((row) => [row.id, row.isAdmin]))).toEqual({
      [listed!.id]: true,
      [unlisted!.id]: false,
      [listedWithPassword!.id]: false,
    });
    expect(await applyAdminEmails(app.database.db, [])).toBe(0);
  });

  it('grants and revokes admin with the CLI (npm run admin)', async () => {
    const email = uniqueEmail('cli');
    const signup = await post('/auth/signup', { email, password: 'secret1' });
    const cli = (...args: string[]) =>
      run(process.execPath, ['api/src/cli/admin.ts', ...args], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: app.database.url } }).then(
        (result) => ({ code: 0, ...result }),
        (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
      );

    const granted = await cli('grant', email.toUpperCase());
    expect(granted).toMatchObject({ code: 0, stdout: expect.stringContaining('is now an admin') });
    expect((await app.api('GET', '/admin/check', { token: signup.body.token })).body).toEqual({ isAdmin: true });

    // The other commands side by side (each a Node process of its own; none changes what another reads).
    const [revoked, nobody, usage, noUrl] = await Promise.all([
      cli('revoke', email),
      cli('grant', 'nobody-here@example.com'),
      cli('promote', email),
      run(process.execPath, ['api/src/cli/admin.ts', 'grant', email], { cwd: repoRoot, env: { PATH: process.env.PATH ?? '' } }).catch(
        (error: { code: number; stderr: string }) => error,
      ),
    ]);
    expect(revoked.code).toBe(0);
    expect((await app.api('GET', '/admin/check', { token: signup.body.token })).body).toEqual({ isAdmin: false });
    expect(nobody).toMatchObject({ code: 1, stderr: expect.stringContaining('No user with the email') });
    expect(usage).toMatchObject({ code: 1, stderr: expect.stringContaining('Usage') });
    expect(noUrl).toMatchObject({ code: 1, stderr: expect.stringContaining('DATABASE_URL is not set') });
  });

  describe('cross-site check', () => {
    it('refuses a cookie POST from a foreign Origin or with no Origin, lets the app Origin and bearer tokens through', async () => {
      const signup = await post('/auth/signup', { email: uniqueEmail('origin'), password: 'secret1' });
      const cookie = `${SESSION_COOKIE_NAME}=${signup.body.token}`;
      const foreign = await post('/auth/signout', undefined, { cookie, origin: 'https://evil.example' });
      expect(foreign).toMatchObject({ status: 403, body: { error: expect.stringContaining('Cross-site request refused') } });
      const noOrigin = await post('/auth/signout', undefined, { cookie });
      expect(noOrigin.status).toBe(403);
      const crossSite = await post('/auth/signout', undefined, { cookie, 'sec-fetch-site': 'cross-site' });
      expect(crossSite.status).toBe(403);
      // None of them signed the user out.
      expect((await app.api('GET', '/admin/check', { token: signup.body.token })).status).toBe(200);

      // The same-origin browser cases pass: matching Origin, or no Origin but Sec-Fetch-Site: same-origin.
      const advanceAsPlayer = await post('/admin/advance-turn', undefined, { cookie, origin: app.baseUrl });
      expect(advanceAsPlayer.status).toBe(403); // past the Origin check: refused as a non-admin
      expect(advanceAsPlayer.body.error).not.toContain('Cross-site');
      const sameOrigin = await post('/auth/signout', undefined, { cookie, 'sec-fetch-site': 'same-origin' });
      expect(sameOrigin.status).toBe(200);
      expect((await app.api('GET', '/admin/check', { token: signup.body.token })).status).toBe(401);

      // A script with a bearer token and no Origin passes.
      const signin = await post('/auth/signin', { email: signup.body.user.email, password: 'secret1' });
      const bearer = await post('/auth/signout', undefined, { authorization: `Bearer ${signin.body.token}` });
      expect(bearer.status).toBe(200);
      expect((await app.api('GET', '/admin/check', { token: signin.body.token })).status).toBe(401);
    });

    it('serves scripts of other origins that send a bearer token (CORS without credentials), never on the cookie', async () => {
      const evil = 'https://notebook.example';
      // The browser's preflight: any origin, the Authorization header allowed, no credentials.
      const preflight = await rawRequest(app.baseUrl, 'OPTIONS', '/api/company', {
        headers: { origin: evil, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('*');
      expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
      expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();

      const signup = await post('/auth/signup', { email: uniqueEmail('cors'), password: 'secret1' });
      const cookie = `${SESSION_COOKIE_NAME}=${signup.body.token}`;
      // A foreign page that adds a made-up bearer to the visitor's cookie acts on the bearer alone:
      // it signs nobody out and reads nothing.
      for (const authorization of ['Bearer junk', 'Bearer\tjunk', `bearer   ${'A'.repeat(24)}.${'B'.repeat(32)}`]) {
        await post('/auth/signout', undefined, { cookie, origin: evil, authorization });
        const forged = await rawRequest(app.baseUrl, 'GET', '/api/company', { headers: { cookie, origin: evil, authorization } });
        expect(forged.status, authorization).toBe(401);
      }
      expect((await app.api('GET', '/admin/check', { token: signup.body.token })).status).toBe(200);
      // A foreign Origin with the cookie alone is still refused (the cross-site check above).
      expect((await post('/auth/signout', undefined, { cookie, origin: evil })).status).toBe(403);

      // A script with its own token works from that origin, and the browser may read the answer.
      const read = await rawRequest(app.baseUrl, 'GET', '/api/company', { headers: { origin: evil, authorization: `Bearer ${signup.body.token}` } });
      expect(read.status).toBe(200);
      expect(read.headers['access-control-allow-origin']).toBe('*');
      expect(String(read.headers['access-control-expose-headers']).toLowerCase()).toContain('ratelimit-remaining');
      const signout = await post('/auth/signout', undefined, { origin: evil, authorization: `Bearer ${signup.body.token}` });
      expect(signout.status).toBe(200);
      expect((await app.api('GET', '/admin/check', { token: signup.body.token })).status).toBe(401);
    });

    it('changes nothing on GET: GET /api/auth/signout is not a route', async () => {
      const signup = await post('/auth/signup', { email: uniqueEmail('get'), password: 'secret1' });
      const get = await rawRequest(app.baseUrl, 'GET', '/api/auth/signout', { headers: { authorization: `Bearer ${signup.body.token}` } });
      expect(get.status).toBe(404);
      expect((await app.api('GET', '/admin/check', { token: signup.body.token })).status).toBe(200);
    });
  });
});
