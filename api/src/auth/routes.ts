/**
 * The auth routes under /api/auth (plain Hono routes, not tRPC: they set cookies and redirect).
 * Each parses its input, calls one operation of accounts.ts and shapes the answer. Errors are
 * JSON `{ "error": "<message>" }` with the GameError's status; Google's callback, which a browser
 * follows, redirects to `/?auth_error=<message>` instead.
 */
import type { Context, Hono } from 'hono';
import { ZodError, type z } from 'zod';
import {
  GOOGLE_CANCELLED_MESSAGE,
  GOOGLE_FAILED_MESSAGE,
  GOOGLE_STATE_MISMATCH_MESSAGE,
  GameError,
  googleRedirectMessage,
  signInInputSchema,
  signUpInputSchema,
  type AuthProviders,
} from '@marketcraft/shared';
import type { ApiServices } from '../context.ts';
import { createRequestContext, isSecureRequest } from '../context.ts';
import { clientIpOf, relayedByUndeclaredProxy } from '../clientIp.ts';
import { zodErrorMessage } from '../trpc.ts';
import { bearerCredentialOf } from '../access/credentials.ts';
import { blankSessionCookie, parseCookies, serializeCookie, sessionCookie } from './cookies.ts';
import { SESSION_COOKIE_NAME, invalidateSession, validateSessionToken } from './session.ts';
import { signIn, signInWithIdentity, signUp, type AccountSettings, type SignedIn } from './accounts.ts';
import { createGoogleSignIn } from './google.ts';
import { logRequestError } from '../requestLog.ts';
import type { Logger } from '@marketcraft/db/logger.ts';
import { isPersonalAccessToken } from '../access/personalTokens.ts';
import { databaseUnavailableAnswer, sendUnavailable } from '../availability.ts';
import { SESSION_ONLY_MESSAGE } from '../access/guard.ts';

export const GOOGLE_STATE_COOKIE = 'marketcraft_google_state';
export const GOOGLE_VERIFIER_COOKIE = 'marketcraft_google_code_verifier';
const GOOGLE_COOKIE_MAX_AGE_SECONDS = 10 * 60;

const GOOGLE_NOT_CONFIGURED_MESSAGE = 'Google sign-in is not configured on this server: sign in (or sign up) with your email and password';

/**
 * The session token of the request: a bearer credential if there is one (then never the cookie: the
 * cross-site check lets bearer requests through from any Origin), else the cookie.
 */
function requestToken(req: Request): { token: string; by: 'bearer' | 'cookie' } | null {
  const bearer = bearerCredentialOf(req.headers.get('authorization'));
  if (bearer) return { token: bearer, by: 'bearer' };
  const cookie = parseCookies(req.headers.get('cookie')).get(SESSION_COOKIE_NAME);
  return cookie ? { token: cookie, by: 'cookie' } : null;
}

async function readJsonBody(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    return undefined;
  }
}

function parseInput<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  if (body === undefined || body === null || typeof body !== 'object') {
    throw new GameError('INVALID_INPUT', 'Send a JSON body with "email" and "password"');
  }
  return schema.parse(body);
}

/** A GameError or validation error as the JSON answer; an unreachable database 503; anything else is our fault (500), logged once here. */
function errorResponse(c: Context, error: unknown, logger: Logger): Response {
  if (error instanceof GameError) {
    if (error.retryAfterSeconds !== undefined) c.header('retry-after', String(error.retryAfterSeconds));
    return c.json({ error: error.message }, error.status as 400);
  }
  if (error instanceof ZodError) return c.json({ error: zodErrorMessage(error) }, 400);
  const unavailable = databaseUnavailableAnswer(error);
  if (unavailable) return sendUnavailable(c, unavailable);
  logRequestError(logger, c.req.raw, error, 'auth route failed');
  return c.json({ error: 'Something went wrong on our side. Please try again.' }, 500);
}

export function registerAuthRoutes(app: Hono, services: ApiServices): void {
  const { db, config, logger } = services;
  const settings: AccountSettings = {
    signupBonus: config.SIGNUP_BONUS,
    earlyBirdPerAddress: config.EARLY_BIRD_PER_ADDRESS,
    earlyBirdPlayers: config.EARLY_BIRD_PLAYERS,
    signupsPerAddressPerHour: config.SIGNUPS_PER_ADDRESS_PER_HOUR,
    adminEmails: config.ADMIN_EMAILS,
    trustsLocalPasswords: !config.PUBLIC_URL,
    relayedByUndeclaredProxy: false,
  };
  // A request relayed by a proxy TRUST_PROXY_HOPS does not declare is not from the game's own
  // machine, whatever its socket address (relayedByUndeclaredProxy): no local-password admin, no
  // loopback exemption from the sign-up throttle.
  const settingsFor = (c: Context): AccountSettings =>
    relayedByUndeclaredProxy(c, config.TRUST_PROXY_HOPS) ? { ...settings, trustsLocalPasswords: false, relayedByUndeclaredProxy: true } : settings;
  const google = createGoogleSignIn(config);

  /** Answers `{ user, token }` and sets the session cookie. */
  const signedInResponse = (c: Context, signedIn: SignedIn): Response => {
    c.header('set-cookie', sessionCookie(signedIn.token, signedIn.expiresAt, isSecureRequest(config, c.req.raw)), { append: true });
    c.header('cache-control', 'no-store');
    return c.json({ user: signedIn.user, token: signedIn.token });
  };

  /** Ends the session a browser brought along to sign-in, so one browser holds one session. */
  const endPreviousCookieSession = async (req: Request): Promise<void> => {
    const previous = requestToken(req);
    if (previous?.by !== 'cookie') return;
    const session = await validateSessionToken(db, previous.token);
    if (session) await invalidateSession(db, session.id);
  };

  app.post('/api/auth/signup', async (c) => {
    try {
      const input = parseInput(signUpInputSchema, await readJsonBody(c));
      const signedIn = await signUp(db, settingsFor(c), input, clientIpOf(c, config.TRUST_PROXY_HOPS));
      await endPreviousCookieSession(c.req.raw);
      return signedInResponse(c, signedIn);
    } catch (error) {
      return errorResponse(c, error, logger);
    }
  });

  app.post('/api/auth/signin', async (c) => {
    try {
      const input = parseInput(signInInputSchema, await readJsonBody(c));
      const signedIn = await signIn(db, settingsFor(c), input, clientIpOf(c, config.TRUST_PROXY_HOPS));
      await endPreviousCookieSession(c.req.raw);
      return signedInResponse(c, signedIn);
    } catch (error) {
      return errorResponse(c, error, logger);
    }
  });

  app.post('/api/auth/signout', async (c) => {
    try {
      const current = requestToken(c.req.raw);
      // A personal access token is revoked on the profile, never "signed out" (session-only route).
      if (current?.by === 'bearer' && isPersonalAccessToken(current.token)) return c.json({ error: SESSION_ONLY_MESSAGE }, 403);
      if (current) {
        const session = await validateSessionToken(db, current.token);
        if (session) await invalidateSession(db, session.id);
      }
      c.header('set-cookie', blankSessionCookie(isSecureRequest(config, c.req.raw)), { append: true });
      return c.json({ ok: true });
    } catch (error) {
      return errorResponse(c, error, logger);
    }
  });

  app.get('/api/auth/session', async (c) => {
    const resHeaders = new Headers();
    const ctx = await createRequestContext(services, c.req.raw, resHeaders, clientIpOf(c, config.TRUST_PROXY_HOPS));
    resHeaders.set('content-type', 'application/json; charset=utf-8');
    resHeaders.set('cache-control', 'no-store');
    return new Response(JSON.stringify({ user: ctx.user }), { status: 200, headers: resHeaders });
  });

  app.get('/api/auth/providers', (c) => c.json({ google: google !== null } satisfies AuthProviders));

  const googleCookie = (c: Context, name: string, value: string, maxAgeSeconds: number) =>
    c.header('set-cookie', serializeCookie(name, value, { maxAgeSeconds, secure: isSecureRequest(config, c.req.raw) }), { append: true });

  app.get('/api/auth/google', (c) => {
    if (!google) return c.json({ error: GOOGLE_NOT_CONFIGURED_MESSAGE }, 503);
    const { state, codeVerifier, authorizationUrl } = google.start();
    googleCookie(c, GOOGLE_STATE_COOKIE, state, GOOGLE_COOKIE_MAX_AGE_SECONDS);
    googleCookie(c, GOOGLE_VERIFIER_COOKIE, codeVerifier, GOOGLE_COOKIE_MAX_AGE_SECONDS);
    c.header('cache-control', 'no-store');
    return c.redirect(authorizationUrl.toString(), 302);
  });

  app.get('/api/auth/google/callback', async (c) => {
    if (!google) return c.json({ error: GOOGLE_NOT_CONFIGURED_MESSAGE }, 503);
    // The state and verifier are single-use: cleared whatever happens next.
    googleCookie(c, GOOGLE_STATE_COOKIE, '', 0);
    googleCookie(c, GOOGLE_VERIFIER_COOKIE, '', 0);
    c.header('cache-control', 'no-store');
    // Only the texts the sign-in page shows from its address (googleRedirectMessage); any other as 'failed'.
    const failed = (message: string) => c.redirect(`/?auth_error=${encodeURIComponent(googleRedirectMessage(message) ?? GOOGLE_FAILED_MESSAGE)}`, 302);

    const cookies = parseCookies(c.req.header('cookie'));
    const expectedState = cookies.get(GOOGLE_STATE_COOKIE);
    const codeVerifier = cookies.get(GOOGLE_VERIFIER_COOKIE);
    const state = c.req.query('state');
    const code = c.req.query('code');
    if (c.req.query('error')) return failed(c.req.query('error') === 'access_denied' ? GOOGLE_CANCELLED_MESSAGE : GOOGLE_FAILED_MESSAGE);
    if (!state || !expectedState || !codeVerifier || state !== expectedState) return failed(GOOGLE_STATE_MISMATCH_MESSAGE);
    if (!code) return failed(GOOGLE_FAILED_MESSAGE);

    let identity;
    try {
      identity = await google.finish(code, codeVerifier);
    } catch (error) {
      logger.warn({ err: error }, `Google code exchange failed: ${error instanceof Error ? error.message : String(error)}`);
      return failed(GOOGLE_FAILED_MESSAGE);
    }
    try {
      const signedIn = await signInWithIdentity(
        db,
        settingsFor(c),
        {
          provider: 'google',
          subject: identity.sub,
          email: identity.email,
          emailVerified: identity.emailVerified,
        },
        clientIpOf(c, config.TRUST_PROXY_HOPS),
      );
      await endPreviousCookieSession(c.req.raw);
      c.header('set-cookie', sessionCookie(signedIn.token, signedIn.expiresAt, isSecureRequest(config, c.req.raw)), { append: true });
      return c.redirect('/', 302);
    } catch (error) {
      if (error instanceof GameError) {
        if (!googleRedirectMessage(error.message)) logger.warn({ err: error }, `Google sign-in refused: ${error.message}`);
        return failed(error.message);
      }
      logRequestError(logger, c.req.raw, error, 'Google sign-in failed');
      return failed(GOOGLE_FAILED_MESSAGE);
    }
  });
}
